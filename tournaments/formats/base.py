"""The one interface every flight format answers (`Format`), so nothing outside this package asks which format a
flight is: the services pair, end, place and qualify through it, the forms take the options it names, the pages
describe a flight and label its rounds with it.

Why one class per format (as Tabbycat's draw generators): a format added as `if flight.format == …` branches had
to be found in eight places; a format is now one class here, one choice in `FlightFormat` (and its migration)
and its docs. The classes hold no state: one instance per format, in `tournaments.formats.FORMATS`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from base.errors import Invalid
from tournaments.core import chances as core_chances
from tournaments.core.errors import BracketError
from tournaments.core.standings import DEFAULT_ORDER, validate_order
from tournaments.format_registry import FORMATS
from tournaments.models import FlightFormat, FlightKind
from tournaments.selectors import chances as chances_read
from tournaments.selectors import rounds as read

Pairs = list[tuple[int, int | None]]

#: Every option a format may take, with the value that means "not set" (what a format that does not take it
#: must be given).
OPTION_OFF = {
    "rounds": None,
    "until_one_unbeaten": False,
    "tiebreaks": None,
    "cut_size": None,
    "cycles": 1,
    "group_size": None,
    "advance": None,
}


#: What each option is called in a refusal.
OPTION_LABELS = {
    "rounds": gettext_lazy("a number of rounds"),
    "until_one_unbeaten": gettext_lazy("“until one unbeaten”"),
    "tiebreaks": gettext_lazy("a tie-break order"),
    "cut_size": gettext_lazy("a cut"),
    "cycles": gettext_lazy("meeting twice"),
    "group_size": gettext_lazy("a group size"),
    "advance": gettext_lazy("how many advance from a group"),
}


@dataclass
class Settings:
    """A flight's format settings as given at set-up (the service's arguments), checked by `Format.check`."""

    kind: str = FlightKind.MAIN
    team_event: bool = False
    rounds: int | None = None
    until_one_unbeaten: bool = False
    tiebreaks: list = field(default_factory=list)
    cut_size: int | None = None
    cycles: int = 1
    group_size: int | None = None
    advance: int | None = None

    def given(self) -> set[str]:
        return {name for name, off in OPTION_OFF.items() if getattr(self, name) not in (off, [], None)}


class Format:
    """How a flight's matches are made, and what follows from them. Subclasses set the class attributes and
    override what differs; the defaults are those of a flight played in rounds with a standings table."""

    key: str = ""
    #: Played in rounds of Pairing rows (paired round by round) rather than drawn into a bracket of Slot rows.
    round_based: bool = True
    #: The options of `OPTION_OFF` it takes (the form shows only these, the service refuses the others).
    options: frozenset[str] = frozenset({"tiebreaks", "cut_size"})
    #: A team event may be played in it.
    team_events: bool = True
    #: A late entry joins after its rounds started (paired from the next round).
    late_entries_while_running: bool = False
    #: Its tables of a withdrawn player include games not yet paired (a round robin's schedule).
    scheduled_games: bool = False
    default_tiebreaks: tuple[str, ...] = DEFAULT_ORDER

    # --- set-up -----------------------------------------------------------------------------------------------

    def check(self, settings: Settings) -> list[str]:
        """The settings refused with what would work; returns the tie-break order to store (empty: the
        default)."""
        for name in sorted(settings.given() - self.options):
            takers = [f.label() for f in FORMATS.values() if name in f.options]
            message = _("Only these formats take %(option)s: %(formats)s. Leave it empty for %(format)s.") % {
                "option": OPTION_LABELS[name],
                "format": self.label(),
                "formats": ", ".join(str(t) for t in takers),
            }
            raise Invalid(message, field=name)
        if self.round_based and settings.kind != FlightKind.MAIN:
            raise Invalid(_("A flight played in rounds is a main flight."), field="kind")
        if settings.team_event and not self.team_events:
            message = _("A team event is a knockout, a Swiss, a round robin or a triple elimination: choose one.")
            raise Invalid(message, field="format")
        if settings.cut_size is not None and not 2 <= int(settings.cut_size) <= 256:
            raise Invalid(_("Cut to between the top 2 and the top 256."), field="cut_size")
        self.check_own(settings)
        return list(validate_order(settings.tiebreaks) if settings.tiebreaks else [])

    def check_own(self, settings: Settings) -> None:
        """The format's own settings (a Swiss's rounds, a group's size)."""

    def check_field(self, flight, entrants: int) -> None:
        """At round 1, when the field is known: a setting the field cannot play is refused with what works."""
        if entrants < 2:
            raise BracketError("too_few_entrants", "A round needs at least two players.", "entries")
        if flight.cut_size and flight.cut_size >= entrants:  # a cut of everyone (or more) decides nothing
            raise BracketError(
                "cut_too_large",
                f"A cut of the top {flight.cut_size} needs more than the {entrants} players in round 1: "
                + f"cut to the top {entrants - 1} or fewer (at least 2), or leave the cut off.",
                "cut_size",
                cut=flight.cut_size,
                entrants=entrants,
                most=entrants - 1,
            )

    # --- playing ----------------------------------------------------------------------------------------------

    def pairs(self, flight, number: int) -> dict[int, Pairs]:
        """Round `number`'s pairs by group (0 when not played in groups): (entry, entry or None for a bye)."""
        raise NotImplementedError

    def is_over(self, flight) -> bool:
        raise NotImplementedError

    def last_round(self, flight) -> int | None:
        """The round after which the flight ends, when known in advance (None: it depends on the results)."""
        return None

    def places(self, flight) -> dict[int, int | None]:
        """Final place of every entry (None: never played) once the flight is over: the standings' rank."""
        return {row.entry.pk: row.line.rank for row in read.flight_standings(flight=flight)}

    # --- chances ----------------------------------------------------------------------------------------------

    def place_chances(self, flight, *, bracket=None, entries=None):
        """Each entrant's chance of every place (tournaments.selectors.chances.FlightChances), None where none are
        computed. A flight played in rounds: its state read once (`selectors.chances.round_state`), then the
        rest played out many times by `chances_sample`, this format's own way to play itself out."""
        state = chances_read.round_state(flight)
        if state is None:
            return None
        sample, ms_per_run = self.chances_sample(flight, state)
        return chances_read.simulated_rounds(flight, state, sample, ms_per_run=ms_per_run)

    def chances_sample(self, flight, state) -> tuple[core_chances.Sample, float]:
        """How the rest of the flight plays out once from `state` (a pure `tournaments.core.chances` sampler:
        played results fixed, open and future matches by the FIBS chance, later rounds paired and ranked by the
        format's own cores), and about what one run costs in milliseconds (how many runs a miss can afford)."""
        raise NotImplementedError

    # --- the next stage ---------------------------------------------------------------------------------------

    def feeds_cut(self, flight) -> bool:
        """The flight's best go on to a knockout (a main flight with feed rule `cut` and this one as source)."""
        return bool(flight.cut_size)

    def pools(self, flight) -> list[Pool]:
        """Who may go on to the cut, by pool (the whole field, or each group) in standings order with the number
        of places each pool sends: the top `cut_size` of the standings, withdrawn players left out."""
        table = [r for r in read.flight_standings(flight=flight) if not r.withdrawn]
        lines = [Line(r.entry.pk, r.entry.player_id, r.line.rank, r.entry.name) for r in table]
        return [Pool(group=0, lines=lines, spots=min(flight.cut_size or 0, len(lines)))]

    def seeds(self, flight, qualified: list[list[Line]]) -> list[tuple[int, int]]:
        """(player id, knockout seed) of the qualified, pool by pool in their final order: standings order."""
        return [(line.player_id, seed) for seed, line in enumerate((q for pool in qualified for q in pool), 1)]

    # --- pages ------------------------------------------------------------------------------------------------

    def label(self) -> str:
        return str(FlightFormat(self.key).label)

    def describe(self, flight) -> list[str]:
        """The flight's line on its page, part by part ("Swiss", "3 rounds", "then the top 4 play a knockout")."""
        parts = [self.label()]
        if flight.cut_size:
            parts.append(
                ngettext(
                    "then the top %(n)s plays a knockout",
                    "then the top %(n)s play a knockout",
                    flight.cut_size,
                )
                % {"n": flight.cut_size}
            )
        return parts

    def round_label(
        self, flight, number: int, *, group: int = 0, table: int | None = None, section: str = "", last: int = 0
    ) -> str:
        """A round as a player reads it on a phone and a card: "Round 3, table 2" (the one place that names a
        round: the home page, the calling queue, the dashboard, a result card and a call's notification ask it).
        `section` and `last` (a bracket's section and its highest round) are the knockout's."""
        if table is None:
            return _("Round %(round)s") % {"round": number}
        return _("Round %(round)s, table %(table)s") % {"round": number, "table": table}

    def standings_groups(self, flight) -> list:
        """The standings split by group for the page (none: one table)."""
        return []


@dataclass(frozen=True)
class Line:
    """A player's line in a pool at the end of a stage; players equal on every criterion share `rank`."""

    entry_id: int
    player_id: int
    rank: int
    name: str = ""


@dataclass
class Pool:
    """The players of one pool (the field, or a group) best first, and how many of them go on."""

    group: int
    lines: list[Line]
    spots: int

    def tie_at_the_line(self) -> tuple[list[Line], int] | None:
        """The players sharing the rank across the qualifying line and how many of them go on, or None when the
        line falls between two ranks."""
        if not 0 < self.spots < len(self.lines):
            return None
        last_in, first_out = self.lines[self.spots - 1], self.lines[self.spots]
        if last_in.rank != first_out.rank:
            return None
        tied = [line for line in self.lines if line.rank == last_in.rank]
        above = sum(1 for line in self.lines if line.rank < last_in.rank)
        return tied, self.spots - above
