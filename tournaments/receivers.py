"""Where the tournaments app plugs into match play and ratings: results move the bracket, and a player who entered
a club's event themself belongs to that club for the overall rating pool. config/pipeline.py wires these
functions into games' and ratings' hooks."""

from django.db.models import Exists, F, OuterRef

from tournaments import services
from tournaments.models import Entry, Pairing, Slot, TeamKind
from tournaments.services import teams


def entered_a_club_event(side: str) -> Exists:
    """ratings.hooks.club_consent: the player on `side` of the match entered an event of the match's club by
    their own registration."""
    return Exists(
        Entry.objects.filter(
            flight__event__club=OuterRef("club"), player=OuterRef(side), registered_by=F("player__user")
        )
    )


def played_by_pairs() -> Exists:
    """ratings.hooks.not_rated: the match is a doubles or consultation pair's (the bracket's or a round's). Its
    result belongs to two players each side, so it is in no one's rating (per-player doubles rating is not
    supported: docs/tournaments.md)."""
    pairs = [TeamKind.DOUBLES, TeamKind.CONSULTATION]
    return Exists(Slot.objects.filter(match=OuterRef("pk"), flight__team_kind__in=pairs)) | Exists(
        Pairing.objects.filter(match=OuterRef("pk"), flight__team_kind__in=pairs)
    )


def result_confirmed(match, report) -> None:
    """One hook for every kind of tournament match: a bracket slot's result, else a round's table, else a team
    match's board. Asking all every time cost a bracket result queries more."""
    if (
        not services.result_confirmed(match, report)
        and not services.round_result_confirmed(match, report)
        and not services.playoff_confirmed(match, report)
    ):
        teams.board_confirmed(match, report)  # last: a singles or round result costs no query more
