"""The knockout: drawn into a bracket of Slot rows (tournaments.services.draws, .progression), not paired in
rounds. Its shape (single, fed, double elimination) follows from the flight's kind and feed rule
(tournaments.core.layout)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from base.errors import Conflict
from tournaments.formats.base import Format
from tournaments.models import FlightFormat
from tournaments.selectors import brackets
from tournaments.selectors import chances as chances_read


class Knockout(Format):
    key = FlightFormat.KNOCKOUT
    round_based = False
    options = frozenset()

    def pairs(self, flight, number: int):
        raise Conflict(_("This flight is a knockout: it is drawn, not paired in rounds."), code="not_round_based")

    def feeds_cut(self, flight) -> bool:
        return False

    def place_chances(self, flight, *, bracket=None, entries=None):
        """Exact for a released single-elimination tree; simulated before the draw over the flight's own draw;
        simulated event-wide for the other shapes (double elimination, a third-place match, a playoff for 2nd, a
        flight fed by another's losers), whose shape follows from `Layout.for_flight` as everywhere."""
        return chances_read.knockout_chances(flight, bracket, entries)

    def describe(self, flight) -> list[str]:
        return [self.label()]

    def round_label(
        self, flight, number: int, *, group: int = 0, table: int | None = None, section: str = "", last: int = 0
    ) -> str:
        """The bracket's own name of the round ("Final", "Semi-finals", "Losers' side, Round 2"), as its page heads
        it; a main bracket's last round follows from its size when the caller does not know it."""
        if not last and flight is not None and (section or "w") == "w":
            last = (flight.size or 0).bit_length() - 1
        return brackets.round_title(section or "w", number, last)
