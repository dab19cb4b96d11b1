from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self):
        from accounts import services, signals  # noqa: F401, PLC0415 - connects the failed sign-in counter once the models are ready
        from base.queue import sweepers  # noqa: PLC0415

        sweepers.register(services.sweep_password_reset_mails)  # reset mails that could not go out yet
