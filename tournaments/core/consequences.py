"""What follows from one decided slot: the winner moves on, the loser is out or routed by the feed rule, first
played matches are noted. Returns actions; the in-memory engine and the database adapter both apply them, so
the rules exist once.

Feed rules of a flight fed by another flight's losers:
- first_played (linked): the loser of each player's first *played* match (a bye or walkover is not one)
  lands at the place of that player's round-1 slot; a player who had a bye and then wins leaves that place
  empty (a bye in the fed flight);
- progressive (k rounds): the loser of every slot of source rounds 1..k (a slot decided without a loser who
  played leaves its place empty);
- fresh_draw: the loser of each player's first played match joins a pool drawn afresh once complete.
"Played" includes a forfeit for lateness (the player was there); a walkover, no-show or double forfeit does
not route the absent player anywhere.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from tournaments.core.layout import FIRST_PLAYED as FIRST_PLAYED  # the feed rules are named here too
from tournaments.core.layout import FRESH_DRAW as FRESH_DRAW
from tournaments.core.layout import PROGRESSIVE as PROGRESSIVE
from tournaments.core.layout import Key, Layout, P, Target

PLAYED, WALKOVER, BYE, DOUBLE_FORFEIT, EMPTY = "played", "walkover", "bye", "double_forfeit", "empty"


class _Marker:
    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return self.name


PENDING_SIDE = _Marker("PENDING")
EMPTY_SIDE = _Marker("EMPTY")


@dataclass(frozen=True)
class EntryFacts:
    id: int
    line_position: int | None = None  # on the flight's round-1 line
    has_played: bool = False


@dataclass(frozen=True)
class Feed:
    rule: str
    layout: Layout | None  # None for a fresh draw (its layout is known only when it is drawn)
    feed_rounds: int = 1


# --- actions ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    """Put an entry (None: nobody, the side is empty) on a side of a slot of the same flight."""

    target: Target
    entry: int | None


@dataclass(frozen=True)
class FeedTo:
    """Put a player on a side of the fed flight (entry None: the side is empty); target None: the fresh pool."""

    target: Target | None
    entry: int | None


@dataclass(frozen=True)
class FirstPlayed:
    entry: int


@dataclass(frozen=True)
class Out:
    entry: int
    place: int | None


@dataclass(frozen=True)
class Champion:
    entry: int


def resolve(a, b) -> tuple[str, int | None]:
    """The state of a slot from its two sides (PENDING_SIDE, EMPTY_SIDE or an entry): ("pending", None),
    ("ready", None), ("bye", winning side) or ("empty", None)."""
    if a is PENDING_SIDE or b is PENDING_SIDE:
        return "pending", None
    if a is EMPTY_SIDE and b is EMPTY_SIDE:
        return EMPTY, None
    if a is EMPTY_SIDE:
        return BYE, 1
    if b is EMPTY_SIDE:
        return BYE, 0
    return "ready", None


def consequences(
    *,
    layout: Layout,
    key: Key,
    result: str,
    winner: EntryFacts | None,
    losers: tuple[EntryFacts, ...],
    feed: Feed | None,
    winner_side: int | None = None,
) -> list[object]:
    """The actions in the order they are applied: everything about this slot itself (first played matches,
    places, losers fed on) before the players move on, because a move can decide the next slot at once (a
    withdrawn opponent waiting there) and set off a chain — up to the final and the end of the flight, which
    closes a fresh-draw flight's pool — that must see this slot's effects complete."""
    played = result == PLAYED
    actions: list[object] = []
    if played:
        actions.extend(FirstPlayed(x.id) for x in (winner, *losers) if x is not None and not x.has_played)
    if key.section == P:
        return actions + _playoff_actions(winner, losers, winner_side)
    moves: list[object] = []
    internal = layout.internal_loser_target(key, winner_side)
    if internal is not None:
        routed = losers[0].id if (played and losers) else None
        moves.append(Move(internal, routed))
        actions.extend(Out(x.id, layout.place_of_loser(internal.key)) for x in losers if x.id != routed)
    else:
        actions.extend(Out(loser.id, layout.place_of_loser(key)) for loser in losers)
    if feed is not None:
        actions.extend(_feed_actions(layout, key, result, winner, losers, feed, winner_side))
    target = layout.winner_target(key, winner_side)
    if target is None:
        if winner is not None:
            place = layout.winner_place(key)
            actions.append(Champion(winner.id) if place == 1 else Out(winner.id, place))
    else:
        actions.append(Move(target, None if winner is None else winner.id))
    moves.extend(Move(t, None) for t in layout.not_needed_targets(key, winner_side))
    return actions + moves


def _playoff_actions(winner: EntryFacts | None, losers: tuple[EntryFacts, ...], winner_side: int | None) -> list:
    """The playoff for 2nd places only the main flight's finalist (side 0): 2nd when they win it (or nobody
    does), 3rd when the consolation's winner does. The consolation's winner (side 1, their entry in the main
    flight) keeps the place they went out with: the main flight's placements read the playoff and rank them
    (`playoff_places`), so a correction taking the playoff back has nothing of theirs to restore."""
    if winner_side == 0 and winner is not None:
        return [Out(winner.id, 2)]
    if losers and (winner_side == 1 or winner is None):  # lost to the consolation's winner, or nobody played
        return [Out(losers[0].id, 3 if winner_side == 1 else 2)]
    return []


def playoff_places(places: dict, *, second, third) -> dict:
    """A main flight's places with its playoff for 2nd decided: its winner 2nd, its loser 3rd, everyone else
    ranked after them in their elimination order (semi-final losers 4th, ...), by standard competition ranking
    (1 + everyone ranked strictly better). `places`: key -> stored place (None: no place); `second`/`third`:
    the playoff's winner and loser (None when nobody took that place)."""
    order = {}
    for key, place in places.items():
        if place is None:
            continue
        order[key] = (2, 0) if key == second else (3, 0) if key == third else (place, 1)
    ranked = sorted(order.values())
    out = dict(places)
    for key, rank in order.items():
        out[key] = 1 + bisect.bisect_left(ranked, rank)
    return out


def _feed_actions(layout, key, result, winner, losers, feed: Feed, winner_side=None) -> list[FeedTo]:
    played = result == PLAYED
    round_one = key.section == layout.first_section and key.round == 1
    if feed.rule == PROGRESSIVE:
        if key.section != layout.first_section or key.round > feed.feed_rounds or feed.layout is None:
            return []
        target = feed.layout.feed_target(key.round, key.position)
        if target is None:
            return []
        return [FeedTo(target, losers[0].id if (played and losers) else None)]

    fed_layout = feed.layout if feed.rule == FIRST_PLAYED else None
    linked = fed_layout is not None

    def place_of(x: EntryFacts) -> Target | None:
        if fed_layout is None or x.line_position is None:
            return None
        return fed_layout.feed_target(1, x.line_position // 2)

    out: list[FeedTo] = []
    if played:
        for loser in losers:
            if not loser.has_played:
                if not linked:
                    out.append(FeedTo(None, loser.id))
                elif (t := place_of(loser)) is not None:
                    out.append(FeedTo(t, loser.id))
        if winner is not None and not winner.has_played and not round_one and (t := place_of(winner)) is not None:
            out.append(FeedTo(t, None))  # had a bye, then won its first match: nobody comes from its place
        return out
    if round_one:
        if fed_layout is not None and result in (DOUBLE_FORFEIT, EMPTY):
            out.append(FeedTo(fed_layout.feed_target(1, key.position), None))
        return out  # a bye or walkover: the place waits for the winner's first played match
    for loser in losers:
        if not loser.has_played and (t := place_of(loser)) is not None:
            out.append(FeedTo(t, None))
    # won the whole flight on byes and walkovers: no played loss will ever come, so its place in the linked
    # flight stays empty instead of waiting for ever (that flight could never finish)
    champion_unplayed = winner is not None and not winner.has_played and layout.winner_target(key, winner_side) is None
    if champion_unplayed and (t := place_of(winner)) is not None:
        out.append(FeedTo(t, None))
    return out
