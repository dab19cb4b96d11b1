"""An in-memory event: flights, their slots and entries, driven by the same rules the database adapter
applies. Used by the property tests and the benchmark, and as the reference for what the adapter must do."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from tournaments.core import consequences
from tournaments.core.consequences import EMPTY_SIDE, PENDING_SIDE, EntryFacts
from tournaments.core.draw import DrawEntrant, bracket_size, draw
from tournaments.core.errors import BracketError
from tournaments.core.layout import Key, Layout, Target


@dataclass
class SimEntry:
    id: int
    player: Hashable
    line_position: int | None = None
    has_played: bool = False
    byes: int = 0  # byes in this flight
    earlier_byes: int = 0  # byes in the flights that fed this one
    place: int | None = None
    withdrawn: bool = False


@dataclass
class SimFlight:
    name: str
    kind: str  # "knockout", "double", "fed"
    source: str | None = None
    rule: str | None = None
    feed_rounds: int = 1
    reset: bool = False  # double elimination: a second grand final when the losers' side wins the first
    third_place: bool = False
    layout: Layout | None = None
    sides: dict[Key, list] = field(default_factory=dict)
    decided: dict[Key, tuple[str, int | None, tuple[int, ...]]] = field(default_factory=dict)
    entries: dict[int, SimEntry] = field(default_factory=dict)
    pool: list[int] = field(default_factory=list)  # a fresh draw's entrants before the draw
    champion: int | None = None
    finished: bool = False

    @property
    def shape(self) -> Layout:
        if self.layout is None:
            raise BracketError("flight_not_laid_out", f"{self.name} is not laid out yet.", "draw", flight=self.name)
        return self.layout

    def lay_out(self, size: int) -> None:
        """Choose the shape as the database adapter does: one call to Layout.for_flight with all the flight's
        facts (kind, feed rule, fed rounds), so the two cannot disagree about a flight."""
        self.layout = Layout.for_flight(
            size=size,
            double=self.kind == "double",
            feed_rule=self.rule,
            feed_rounds=self.feed_rounds,
            reset=self.reset,
            third_place=self.third_place,
        )

    def winner_side(self, key: Key) -> int | None:
        winner = self.decided[key][1]
        if winner is None:
            return None
        return 0 if self.sides[key][0] == winner else 1

    def terminals_decided(self) -> bool:
        return all(k in self.decided for k in self.shape.terminal_keys())

    def facts(self, entry_id: int) -> EntryFacts:
        e = self.entries[entry_id]
        return EntryFacts(e.id, e.line_position, e.has_played)


class SimEvent:
    def __init__(self):
        self.flights: dict[str, SimFlight] = {}
        self._next_id = 1

    def add_flight(
        self, name, kind="knockout", *, source=None, rule=None, feed_rounds=1, reset=False, third_place=False
    ) -> SimFlight:
        if kind == "fed" and rule is None:
            rule = consequences.FIRST_PLAYED
        flight = SimFlight(name, kind, source, rule, feed_rounds, reset, third_place)
        self.flights[name] = flight
        return flight

    def source_of(self, flight: SimFlight) -> SimFlight:
        if flight.source is None:
            raise BracketError("no_source_flight", f"{flight.name} has no source flight.", "source", flight=flight.name)
        return self.flights[flight.source]

    def fed_by(self, name: str) -> SimFlight | None:
        return next((f for f in self.flights.values() if f.source == name), None)

    def _new_entry(self, flight: SimFlight, player, line_position=None) -> SimEntry:
        entry = SimEntry(self._next_id, player, line_position)
        self._next_id += 1
        flight.entries[entry.id] = entry
        return entry

    # --- draws ----------------------------------------------------------------------------------------------

    def draw(self, name: str, entrants: Sequence[DrawEntrant], *, rng_seed: int, seeded=False) -> list:
        line = draw(entrants, rng_seed=rng_seed, seeded=seeded)
        self.release(name, line)
        return line

    def release(self, name: str, line: Sequence[Hashable | None]) -> None:
        """Lay out the flight (and the brackets linked to it) and place the round-1 line."""
        flight = self.flights[name]
        flight.lay_out(len(line))
        self._lay_out_fed(flight)
        self._place_line(flight, line)

    def _lay_out_fed(self, source: SimFlight) -> None:
        fed = self.fed_by(source.name)
        if fed is None or fed.rule == consequences.FRESH_DRAW:
            return
        size = source.shape.linked_size()
        if size < 4:  # one round-1 match cannot feed a bracket: the linked flight has no players
            self._finish_unfed(fed)
            return
        fed.lay_out(size)
        self._init_sides(fed)
        self._lay_out_fed(fed)

    def _finish_unfed(self, flight: SimFlight) -> None:
        """A flight that gets no bracket finishes, and so does every flight it would feed: nobody reaches them."""
        empty: SimFlight | None = flight
        while empty is not None:
            empty.finished = True
            empty = self.fed_by(empty.name)

    def _init_sides(self, flight: SimFlight) -> None:
        flight.sides = {key: [PENDING_SIDE, PENDING_SIDE] for key in flight.shape.slot_keys()}

    def _place_line(self, flight: SimFlight, line, earlier_byes: dict | None = None) -> None:
        """`earlier_byes`: a fresh draw's players keep the byes they had in the flights that fed it (the next
        fresh draw prefers players without one)."""
        self._init_sides(flight)
        for position, player in enumerate(line):
            target = flight.shape.round_one_target(position)
            if player is None:
                self._set_side(flight, target, EMPTY_SIDE)
            else:
                entry = self._new_entry(flight, player, position)
                entry.earlier_byes = (earlier_byes or {}).get(player, 0)
                self._set_side(flight, target, entry.id)

    def fresh_draw_ready(self, name: str) -> bool:
        flight = self.flights[name]
        source = self.source_of(flight)
        if flight.layout is not None or flight.finished or source.layout is None:
            return False
        last_fed = source.shape.fed_round_count() if source.kind == "fed" else 1
        section = source.shape.first_section
        for key, sides in source.sides.items():
            if key.section == section and key.round <= last_fed and PENDING_SIDE in sides:
                return False
        return all(e.has_played or e.place is not None for e in source.entries.values())

    def draw_fresh(self, name: str, *, rng_seed: int) -> list:
        flight = self.flights[name]
        if not self.fresh_draw_ready(name):
            raise BracketError(
                "source_unfinished", "Not every player of the source flight has played a match yet.", "draw"
            )
        source = self.source_of(flight)
        if len(flight.pool) < 2:
            # Nothing to draw: the one player (if any) wins the flight, as an entry of it like any winner.
            self._finish_unfed(flight)
            if flight.pool:
                winner = self._new_entry(flight, source.entries[flight.pool[0]].player)
                winner.place, flight.champion = 1, winner.id
            return []
        pool = [source.entries[e] for e in flight.pool]  # nobody withdraws from a pool: it holds source entries
        entrants = [DrawEntrant(e.player, on_time=e.byes + e.earlier_byes == 0) for e in pool]
        had_bye = sum(1 for e in entrants if not e.on_time)
        if bracket_size(len(entrants)) - len(entrants) > len(entrants) - had_bye:
            entrants = [DrawEntrant(e.key) for e in entrants]  # not enough players without a bye to take them
        line = draw(entrants, rng_seed=rng_seed)
        flight.lay_out(len(line))
        self._lay_out_fed(flight)  # a flight linked to this one is laid out with it, as on a release
        self._place_line(flight, line, {e.player: e.byes + e.earlier_byes for e in pool})
        return line

    # --- play -----------------------------------------------------------------------------------------------

    def ready(self) -> list[tuple[str, Key, int, int]]:
        out = []
        for flight in self.flights.values():
            for key, (a, b) in flight.sides.items():
                if key not in flight.decided and isinstance(a, int) and isinstance(b, int):
                    out.append((flight.name, key, a, b))
        return out

    def report(self, name: str, key: Key, winner_side: int | None, result: str = consequences.PLAYED) -> None:
        flight = self.flights[name]
        a, b = flight.sides[key]
        if key in flight.decided or not (isinstance(a, int) and isinstance(b, int)):
            raise BracketError("slot_not_ready", "This slot is not ready to be played.", "slot")
        if result == consequences.DOUBLE_FORFEIT:
            self._decide(flight, key, result, None, (a, b))
        else:
            winner, loser = (a, b) if winner_side == 0 else (b, a)
            self._decide(flight, key, result, winner, (loser,))

    def withdraw(self, name: str, entry_id: int) -> None:
        """A player leaves after the draw: the opponent wins by walkover, now or as soon as one arrives; a bye
        the player would get goes to nobody."""
        flight = self.flights[name]
        entry = flight.entries[entry_id]
        if entry.place is not None:
            raise BracketError("already_withdrawn", "This player is out of the flight already.", "entry")
        entry.withdrawn = True
        for key, (a, b) in flight.sides.items():
            if key not in flight.decided and entry_id in (a, b) and isinstance(a, int) and isinstance(b, int):
                self.report(name, key, 1 if a == entry_id else 0, consequences.WALKOVER)
                return

    def _set_side(self, flight: SimFlight, target: Target, value) -> None:
        sides = flight.sides[target.key]
        if sides[target.side] is not PENDING_SIDE:
            raise BracketError(
                "slot_taken", f"{flight.name} {target} is already taken.", "slot", flight=flight.name, slot=str(target)
            )
        sides[target.side] = value
        state, side = consequences.resolve(*sides)
        gone = [x for x in sides if isinstance(x, int) and flight.entries[x].withdrawn]
        if state == "ready" and gone:
            a, b = sides
            if len(gone) == 2:
                self._decide(flight, target.key, consequences.DOUBLE_FORFEIT, None, (a, b))
            else:
                self._decide(flight, target.key, consequences.WALKOVER, b if gone[0] == a else a, (gone[0],))
        elif state == consequences.BYE and gone:
            self._decide(flight, target.key, consequences.DOUBLE_FORFEIT, None, tuple(gone))  # nobody to give it to
        elif state == consequences.BYE and side is not None:
            winner = sides[side]
            flight.entries[winner].byes += int(flight.shape.counts_as_bye(target.key))
            self._decide(flight, target.key, consequences.BYE, winner, ())
        elif state == consequences.EMPTY:
            self._decide(flight, target.key, consequences.EMPTY, None, ())

    def _decide(self, flight: SimFlight, key: Key, result: str, winner: int | None, losers: tuple[int, ...]):
        flight.decided[key] = (result, winner, losers)
        if flight.shape.is_terminal(key) and flight.terminals_decided():
            flight.finished = True  # the final is decided (with nobody in it if everyone withdrew)
        fed = self.fed_by(flight.name)
        for action in self._consequences(flight, fed, key):
            self._apply(flight, fed, action)

    def _consequences(self, flight: SimFlight, fed: SimFlight | None, key: Key) -> list:
        result, winner, losers = flight.decided[key]
        feed = None
        if fed is not None and (fed.layout is not None or fed.rule == consequences.FRESH_DRAW):
            feed = consequences.Feed(fed.rule or consequences.FIRST_PLAYED, fed.layout, fed.feed_rounds)
        return consequences.consequences(
            layout=flight.shape,
            key=key,
            result=result,
            winner=None if winner is None else flight.facts(winner),
            losers=tuple(flight.facts(e) for e in losers),
            feed=feed,
            winner_side=flight.winner_side(key),
        )

    # --- late entries -----------------------------------------------------------------------------------------

    def late_entry(self, name: str, player: Hashable) -> int:
        """A player entered after the release takes the first bye's place along the line, so its holder gets
        an opponent and the late entrant no bye. Only before any match is played: what a bye led to is taken
        back here only while it is byes and empty places (the adapter also takes back unstarted matches)."""
        flight = self.flights[name]
        section = flight.shape.first_section
        byes = sorted(
            k for k, d in flight.decided.items() if k.section == section and k.round == 1 and d[0] == consequences.BYE
        )
        if not byes:
            raise BracketError(
                "no_bye_left", "No bye is left in the draw: a late entry needs a free place next to a bye.", "player"
            )
        key = byes[0]
        self._undo(flight, key)
        side = 0 if flight.sides[key][0] is EMPTY_SIDE else 1
        flight.sides[key][side] = PENDING_SIDE
        entry = self._new_entry(flight, player, key.position * 2 + side)
        self._set_side(flight, Target(key, side), entry.id)
        return entry.id

    def _undo(self, flight: SimFlight, key: Key) -> None:
        """Take back a decision that played no match (a bye, an empty place, a walkover or double forfeit of
        absent players) and everything it led to."""
        result, winner, _losers = flight.decided[key]
        if result == consequences.PLAYED:
            raise BracketError(
                "result_not_undoable", "A played result is not taken back by the in-memory engine.", "slot"
            )
        fed = self.fed_by(flight.name)
        actions = self._consequences(flight, fed, key)
        del flight.decided[key]
        for action in actions:
            if isinstance(action, consequences.Move):
                self._clear(flight, action.target)
            elif isinstance(action, consequences.FeedTo) and fed is not None and action.target is not None:
                self._clear(fed, action.target)
            elif isinstance(action, consequences.Out):
                flight.entries[action.entry].place = None
            elif isinstance(action, consequences.Champion):
                flight.entries[action.entry].place = None
                flight.champion = None
        if result == consequences.BYE and winner is not None:
            flight.entries[winner].byes -= int(flight.shape.counts_as_bye(key))
        if flight.shape.is_terminal(key):
            flight.finished = False

    def _clear(self, flight: SimFlight, target: Target) -> None:
        if target.key in flight.decided:
            self._undo(flight, target.key)
        flight.sides[target.key][target.side] = PENDING_SIDE

    def _apply(self, flight: SimFlight, fed: SimFlight | None, action) -> None:
        if isinstance(action, consequences.FirstPlayed):
            flight.entries[action.entry].has_played = True
        elif isinstance(action, consequences.Out):
            flight.entries[action.entry].place = action.place
        elif isinstance(action, consequences.Champion):
            flight.entries[action.entry].place = 1
            flight.champion = action.entry
            flight.finished = flight.terminals_decided()
        elif isinstance(action, consequences.Move):
            self._set_side(flight, action.target, EMPTY_SIDE if action.entry is None else action.entry)
        elif isinstance(action, consequences.FeedTo):
            if fed is None:
                raise BracketError("feeds_no_flight", f"{flight.name} feeds no flight.", "source", flight=flight.name)
            if action.target is None:
                if action.entry is None:
                    return
                fed.pool.append(action.entry)
                return
            if action.entry is None:
                self._set_side(fed, action.target, EMPTY_SIDE)
                return
            player = flight.entries[action.entry].player
            line = action.target.key.position * 2 + action.target.side if action.target.key.round == 1 else None
            entry = self._new_entry(fed, player, line)
            source = flight.entries[action.entry]
            entry.earlier_byes = source.byes + source.earlier_byes
            self._set_side(fed, action.target, entry.id)

    def finished_without_winner(self, flight: SimFlight) -> bool:
        final = Key(flight.shape.final_section, len(flight.shape.rounds(flight.shape.final_section)), 0)
        return final in flight.decided and flight.decided[final][1] is None and flight.champion is None
