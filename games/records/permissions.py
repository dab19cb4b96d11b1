"""Who may do what with game records (registered with clubs.access)."""

from django.utils.translation import gettext_lazy as _

from clubs.access import rule
from games.models import Match


@rule("record.attach", _("Only the players of this match and its directors can attach records to it."))
def attach(user, match: Match) -> bool:
    return bool(match.user_is_participant(user) or match.user_is_director(user))


@rule(
    "record.analyse_deeper",
    _("Only the record's uploader and the match's directors can ask for a deeper analysis."),
)
def analyse_deeper(user, record) -> bool:
    """A deeper ply costs the engine minutes, so only who brought the record, or directs its match, asks."""
    if record.uploader_id == user.pk:
        return True
    match = record.match
    return bool(match is not None and match.user_is_director(user))
