from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    """Tells people what the apps below did (a match is ready, a result waits, ...) in-app, by e-mail and through
    a club's webhook. It sits above every app it listens to and registers on their hooks: none imports it."""

    name = "notifications"
    verbose_name = _("Notifications")

    def ready(self) -> None:
        from accounts import badges  # noqa: PLC0415 - imports models
        from base.queue import sweepers  # noqa: PLC0415
        from notifications import receivers, selectors, services  # noqa: PLC0415, F401 - registers the callbacks

        badges.register("unread_notifications", selectors.unread_count_subquery)  # the header's bell
        sweepers.register(services.sweep_due)
