"""Place chances of a bracket of any shape — double elimination, a third-place match, a playoff for 2nd, a flight
fed by another's losers (consolation, last chance, fresh draw) — by playing the event's linked flights out
together with the in-memory engine (tournaments.core.engine), which applies the same consequences the database
adapter does: who is fed where, byes, walkovers of withdrawn players, the second grand final.

Why event-wide: a consolation's field is the main's losers, so its chances are the main's results still to come
followed by its own; a main with a playoff for 2nd waits for its consolation's winner. The caller builds a
`SimEvent` holding the flights as they stand (`snapshot`), and `bracket_sample` plays every ready match by the
FIBS chance, draws a fresh-draw flight when its pool is complete (with a random seed: its draw is not made yet),
fills a playoff for 2nd from the consolation's winner, and repeats until nothing is left to play.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping
from dataclasses import replace

from tournaments.core import consequences
from tournaments.core.chances import NOT_THERE, Beats, Sample
from tournaments.core.consequences import EMPTY_SIDE, PENDING_SIDE, playoff_places
from tournaments.core.engine import SimEvent, SimFlight
from tournaments.core.layout import Key, P, Target

#: (flight name, slot key) -> the match length of that slot
LengthOf = Callable[[str, Key], int]


class _PlayingEvent(SimEvent):
    """The engine, noting each slot that becomes ready (both sides known) so a playing-out never scans the
    bracket for the next match."""

    def __init__(self) -> None:
        super().__init__()
        self.ready_queue: list[tuple[str, Key]] = []

    def _set_side(self, flight: SimFlight, target: Target, value) -> None:
        super()._set_side(flight, target, value)
        a, b = flight.sides[target.key]
        if target.key not in flight.decided and isinstance(a, int) and isinstance(b, int):
            self.ready_queue.append((flight.name, target.key))


def copy_event(event: SimEvent) -> _PlayingEvent:
    """A copy to play out: the flights' sides, decisions and entries copied, the layouts shared (immutable)."""
    out = _PlayingEvent()
    out._next_id = event._next_id
    for name, f in event.flights.items():
        out.flights[name] = replace(
            f,
            sides={k: list(v) for k, v in f.sides.items()},
            decided=dict(f.decided),
            entries={i: replace(e) for i, e in f.entries.items()},
            pool=list(f.pool),
        )
    return out


def run_ms(event: SimEvent) -> float:
    """About what one run of `bracket_sample` costs (ms, measured on the shared machine): ~0.02 ms per slot of
    the linked flights (the copy and the engine's consequences of each match)."""
    return 0.02 * max(1, sum(len(f.sides) for f in event.flights.values()))


def bracket_sample(
    event: SimEvent,
    *,
    flight: str,
    entrants: Mapping[Hashable, Hashable],
    ratings: Mapping[Hashable, float],
    length_of: LengthOf,
) -> Sample:
    """One random playing-out of `event` from where it stands: the places `flight` gives, keyed by
    `entrants` (player -> the entrant key the caller shows; a player who never gets into the flight is placed
    NOT_THERE). `ratings` by player."""
    beats = Beats(ratings)

    def once(rng: random.Random) -> dict[Hashable, int]:
        sim = copy_event(event)
        sim.ready_queue.extend(
            (f.name, key)
            for f in sim.flights.values()
            for key, (a, b) in f.sides.items()
            if key not in f.decided and isinstance(a, int) and isinstance(b, int)
        )
        while True:
            while sim.ready_queue:
                name, key = sim.ready_queue.pop()
                f = sim.flights[name]
                a, b = f.sides[key]
                if key in f.decided or not (isinstance(a, int) and isinstance(b, int)):
                    continue
                pa, pb = f.entries[a].player, f.entries[b].player
                sim.report(name, key, 0 if rng.random() < beats(pa, pb, length_of(name, key)) else 1)
            if not _next_step(sim, rng):
                break
        return _places(sim.flights[flight], entrants)

    return once


def _next_step(sim: _PlayingEvent, rng: random.Random) -> bool:
    """Whatever waits on a flight rather than a match: a fresh draw whose pool is complete, a playoff for 2nd
    whose consolation has ended. True when something was done."""
    for f in sim.flights.values():
        if f.rule == consequences.FRESH_DRAW and f.layout is None and not f.finished and sim.fresh_draw_ready(f.name):
            sim.draw_fresh(f.name, rng_seed=rng.randrange(2**32))
            return True
        if f.layout is not None and f.layout.playoff_second:
            key = Key(P, 1, 0)
            sides = f.sides.get(key)
            fed = sim.fed_by(f.name)
            if sides is None or sides[1] is not PENDING_SIDE or sides[0] is PENDING_SIDE:
                continue
            if fed is not None and not fed.finished:
                continue
            champion = None
            if fed is not None and fed.champion is not None:
                player = fed.entries[fed.champion].player
                champion = next((e.id for e in f.entries.values() if e.player == player), None)
            sim._set_side(f, Target(key, 1), EMPTY_SIDE if champion is None else champion)
            return True
    return False


def _places(f: SimFlight, entrants: Mapping[Hashable, Hashable]) -> dict[Hashable, int]:
    by_entry = {e.id: e.place for e in f.entries.values()}
    if f.layout is not None and f.layout.playoff_second and Key(P, 1, 0) in f.decided:
        _result, winner, losers = f.decided[Key(P, 1, 0)]  # its winner 2nd, its loser 3rd (the adapter's rule)
        by_entry = playoff_places(by_entry, second=winner, third=next(iter(losers), None))
    places: dict[Hashable, int] = dict.fromkeys(entrants.values(), NOT_THERE)
    for e in f.entries.values():
        key = entrants.get(e.player)
        if key is not None and by_entry.get(e.id) is not None:
            places[key] = by_entry[e.id]  # type: ignore[assignment]
    return places
