"""Reads of round-based flights (Swiss, triple elimination, and the round robin built on them): the pairings of
a round, a player's table, and the standings table with its tie-break columns.

The standings are computed from the stored pairings by the pure core on every read (two queries), never
stored: a corrected result changes them at once and there is nothing to keep in step.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import F, Prefetch, Q, Value
from django.db.models.functions import Coalesce, NullIf

from clubs.models import public_name_of
from tournaments.core import standings as core
from tournaments.core.tiebreaks import TIEBREAKS, Tiebreak
from tournaments.format_registry import FORMATS
from tournaments.models import (
    SCORED_RESULTS,
    Entry,
    Flight,
    Pairing,
    PairingResult,
    RoundStandings,
    TeamBoard,
    TeamKind,
)
from tournaments.selectors.brackets import share_flight

#: The stored result -> the core's kind of game.
GAME_KIND = {
    PairingResult.PLAYED: core.PLAYED,
    PairingResult.BYE: core.BYE,
    PairingResult.FORFEIT: core.FORFEIT,
    PairingResult.DOUBLE_FORFEIT: core.DOUBLE_FORFEIT,
}


@dataclass
class StandingRow:
    """A standings line for the page and the API: the core's numbers and the entry they belong to."""

    entry: Entry
    line: core.Standing

    @property
    def withdrawn(self) -> bool:
        return self.entry.status == "withdrawn"


def tiebreak_order(flight: Flight) -> tuple[str, ...]:
    """The criteria the standings sort by, first to last: the flight's own order, else its format's default (the
    one place that decides; the page, the API and the pairing all read it)."""
    if flight.tiebreaks:
        return core.validate_order(flight.tiebreaks)
    return FORMATS[flight.format].default_tiebreaks


def tiebreaks_in_effect(flight: Flight) -> list[Tiebreak]:
    """The tie-break criteria in effect, first to last (none for a knockout): what the standings are sorted by
    even when the flight stores no order of its own."""
    return tiebreaks_named(tiebreak_order(flight)) if flight.is_round_based else []


def tiebreaks_named(order) -> list[Tiebreak]:
    """The criteria of a stored order (a flight's, or the one a round was paired with), first to last."""
    return [TIEBREAKS[key] for key in order if key in TIEBREAKS]


def games_of(pairings) -> list[core.Game]:
    """The scored pairings as the core's games (pending and not-scored pairings do not count)."""
    return [
        core.Game(
            p.entry_a_id,
            p.entry_b_id,
            kind=GAME_KIND[p.result],
            winner=p.winner_id,
            points_a=p.score_a,
            points_b=p.score_b,
        )
        for p in pairings
        if p.result in SCORED_RESULTS
    ]


def flight_standings(*, flight: Flight, group: int | None = None) -> list[StandingRow]:
    """The standings table, best first (two queries). `group` limits it to one group of a groups flight."""
    entries = list(Entry.objects.filter(flight=flight).select_related("player").order_by("seed", "pk"))
    pairings = Pairing.objects.filter(flight=flight, result__in=SCORED_RESULTS)
    if group is not None:
        pairings = pairings.filter(group=group)
    results = games_of(pairings.only("entry_a", "entry_b", "result", "winner", "score_a", "score_b"))
    if group is not None:
        seated = {g.a for g in results} | {g.b for g in results}
        entries = [e for e in entries if e.pk in seated]
    by_id = {e.pk: e for e in entries}
    table = core.standings([e.pk for e in entries], results, tiebreak_order(flight))
    return [StandingRow(entry=by_id[line.key], line=line) for line in table]


def opponents_met(*, flight: Flight, before_round: int | None = None) -> dict[int, set[int]]:
    """Everyone each entry was paired against (in the rounds before `before_round`), whatever came of it: the
    no-rematch rule counts every pairing."""
    met: dict[int, set[int]] = {}
    pairings = Pairing.objects.filter(flight=flight, entry_b__isnull=False)
    if before_round is not None:
        pairings = pairings.filter(round__lt=before_round)
    for a, b in pairings.values_list("entry_a", "entry_b"):
        met.setdefault(a, set()).add(b)
        met.setdefault(b, set()).add(a)
    return met


def round_pairings(*, flight: Flight, round_number: int | None = None) -> list[Pairing]:
    """A round's tables (the current round by default), with the players, the match and the board it is called
    to (one query; a team
    flight's tables with their boards, one more)."""
    number = flight.current_round if round_number is None else round_number
    tables = (
        Pairing.objects.filter(flight=flight, round=number)
        .select_related("entry_a__player", "entry_b__player", "winner", "match", "call__board")
        .order_by("group", "table")
    )
    if flight.team_kind == TeamKind.TEAM:
        tables = tables.prefetch_related(Prefetch("boards", TeamBoard.objects.order_by("board")))
    rows = list(tables)
    share_flight(rows, flight)
    return rows


def pairing_in(*, flight: Flight, pk) -> Pairing | None:
    return (
        Pairing.objects.filter(flight=flight, pk=pk)
        .select_related("flight__event__club", "entry_a__player", "entry_b__player", "match")
        .first()
    )


def player_pairing(*, flight: Flight, player_id: int | None) -> Pairing | None:
    """The table of `player_id` in the flight's current round, if they play in it."""
    if player_id is None or not flight.current_round:
        return None
    found = (
        Pairing.objects.filter(flight=flight, round=flight.current_round)
        .filter(Q(entry_a__player_id=player_id) | Q(entry_b__player_id=player_id))
        .select_related("entry_a__player", "entry_b__player", "match", "call__board")
        .first()
    )
    if found is not None:
        share_flight([found], flight)
    return found


def pending_in_round(*, flight_id: int, round_number: int) -> int:
    return Pairing.objects.filter(flight_id=flight_id, round=round_number, result=PairingResult.PENDING).count()


def paired_from(*, flight: Flight, round_number: int, names: dict[int, str] | None = None) -> RoundStandings | None:
    """The standings `round_number` was paired from, as they were then (None for a round not paired, or paired
    before they were kept), but with each entry's name as it is now (`names` by entry id, or one more query): a
    player who chose a display name since is not shown by their name here either."""
    kept = RoundStandings.objects.filter(flight=flight, round=round_number).first()
    if kept is None:
        return None
    if names is None:
        shown = Coalesce(NullIf(F("team_name"), Value("")), public_name_of("player__", club="flight__event__club__"))
        names = dict(Entry.objects.filter(flight=flight).annotate(shown=shown).values_list("pk", "shown"))
    for row in kept.rows:
        row["player"] = names.get(row.get("entry"), row.get("player", ""))
    return kept
