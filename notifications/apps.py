from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    """Tells people what the apps below did (a match is ready, a result waits, ...) in-app, by e-mail and through
    a club's webhook. It sits above every app it listens to, and its callbacks (receivers.py) run on their hooks
    (config/pipeline.py wires them): none imports it."""

    name = "notifications"
    verbose_name = _("Notifications")
