"""Who may do what with events and their entries (see clubs.access)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from clubs import selectors as club_selectors
from clubs.access import player_of, rule
from clubs.models import Player


@dataclass(frozen=True)
class EntryDraft:
    """A player about to be entered into an event (what event.enter decides on)."""

    event: object
    player: Player

    @property
    def club(self):
        return self.event.club


@rule("event.direct", _("Only a director of this event can do this."))
def direct(user, event) -> bool:
    return event.user_is_director(user)


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
