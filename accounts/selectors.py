"""Reads for sign-in throttling, API tokens and password-reset mail."""

from datetime import timedelta

from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.utils import timezone

from accounts.core import throttle
from accounts.models import ApiToken, LoginFailureWindow
from accounts.policy import login_keys


def login_retry_after(*, username: str, address: str | None) -> int:
    """Seconds until this account may try to sign in from this address again; 0 when it may now.

    One indexed read and no password hash, so a locked-out guesser costs the server almost nothing."""
    now = timezone.now()
    keys = [key for key, _scope, _policy in login_keys(username=username, address=address)]
    rows = LoginFailureWindow.objects.filter(key__in=keys, locked_until__gt=now)
    return max((throttle.retry_after_seconds(row.as_window(), now=now) for row in rows), default=0)


def token_expires(token: ApiToken):
    """When a token stops working (TOKEN_TTL days after it was made), or None when tokens do not expire."""
    if settings.TOKEN_TTL <= 0:
        return None
    return token.created + timedelta(days=settings.TOKEN_TTL)


def user_tokens(*, user):
    return ApiToken.objects.filter(user=user).order_by("-created", "-id")


def password_reset_accounts(*, address: str) -> list:
    """The accounts a reset mail for `address` goes to: Django's own rule (active, with a usable password, the
    address equal ignoring case), asked when the mail is sent, never while the request is answered."""
    return list(PasswordResetForm().get_users(address))
