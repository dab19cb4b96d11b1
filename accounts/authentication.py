"""`Authorization: Token <key>` against the hashed, expiring tokens of accounts.models.ApiToken."""

from datetime import timedelta

from django.utils import formats, timezone
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from accounts import selectors
from accounts.models import ApiToken, token_digest
from base.compiled import CompiledRead

# Recording every use would write a row on every API call; once per this interval is enough to show it.
LAST_USED_RESOLUTION = timedelta(minutes=5)


# Every API request signed with a token sends this read: compiled once per process (base.compiled).
_TOKEN_BY_DIGEST = CompiledRead(
    lambda digest: ApiToken.objects.select_related("user__player").filter(digest=digest).order_by()[:1], strings=(0,)
)


class ApiTokenAuthentication(TokenAuthentication):
    model = ApiToken

    def authenticate_header(self, request):
        """401 with "WWW-Authenticate: Token" when a token was sent and refused (expired, revoked); with no
        Authorization header at all the API keeps answering anonymous writes 403, as it always has."""
        return super().authenticate_header(request) if request.META.get("HTTP_AUTHORIZATION") else None

    def authenticate_credentials(self, key):
        # get, not first(): the digest is unique, and first() sorted by the default ordering on every request.
        # The user's player comes with it (None for an account without one): nearly every API write asks which
        # side of a match, table or bracket the caller is on, and that was a query of its own on each request.
        token = _TOKEN_BY_DIGEST.first(token_digest(key))
        if token is None:
            raise exceptions.AuthenticationFailed(_("Invalid token: it was revoked or never existed.")) from None
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        now = timezone.now()
        expires = selectors.token_expires(token)
        if expires is not None and expires <= now:
            raise exceptions.AuthenticationFailed(
                _(
                    "This token expired on %(date)s. Get a new one with POST /api/v1/auth/token/ "
                    "(username and password) or on your account page."
                )
                % {"date": formats.date_format(timezone.localtime(expires), "DATETIME_FORMAT")}
            )
        if token.last_used is None or token.last_used < now - LAST_USED_RESOLUTION:
            ApiToken.objects.filter(pk=token.pk).update(last_used=now)
        return token.user, token
