"""A flight's bracket as pages draw it, the director's dashboard and a player's next matches."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from django.db.models import Count
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from base import cache
from tournaments.core.layout import G, L, P, T
from tournaments.models import (
    FeedRule,
    Flight,
    FlightChange,
    FlightKind,
    Slot,
    SlotResult,
    TeamBoard,
    TeamKind,
)
from tournaments.selectors import tables
from tournaments.selectors.events import flight_version
from tournaments.selectors.tables import Table

Rendered = TypeVar("Rendered")

# --- bracket ----------------------------------------------------------------------------------------------


def cached_rendering(*, flight: Flight, kind: str, build: Callable[[], Rendered], variant: str = "") -> Rendered:
    """A rendering of the flight's bracket (`kind`: the page's body, the API's answer) from the shared cache, or
    `build()` stored there. The key names the flight's version (counted by every write that changes what the
    bracket shows: tournaments.services.common.flights_changed) and the active language; `variant` carries
    whatever else the caller's output depends on. Only renderings that are the same for every viewer belong
    here: the caller renders the director's own parts uncached. The event's creation time (to the microsecond)
    keeps a flight that reuses a deleted one's id (SQLite, a restored database) from finding its renderings."""
    born = int(flight.event.created_at.timestamp() * 1_000_000)
    key = f"bracket:{kind}:{flight.pk}:{born}:{version_of(flight)}:{get_language()}:{variant}"
    return cache.get_or_build(key, build)


def version_of(flight: Flight) -> int:
    """The flight's version: its FlightChange rows, only ever added (the bracket cache's key and the version a live
    page shows, base.live.Fragment). selectors.flight_for counts it in the flight's own query; counted here
    otherwise, and kept on the object so the page and its cache key agree."""
    version = getattr(flight, "version", None)
    if version is None:
        version = flight.version = FlightChange.objects.filter(flight_id=flight.pk).count()
    return version


def flight_with_version(*, pk: int) -> Flight | None:
    """A flight by id with its event, club and version in one query: what a live fragment of its bracket needs
    (base.live; the socket that asks has already been allowed to watch it)."""
    return Flight.objects.select_related("event__club").annotate(version=flight_version()).filter(pk=pk).first()


@dataclass(frozen=True)
class BracketRound:
    section: str
    number: int
    title: str
    slots: list


# What the bracket page and API read of each slot's rows. Loading whole rows made a 64-entrant bracket build
# ~430 model instances with every column converted (the match's five timestamps, the entry's twenty fields) on
# each uncached read; a field not named here would cost a query per slot when read, which the page's and the
# API's query-count tests would catch.
BRACKET_COLUMNS = (
    "flight_id",
    "section",
    "round",
    "position",
    "a_empty",
    "b_empty",
    "result",
    "winner__player_id",
    "entry_a__player__name",
    "entry_b__player__name",
    "entry_a__player__display_name",
    "entry_b__player__display_name",
    "entry_a__team_name",
    "entry_b__team_name",
    "match__status",
    "match__score_a",
    "match__score_b",
    "call__freed_at",
    "call__board__number",
)


def share_flight(rows, flight: Flight) -> None:
    """Give the entries of these slots or pairings (of `flight`) the flight already loaded: an entry's name asks
    the event's club whether display names stand in (Entry.name), which would otherwise load the flight, its
    event and its club once per entry with a display name."""
    for row in rows:
        for entry in (row.entry_a, row.entry_b):
            if entry is not None:
                entry.flight = flight


def bracket(*, flight: Flight) -> list[BracketRound]:
    """The flight's slots by section and round, with players and match results: one query."""
    slots = list(
        Slot.objects.filter(flight=flight)
        .select_related("entry_a__player", "entry_b__player", "match", "winner", "call__board")
        .only(*BRACKET_COLUMNS)
        .order_by("section", "round", "position")
    )
    if not slots:
        return []
    if flight.team_kind == TeamKind.TEAM:
        _attach_boards(flight, slots)
    share_flight(slots, flight)
    sections: dict[str, int] = {}
    for slot in slots:
        sections[slot.section] = max(sections.get(slot.section, 0), slot.round)
    rounds: dict[tuple[str, int], list] = {}
    for slot in slots:
        rounds.setdefault((slot.section, slot.round), []).append(slot)
    _label_open_sides(rounds)
    order = {"w": 0, "c": 0, "l": 1, "g": 2, "p": 3, "t": 3}
    out = []
    for (section, number), members in sorted(rounds.items(), key=lambda kv: (order.get(kv[0][0], 3), kv[0][1])):
        if section == G and number == 2:
            for slot in members:
                slot.not_needed = slot.result == SlotResult.EMPTY  # the winners' finalist won the first
        title = round_title(section, number, sections[section])
        out.append(BracketRound(section, number, title, members))
    return out


def round_title(section: str, number: int, last: int) -> str:
    """A bracket round's name ("Final", "Losers' side, Round 2"): `last` is the highest round of its section. The
    bracket page heads its rounds with it; a result card names its match's round with it."""
    if section == T:
        return _("Third-place match")
    if section == P:
        return _("Playoff for 2nd (the final's loser against the consolation's winner)")
    if section == G:
        return _("Grand final, second match (if needed)") if number == 2 else _("Grand final")
    if number == last and section != L:
        title = _("Final")
    elif number == last - 1 and section != L:
        title = _("Semi-finals")
    elif number == last - 2 and section != L:
        title = _("Quarter-finals")
    else:
        title = _("Round %(n)s") % {"n": number}
    return _("Losers' side, %(title)s") % {"title": title} if section == L else title


def _attach_boards(flight: Flight, slots: list) -> None:
    """A team flight's slots carry their boards (`team_boards`: board, match id, winner side, status) and the
    boards each team has won (`boards_a`, `boards_b`): one query for the whole bracket."""
    by_slot: dict[int, list[dict]] = {}
    rows = TeamBoard.objects.filter(flight=flight, slot__isnull=False).order_by("board")
    for row in rows.values("slot_id", "board", "match_id", "match__winner_id", "match__player_a_id", "match__status"):
        won = row["match__winner_id"]
        side = None if won is None else (0 if won == row["match__player_a_id"] else 1)
        by_slot.setdefault(row["slot_id"], []).append(
            {"board": row["board"], "match": row["match_id"], "winner_side": side, "status": row["match__status"]}
        )
    for slot in slots:
        slot.team_boards = by_slot.get(slot.pk, [])
        slot.boards_a = sum(1 for b in slot.team_boards if b["winner_side"] == 0)
        slot.boards_b = sum(1 for b in slot.team_boards if b["winner_side"] == 1)


def slot_boards(*, slot) -> list[TeamBoard]:
    """A team match's boards with their matches and players, board 1 first (empty for any other slot)."""
    return list(
        TeamBoard.objects.filter(slot=slot).select_related("match__player_a", "match__player_b").order_by("board")
    )


def _side_name(slot, side: int) -> str | None:
    entry = slot.entry_a if side == 0 else slot.entry_b
    return entry.name if entry is not None else None


def _label_open_sides(rounds: dict) -> None:
    """An open place in the winners' tree says who can still fill it: "winner of Elif / Ines" from the match
    that feeds it, further back when that match is open too ("winner of Anna / Bernd / Clara"), and "one of 8
    players" when more than three can still arrive. Sets `label_a` and `label_b` on the slots."""
    at = {(section, number, slot.position): slot for (section, number), members in rounds.items() for slot in members}

    def arriving(section: str, number: int, position: int, side: int) -> list[str]:
        slot = at.get((section, number, position))
        if slot is None:
            return []
        name = _side_name(slot, side)
        if name:
            return [name]
        if (slot.a_empty if side == 0 else slot.b_empty) or number == 1:
            return []
        feeder = position * 2 + side
        return arriving(section, number - 1, feeder, 0) + arriving(section, number - 1, feeder, 1)

    for (section, number), members in rounds.items():
        for slot in members:
            slot.label_a = slot.label_b = None
            if section != "w" or number == 1:
                continue
            for side in (0, 1):
                if _side_name(slot, side) or (slot.a_empty if side == 0 else slot.b_empty):
                    continue
                names = arriving(section, number, slot.position, side)
                if not names:
                    continue
                if len(names) <= 3:
                    label = _("winner of %(names)s") % {"names": " / ".join(names)}
                else:
                    label = _("one of %(n)s players") % {"n": len(names)}
                setattr(slot, "label_a" if side == 0 else "label_b", label)


def jackpot_pods(*, flight: Flight) -> list[Flight]:
    """A jackpot's pods, newest first, each with its entry count: one query (none for other flights)."""
    if flight.kind != FlightKind.JACKPOT or flight.feed_rule != FeedRule.DRAW:
        return []
    pods = flight.fed_flights.filter(feed_rule=FeedRule.POD).select_related("event__club")
    return list(pods.annotate(players=Count("entries")).order_by("-pk"))


def draft_pairs(*, flight: Flight) -> list[tuple]:
    """Round-1 pairs of a drawn but not yet released flight (None = bye): one query."""
    line: list = [None] * (flight.size or 0)
    for entry in flight.entries.filter(draw_position__isnull=False).select_related("player"):
        if entry.draw_position < len(line):
            line[entry.draw_position] = entry
    return [(line[i], line[i + 1]) for i in range(0, len(line), 2)]


# --- the director's dashboard and a player's next match ---------------------------------------------------


@dataclass(frozen=True)
class Dashboard:
    """The director's view of the day's tables, every format alike (tournaments.selectors.tables)."""

    ready: list[Table]  # ready to play, called to a board or not
    in_progress: list[Table]
    reported: list[Table]  # waiting for the opponent's confirmation
    waiting: list[Table]  # a side not known yet
    disputed: list[Table]


def dashboard(*, event) -> Dashboard:
    """The event's tables not decided, by state: three queries whatever the number of tables."""
    by_state: dict[str, list[Table]] = {}
    for table in tables.event_tables(event=event):
        by_state.setdefault(table.state, []).append(table)
    return Dashboard(
        ready=by_state.get(tables.READY, []) + by_state.get(tables.CALLED, []),
        in_progress=by_state.get(tables.IN_PROGRESS, []),
        reported=by_state.get(tables.REPORTED, []),
        waiting=by_state.get(tables.WAITING, []),
        disputed=by_state.get(tables.DISPUTED, []),
    )


def next_matches(*, player) -> list[Table]:
    """The player's tables to play or waiting for an opponent, every format, the soonest first."""
    return tables.player_tables(player=player)
