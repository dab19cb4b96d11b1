"""Who may do what with events and their entries (registered with clubs.access): services `require`, views,
the API and templates ask `can`. One place, so a page and the service behind it cannot disagree about who
directs an event or who may withdraw a player."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from clubs import selectors as club_selectors
from clubs.access import is_director, player_of, rule
from clubs.models import Club, Player
from games.models.matches import MatchContext
from tournaments.models import Slot, TeamBoard


@dataclass(frozen=True)
class EntryDraft:
    """A player about to be entered into an event (what event.enter decides on)."""

    event: object
    player: Player

    @property
    def club(self):
        return self.event.club


@rule("event.create", _("Only a director or admin of the club can create an event."))
def create(user, club: Club) -> bool:
    return is_director(user, club)


@rule("payout_table.manage", _("Only a director or admin of the club sees and makes its payout tables."))
def manage_payout_tables(user, club: Club) -> bool:
    """The club's own payout tables: the directors who set up its events (the same people as event.create)."""
    return create(user, club)


@rule("event.direct", _("Only a director of this event can do this."))
def direct(user, event) -> bool:
    """The event's own directors and the club's directors and admins (Event.user_is_director)."""
    return event.user_is_director(user)


def _own_or_directed(user, entry) -> bool:
    own = player_of(user)
    return (own is not None and own.pk == entry.player_id) or entry.flight.event.user_is_director(user)


@rule("entry.check_in", _("Players check themselves in; a director checks in anyone."))
def check_in(user, entry) -> bool:
    return _own_or_directed(user, entry)


@rule("entry.withdraw", _("Players withdraw themselves; a director withdraws anyone."))
def withdraw(user, entry) -> bool:
    """A withdrawal decides the player's match (a walkover signed in their name), so only they or a director."""
    return _own_or_directed(user, entry)


@rule("waiting.answer", _("Players answer their own place on a waiting list; a director answers for anyone."))
def answer_waiting(user, spot) -> bool:
    """Accepting an offered place enters the player, and leaving gives their turn away: only they or a director."""
    return _own_or_directed(user, spot)


@rule("entry.lineup", _("A team's captain sets its lineup; a director sets anyone's."))
def lineup(user, entry) -> bool:
    """The board order is the team's own choice: its captain (Entry.player) or a director."""
    return _own_or_directed(user, entry)


@rule(
    "event.enter",
    _(
        "Players enter themselves; a director enters players of the club (accepted members or its walk-ins). "
        "Invite anyone else to the club first, or ask them to register."
    ),
)
def enter(user, draft: EntryDraft) -> bool:
    own = player_of(user)
    if own is not None and own.pk == draft.player.pk:
        return True
    return draft.event.user_is_director(user) and club_selectors.belongs_to(player=draft.player, club=draft.event.club)


def directs_match(match, user) -> bool:
    """Registered with games (register_director_check): an event's directors direct the matches of its bracket,
    so match play's own rules (match.direct, match.override) let them settle those matches."""
    if match.context != MatchContext.TOURNAMENT:
        return False
    slot = Slot.objects.filter(match=match).select_related("flight__event__club").first()
    if slot is None:  # a team match's board: its flight's directors direct it
        slot = TeamBoard.objects.filter(match=match).select_related("flight__event__club").first()
    return slot is not None and slot.flight.event.user_is_director(user)
