"""FIBS ratings (docs/ratings.md).

D = |r1 − r2|, N = match length, P_upset = 1 / (10^(D·√N/2000) + 1) is the underdog's chance to win.
P = P_upset when the favourite wins, otherwise 1 − P_upset. K = max(1, 5 − experience/100), where the experience
is the one before the match (rule "a", the FIBS help) or that plus N (rule "b"). The winner gains 4·K_w·√N·P,
the loser loses 4·K_l·√N·P; each side's experience grows by N.

`replay` rates a date-ordered stream of matches with plain tuples and dicts: it is what a pool recompute runs
over 100,000 matches, so it avoids per-match objects.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

START_RATING = 1500.0
START_EXPERIENCE = 0
K_RULES = ("a", "b")


def k_factor(experience: int, length: int, rule: str = "a") -> float:
    if rule not in K_RULES:
        raise ValueError(f"unknown K rule {rule!r}: use 'a' (experience before the match) or 'b' (plus N)")
    counted = experience + length if rule == "b" else experience
    return max(1.0, 5.0 - counted / 100.0)


def upset_probability(difference: float, length: int) -> float:
    """The underdog's chance to win a match of `length` points against a player `difference` points higher."""
    return 1.0 / (10.0 ** (abs(difference) * math.sqrt(length) / 2000.0) + 1.0)


def favourite_win_probability(difference: float, length: int) -> float:
    return 1.0 - upset_probability(difference, length)


def win_probability(rating: float, opponent_rating: float, length: int) -> float:
    """The chance that a player rated `rating` beats one rated `opponent_rating` in a `length`-point match: the
    same formula that rates the match (the favourite's 1 − P_upset, the underdog's P_upset)."""
    p_upset = upset_probability(rating - opponent_rating, max(1, length))
    return 1.0 - p_upset if rating >= opponent_rating else p_upset


@dataclass(frozen=True)
class FibsResult:
    """Everything that explains one rated match, from the winner's and the loser's side."""

    winner_rating: float
    loser_rating: float
    winner_experience: int
    loser_experience: int
    length: int
    difference: float
    upset_probability: float
    upset: bool
    winner_k: float
    loser_k: float
    winner_change: float
    loser_change: float  # negative (or zero)


def rate(
    *,
    winner_rating: float,
    loser_rating: float,
    winner_experience: int,
    loser_experience: int,
    length: int,
    k_rule: str = "a",
) -> FibsResult:
    if length < 1:
        raise ValueError("only matches of a fixed length (at least 1 point) are rated")
    difference = abs(winner_rating - loser_rating)
    p_upset = upset_probability(difference, length)
    upset = winner_rating < loser_rating
    p = 1.0 - p_upset if upset else p_upset
    root = math.sqrt(length)
    k_w = k_factor(winner_experience, length, k_rule)
    k_l = k_factor(loser_experience, length, k_rule)
    return FibsResult(
        winner_rating=winner_rating,
        loser_rating=loser_rating,
        winner_experience=winner_experience,
        loser_experience=loser_experience,
        length=length,
        difference=difference,
        upset_probability=p_upset,
        upset=upset,
        winner_k=k_w,
        loser_k=k_l,
        winner_change=4.0 * k_w * root * p,
        loser_change=-4.0 * k_l * root * p,
    )


# One replayed match: (match_id, winner_id, loser_id, length).
MatchTuple = tuple[int, int, int, int]
# Per player: [rating, experience, matches, wins].
State = dict[int, list]
# One output row: (match_id, winner_id, loser_id, length, winner_rating, loser_rating, winner_exp, loser_exp,
#                  difference, upset_probability, winner_k, loser_k, winner_change, loser_change)
Row = tuple


def replay(matches: Iterable[MatchTuple], state: State | None = None, k_rule: str = "a") -> tuple[list[Row], State]:
    """Rate `matches` in the order given, starting from `state` (which is updated in place and returned)."""
    state = {} if state is None else state
    return list(replay_lazily(matches, state, k_rule)), state


def replay_lazily(matches: Iterable[MatchTuple], state: State, k_rule: str = "a") -> Iterator[Row]:
    """`replay` one row at a time: `state` is updated as each row is taken. A pool's rebuild writes each row
    as it comes, so on PostgreSQL the server stores rows while this loop rates the next ones, and a million rows
    are never held at once.

    The arithmetic is `rate` inlined (tests/ratings/test_fibs.py checks they agree) because this loop runs once
    per match of a whole pool.
    """
    if k_rule not in K_RULES:
        raise ValueError(f"unknown K rule {k_rule!r}")
    return _replay(matches, state, k_rule == "b")


def _replay(matches: Iterable[MatchTuple], state: State, plus_n: bool) -> Iterator[Row]:
    """The loop of replay_lazily, a generator of its own so that a wrong K rule is refused at the call."""
    sqrt = math.sqrt
    for match_id, winner_id, loser_id, length in matches:
        w = state.get(winner_id)
        if w is None:
            w = state[winner_id] = [START_RATING, START_EXPERIENCE, 0, 0]
        lo = state.get(loser_id)
        if lo is None:
            lo = state[loser_id] = [START_RATING, START_EXPERIENCE, 0, 0]
        rw, ew, rl, el = w[0], w[1], lo[0], lo[1]
        root = sqrt(length)
        diff = rw - rl if rw >= rl else rl - rw
        p_upset = 1.0 / (10.0 ** (diff * root / 2000.0) + 1.0)
        p = 1.0 - p_upset if rw < rl else p_upset
        if plus_n:
            kw = max(1.0, 5.0 - (ew + length) / 100.0)
            kl = max(1.0, 5.0 - (el + length) / 100.0)
        else:
            kw = max(1.0, 5.0 - ew / 100.0)
            kl = max(1.0, 5.0 - el / 100.0)
        gain = 4.0 * kw * root * p
        loss = -4.0 * kl * root * p
        w[0] = rw + gain
        w[1] = ew + length
        w[2] += 1
        w[3] += 1
        lo[0] = rl + loss
        lo[1] = el + length
        lo[2] += 1
        yield (match_id, winner_id, loser_id, length, rw, rl, ew, el, diff, p_upset, kw, kl, gain, loss)
