"""Who may do what with game records (registered with clubs.access)."""

from django.utils.translation import gettext_lazy as _

from clubs.access import rule
from games.models import Match


@rule("record.attach", _("Only the players of this match and its directors can attach records to it."))
def attach(user, match: Match) -> bool:
    return bool(match.user_is_participant(user) or match.user_is_director(user))
