"""The model backend behind a sign-in throttle."""

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied

from accounts import badges, selectors, services
from accounts.addresses import client_address
from base.compiled import CompiledRead

# Every signed-in page request loads its user with the badges' five subqueries: compiled once per process
# (base.compiled), since building and compiling that statement cost more Python than the page's own reads.
_USER_WITH_BADGES = CompiledRead(
    lambda pk: get_user_model()._default_manager.annotate(**badges.annotations()).filter(pk=pk).order_by()[:1]
)

# Set on the Django request when a sign-in was refused by the lock; LoginThrottleMiddleware answers 429.
LOCKED_ATTRIBUTE = "login_retry_after"


class ThrottledModelBackend(ModelBackend):
    """Checks the lock before the password: a locked account or address is refused without hashing anything.

    Raising PermissionDenied makes django.contrib.auth.authenticate() stop at once; the form or endpoint then
    reports a failed sign-in, which the middleware turns into 429 with the time to wait. This covers the web
    sign-in, the admin sign-in and the API token endpoint alike, since all three call authenticate()."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return super().authenticate(request, username=username, password=password, **kwargs)
        if username is None:
            username = kwargs.get(self._username_field())
        address = client_address(request)
        wait = selectors.login_retry_after(username=username or "", address=address)
        if wait:
            setattr(getattr(request, "_request", request), LOCKED_ATTRIBUTE, wait)
            raise PermissionDenied
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is not None:
            services.forget_account_failures(username=username or "", address=address)
        return user

    @staticmethod
    def _username_field() -> str:
        return get_user_model().USERNAME_FIELD

    def get_user(self, user_id):
        """The signed-in user of each request, loaded together with the number of results waiting for their
        confirmation and of disputes waiting for their decision as a director (the menu's badges,
        base.context_processors): one query, not three, on every page, compiled once per process. The counts come
        from the apps that register them (accounts.badges)."""
        try:
            user = _USER_WITH_BADGES.first(int(user_id))
        except (TypeError, ValueError):  # a session from before a change of the user model's key
            return None
        if user is None:
            return None
        return user if self.user_can_authenticate(user) else None
