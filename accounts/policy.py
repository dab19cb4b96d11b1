"""The throttle policies from settings and the counter keys they apply to."""

import hashlib
from datetime import timedelta

from django.conf import settings

from accounts.core.throttle import Policy
from accounts.models import LoginScope


def _policy(limit: int) -> Policy:
    minutes = timedelta(minutes=settings.LOGIN_LOCKOUT_MINUTES)
    return Policy(limit=limit, window=minutes, lockout=minutes)


def normalised_username(username) -> str:
    """Case-folded, so "Anna" and "anna" share one counter; NUL and other control characters dropped."""
    text = str(username or "")[:150]
    return "".join(ch for ch in text if ch.isprintable()).casefold()


def login_keys(*, username, address: str | None) -> list[tuple[str, str, Policy]]:
    """(key, scope, policy) for each counter a sign-in of `username` from `address` touches."""
    name = normalised_username(username)
    where = address or "unknown"
    pairs = [
        (LoginScope.ACCOUNT_AT_ADDRESS, f"{name}\n{where}", _policy(settings.LOGIN_FAILURE_LIMIT)),
        (LoginScope.ADDRESS, where, _policy(settings.LOGIN_ADDRESS_FAILURE_LIMIT)),
    ]
    return [
        (hashlib.sha256(f"{scope}\n{text}".encode()).hexdigest(), str(scope), policy) for scope, text, policy in pairs
    ]
