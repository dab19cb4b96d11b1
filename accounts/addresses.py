"""The client's address, the one a sign-in throttle can count."""

import ipaddress

from django.conf import settings


def client_address(request) -> str | None:
    """REMOTE_ADDR, or behind a trusted proxy (BEHIND_PROXY) the last X-Forwarded-For entry: the one the proxy
    itself appended, which a client cannot forge (entries further left are whatever the client sent)."""
    request = getattr(request, "_request", request)  # a DRF Request wraps Django's
    candidate = request.META.get("REMOTE_ADDR", "")
    if settings.BEHIND_PROXY:
        forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        if forwarded[-1]:
            candidate = forwarded[-1]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return None
