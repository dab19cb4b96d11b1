"""Who may do what with a club's webhook (see clubs.access)."""

from django.utils.translation import gettext_lazy as _

from clubs.access import is_admin, rule


@rule("club.webhook", _("Only the club's admins set its webhook and see its deliveries."))
def manage_webhook(user, club) -> bool:
    """The URL, the signing secret and what was posted (with the receivers' answers) are the admins' alone."""
    return is_admin(user, club)
