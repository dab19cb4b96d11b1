from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    name = "clubs"
    verbose_name = _("Clubs")
    nav_items = [(_("Clubs"), "clubs:club-list")]
    panels = {"home": "clubs.panels.home_panel"}

    def ready(self) -> None:
        from base.epc import PaymentCodeError  # noqa: PLC0415 - registered once the apps are loaded
        from base.messages import register  # noqa: PLC0415
        from base.paylinks import PayLinkError  # noqa: PLC0415
        from clubs.messages import PAY_LINK_MESSAGES, PAYMENT_CODE_MESSAGES  # noqa: PLC0415

        register(PaymentCodeError, PAYMENT_CODE_MESSAGES)
        register(PayLinkError, PAY_LINK_MESSAGES)
