"""Every failed sign-in, whichever form or endpoint it came through, is counted here."""

from django.contrib.auth.signals import user_login_failed
from django.dispatch import receiver

from accounts import services
from accounts.addresses import client_address
from accounts.backends import LOCKED_ATTRIBUTE


@receiver(user_login_failed, dispatch_uid="accounts.count_login_failure")
def count_login_failure(sender, credentials, request=None, **kwargs):
    if request is None:  # authenticate() called outside a request (shell, command): nothing to throttle
        return
    raw = getattr(request, "_request", request)
    if getattr(raw, LOCKED_ATTRIBUTE, 0):  # refused by the lock, not by a wrong password
        return
    services.record_login_failure(username=credentials.get("username", ""), address=client_address(request))
