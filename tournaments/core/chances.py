"""Win chances and finishing places from the players' ratings (docs/tournaments.md, "Chances").

One rule: a match's chance is the FIBS formula the ratings app rates matches with
(`ratings.core.fibs.win_probability`: D = rating difference, N = match length, the underdog wins with
1 / (10^(D·√N/2000) + 1)). The figures assume that formula, the players' current ratings (unchanged during
the event) and independent matches; a decided match is certain.

- `match_chances`: both players' chances in one match.
- `knockout_places`: each entrant's chance of every finishing place of a single-elimination bracket, exact by
  P(i reaches round r+1) = P(i reaches r) · Σ_j P(j reaches r) · p(i beats j), over the bracket's actual
  halves (the two feeders of each slot). A side that nobody can reach (a bye) lets the other side through.
- `simulate_places`: the same figures by seeded Monte-Carlo for any format that can play itself out once from
  a random source (`knockout_sample` is the knockout's; the tests hold the two to each other;
  `undrawn_knockout_sample` also makes the draw, by the flight's own draw core, before it is made;
  `round_robin_sample` plays a round robin's remaining schedule and ranks by the flight's standings core;
  `groups_sample` plays every group's and places by rank in the group; `swiss_sample` plays a Swiss's or a triple
  elimination's rest, pairing each later round by the flight's own pairing core; a bracket of any other shape,
  fed flights included, is played out event-wide by `tournaments.core.chances_bracket`).
- `expected_prizes`: what each entrant can expect from a payout's lines, given their place chances.

Places are the club's standard competition ranking (winner 1, finalist 2, losing semi-finalists 3, losing
quarter-finalists 5, ...): a place that several hold (3) is held by as many players as lost in that round, so
over the entrants a place's chances add up to the number of its holders, and each entrant's to 1.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ratings.core.fibs import win_probability
from tournaments.core import roundrobin, standings, swiss
from tournaments.core.draw import DrawEntrant, draw
from tournaments.core.layout import log2

Entrant = Hashable
Places = dict[Entrant, dict[int, float]]  # entrant -> place -> chance
#: One random playing-out of the rest of a flight: each entrant's place (0: never plays in the flight, a fed
#: flight's possible entrant who did not get there). Every format's chances are this one interface.
Sample = Callable[[random.Random], dict[Entrant, int]]
NOT_THERE = 0


def match_chances(rating_a: float, rating_b: float, length: int) -> tuple[float, float]:
    """Side a's and side b's chance to win a `length`-point match (they add up to 1)."""
    p = win_probability(rating_a, rating_b, length)
    return p, 1.0 - p


@dataclass(frozen=True)
class Knockout:
    """A single-elimination bracket as it stands.

    `line`: the round-1 line (a power of two long), an entrant or None for an empty side (a bye);
    `decided`: (round, position) -> the winner of a decided slot (None: nobody goes on, a double forfeit);
    `lengths`: the match length of each round (index 0 is round 1);
    `ratings`: each entrant's rating.
    """

    line: Sequence[Entrant | None]
    decided: Mapping[tuple[int, int], Entrant | None]
    lengths: Sequence[int]
    ratings: Mapping[Entrant, float]

    @property
    def rounds(self) -> int:
        return log2(len(self.line))

    def length(self, round_number: int) -> int:
        return self.lengths[min(round_number, len(self.lengths)) - 1] if self.lengths else 1

    def place_of_loser(self, round_number: int) -> int:
        """Standard competition ranking: the loser of round r of R is placed after the 2^(R−r) players who
        went further (the final's loser 2nd, a semi-final's 3rd, a quarter-final's 5th)."""
        return 2 ** (self.rounds - round_number) + 1


class Beats:
    """p(i beats j) in a round's length, each pair computed once."""

    def __init__(self, ratings: Mapping[Entrant, float]) -> None:
        self.ratings = ratings
        self.memo: dict[tuple[Entrant, Entrant, int], float] = {}

    def __call__(self, i: Entrant, j: Entrant, length: int) -> float:
        key = (i, j, length)
        p = self.memo.get(key)
        if p is None:
            p = self.memo[key] = win_probability(self.ratings[i], self.ratings[j], length)
            self.memo[(j, i, length)] = 1.0 - p
        return p


def knockout_places(bracket: Knockout) -> Places:
    """Every entrant's chance of every place, exact (see the module's docstring)."""
    beats = Beats(bracket.ratings)
    line = bracket.line
    # reach[p]: who can stand on side p of this round's line, with what chance (the rest: nobody)
    reach: list[dict[Entrant, float]] = [{e: 1.0} if e is not None else {} for e in line]
    places: Places = {e: {} for e in line if e is not None}
    for r in range(1, bracket.rounds + 1):
        length = bracket.length(r)
        lost_place = bracket.place_of_loser(r)
        nxt: list[dict[Entrant, float]] = []
        for p in range(len(reach) // 2):
            a, b = reach[2 * p], reach[2 * p + 1]
            if (r, p) in bracket.decided:
                winner = bracket.decided[(r, p)]
                won = {winner: 1.0} if winner is not None else {}
            else:
                won = _play(a, b, length, beats)
            for side in (a, b):
                for e, chance in side.items():
                    out = chance - won.get(e, 0.0)
                    if out > 0.0:
                        places[e][lost_place] = places[e].get(lost_place, 0.0) + out
            nxt.append(won)
        reach = nxt
    for e, chance in reach[0].items():
        places[e][1] = places[e].get(1, 0.0) + chance
    return places


def _play(a: Mapping[Entrant, float], b: Mapping[Entrant, float], length: int, beats: Beats) -> dict:
    """Who wins a slot whose sides are the distributions a and b: P(i) · (P(nobody there) + Σ_j P(j) p(i, j))."""
    nobody_a = max(0.0, 1.0 - sum(a.values()))
    nobody_b = max(0.0, 1.0 - sum(b.values()))
    won: dict[Entrant, float] = {}
    for mine, theirs, nobody in ((a, b, nobody_b), (b, a, nobody_a)):
        for i, pi in mine.items():
            won[i] = pi * (nobody + sum(pj * beats(i, j, length) for j, pj in theirs.items()))
    return won


def knockout_sample(bracket: Knockout, beats: Beats | None = None) -> Callable[[random.Random], dict[Entrant, int]]:
    """One random playing-out of the bracket: each entrant's place."""
    beats = beats or Beats(bracket.ratings)

    def once(rng: random.Random) -> dict[Entrant, int]:
        line = list(bracket.line)
        placed: dict[Entrant, int] = {}
        for r in range(1, bracket.rounds + 1):
            length, lost_place = bracket.length(r), bracket.place_of_loser(r)
            nxt: list[Entrant | None] = []
            for p in range(len(line) // 2):
                a, b = line[2 * p], line[2 * p + 1]
                if (r, p) in bracket.decided:
                    winner = bracket.decided[(r, p)]
                elif a is None or b is None:
                    winner = a if b is None else b
                else:
                    winner = a if rng.random() < beats(a, b, length) else b
                for e in (a, b):
                    if e is not None and e != winner:
                        placed[e] = lost_place
                nxt.append(winner)
            line = nxt
        if line[0] is not None:
            placed[line[0]] = 1
        return placed

    return once


def undrawn_knockout_sample(
    entrants: Sequence[DrawEntrant], lengths: Sequence[int], *, seeded: bool = False
) -> Callable[[random.Random], dict[Entrant, int]]:
    """Before the draw: one random draw made as the flight will make it (tournaments.core.draw: its byes, its
    seeding) and one random playing-out of the bracket it gives."""
    ratings = {e.key: e.rating for e in entrants}
    beats = Beats(ratings)

    def once(rng: random.Random) -> dict[Entrant, int]:
        line = draw(entrants, rng_seed=rng.randrange(2**32), seeded=seeded)
        return knockout_sample(Knockout(line=line, decided={}, lengths=lengths, ratings=ratings), beats)(rng)

    return once


def round_robin_sample(
    entrants: Sequence[Entrant],
    *,
    played: Sequence[standings.Game],
    ratings: Mapping[Entrant, float],
    length: int,
    cycles: int = 1,
    order: Sequence[str] = standings.DEFAULT_ORDER,
) -> Callable[[random.Random], dict[Entrant, int]]:
    """A round robin's rest played out once: the schedule (tournaments.core.roundrobin, the flight's own) less
    the games already scored, each left to the FIBS chance, the loser scoring a random 0 … length−1; then the
    flight's standings (tournaments.core.standings with its tie-breaks) give the places (a full tie shares one).
    `entrants` in Berger-number order, as the schedule was made."""
    beats = Beats(ratings)
    due: dict[tuple, int] = {}
    byes: dict[Entrant, int] = {}
    for rnd in roundrobin.schedule(list(entrants), cycles=cycles):
        for game in rnd.games:
            key = _pair(game.first, game.second)
            due[key] = due.get(key, 0) + 1
        if rnd.bye is not None:
            byes[rnd.bye] = byes.get(rnd.bye, 0) + 1
    for result in played:
        if result.b is None:
            byes[result.a] = byes.get(result.a, 0) - 1
        else:
            key = _pair(result.a, result.b)
            due[key] = due.get(key, 0) - 1
    remaining = [key for key, n in due.items() for _ in range(max(0, n))]
    owed_byes = [e for e, n in byes.items() for _ in range(max(0, n))]

    def once(rng: random.Random) -> dict[Entrant, int]:
        games = list(played)
        for a, b in remaining:
            a_wins = rng.random() < beats(a, b, length)
            loser_points = rng.randrange(length) if length > 1 else 0
            games.append(
                standings.Game(
                    a,
                    b,
                    winner=a if a_wins else b,
                    points_a=length if a_wins else loser_points,
                    points_b=loser_points if a_wins else length,
                )
            )
        games += [standings.Game(e, None, kind=standings.BYE, winner=e) for e in owed_byes]
        return {row.key: row.rank for row in standings.standings(list(entrants), games, order)}

    return once


def groups_sample(
    groups: Sequence[Sequence[Entrant]],
    *,
    played: Sequence[Sequence[standings.Game]],
    ratings: Mapping[Entrant, float],
    length: int,
    cycles: int = 1,
    order: Sequence[str] = standings.DEFAULT_ORDER,
) -> Sample:
    """Groups: each group's round robin played out (`round_robin_sample`, its own schedule and games), then the
    groups flight's places: by rank in the group, 1 + everyone in any group ranked better in theirs (every
    group winner 1st, ...), as `tournaments.formats.robin.Groups.places` does."""
    samples = [
        round_robin_sample(members, played=games, ratings=ratings, length=length, cycles=cycles, order=order)
        for members, games in zip(groups, played, strict=True)
        if len(members) >= 2
    ]
    alone = [members[0] for members in groups if len(members) == 1]

    def once(rng: random.Random) -> dict[Entrant, int]:
        ranks: dict[Entrant, int] = dict.fromkeys(alone, 1)
        for sample in samples:
            ranks.update(sample(rng))
        ordered = sorted(ranks.values())
        better = {r: bisect_left(ordered, r) for r in set(ordered)}
        return {e: 1 + better[r] for e, r in ranks.items()}

    return once


class SwissRule:
    """A Swiss: paired by wins; over after its rounds or once at most one player is unbeaten; places are the
    standings' ranks (tournaments.formats.swiss.Swiss)."""

    def __init__(self, *, rounds: int | None, until_one_unbeaten: bool) -> None:
        self.rounds, self.until_one_unbeaten = rounds, until_one_unbeaten

    def group(self, row: standings.Standing) -> int:
        return row.wins

    def still_in(self, row: standings.Standing) -> bool:
        return True

    def is_over(self, table: Sequence[standings.Standing], played_rounds: int, withdrawn: frozenset) -> bool:
        table = [row for row in table if row.key not in withdrawn]
        unbeaten = sum(1 for row in table if row.losses == 0)
        over = swiss.swiss_is_over(
            rounds=self.rounds,
            until_one_unbeaten=self.until_one_unbeaten,
            played_rounds=played_rounds,
            unbeaten=unbeaten,
        )
        return over or len(table) < 2

    def places(
        self, table: Sequence[standings.Standing], out_round: Mapping[Entrant, int], withdrawn: frozenset
    ) -> dict[Entrant, int]:
        return {row.key: row.rank for row in table}


class TripleRule(SwissRule):
    """A triple elimination: paired by fewest losses among those with fewer than three; over when one is left;
    places by the round a player went out, latest first (tournaments.formats.swiss.TripleElimination)."""

    def __init__(self) -> None:
        super().__init__(rounds=None, until_one_unbeaten=False)

    def group(self, row: standings.Standing) -> int:
        return -row.losses

    def still_in(self, row: standings.Standing) -> bool:
        return row.losses < swiss.TRIPLE_OUT

    def is_over(self, table: Sequence[standings.Standing], played_rounds: int, withdrawn: frozenset) -> bool:
        return sum(1 for row in table if self.still_in(row) and row.key not in withdrawn) <= 1

    def places(
        self, table: Sequence[standings.Standing], out_round: Mapping[Entrant, int], withdrawn: frozenset
    ) -> dict[Entrant, int]:
        losses = {row.key: max(row.losses, swiss.TRIPLE_OUT if row.key in withdrawn else 0) for row in table}
        return swiss.triple_places([row.key for row in table], losses=losses, out_round=dict(out_round))


#: Fields up to this size pair every simulated round with the flight's own pairing core (swiss.pair_round, a
#: weighted matching: 1–2 ms a round at 8–12 players, ~35 ms at 256; a pairing once made is remembered for the
#: runs that reach the same state); a larger field with `quick_pairs`, which keeps what decides places (score
#: groups top down, no rematch while one of the next players down allows it, the bye to the lowest without one)
#: without the matching's float optimisation.
PAIR_EXACT_UP_TO = 12


def quick_pairs(players: Sequence[swiss.SwissPlayer]) -> list[swiss.Pair]:
    """A simulated round of a large field: the players in pairing order (score group, then rank), each paired
    with the nearest one below not met yet (else the nearest), the bye to the lowest player without one."""
    ordered = sorted(players, key=lambda p: (-p.group, p.rank))
    bye: list[swiss.Pair] = []
    if len(ordered) % 2:
        lowest = next((p for p in reversed(ordered) if not p.had_bye), ordered[-1])
        ordered.remove(lowest)
        bye = [(lowest.key, None)]
    free = ordered
    pairs: list[swiss.Pair] = []
    while free:
        first, rest = free[0], free[1:]
        at = next((i for i, p in enumerate(rest[:12]) if p.key not in first.opponents), 0)
        pairs.append((first.key, rest[at].key))
        free = rest[:at] + rest[at + 1 :]
    return pairs + bye


def swiss_run_ms(players: int, rounds_left: int) -> float:
    """About what one run of `swiss_sample` costs (ms, measured on the shared machine): a round paired by the
    matching ~0.6 ms in a small field, by `quick_pairs` 0.02 ms per player; the rounds' results 0.02 ms per
    player and round; the final standings with every tie-break ~0.08 ms per player (20 ms at 256)."""
    per_round = 0.6 if players <= PAIR_EXACT_UP_TO else 0.02 * players
    return rounds_left * (per_round + 0.02 * players) + 0.08 * players


class _Row(NamedTuple):
    """A standings line as a simulated round of a large field is paired from (what a rule reads of it)."""

    key: Entrant
    rank: int
    wins: int
    losses: int
    byes: int


def swiss_sample(
    entrants: Sequence[Entrant],
    *,
    played: Sequence[standings.Game],
    open_tables: Sequence[tuple[Entrant, Entrant]],
    met: Mapping[Entrant, set],
    ratings: Mapping[Entrant, float],
    length: int,
    rule: SwissRule,
    played_rounds: int,
    withdrawn: frozenset = frozenset(),
    out_round: Mapping[Entrant, int] | None = None,
    order: Sequence[str] = standings.DEFAULT_ORDER,
    pair_seed: int = 0,
) -> Sample:
    """A Swiss's (or a triple elimination's) rest played out once: the current round's open tables by the FIBS
    chance, then round after round paired as the flight pairs (`rule`'s score groups from the standings with the
    flight's tie-breaks, `swiss.pair_round` with its stored seed; `quick_pairs` above PAIR_EXACT_UP_TO players)
    until the rule says it is over; places by the rule. `entrants` in seed order; `played_rounds` the rounds
    paired so far (the current one included); withdrawn players are not paired again."""
    beats = Beats(ratings)
    keys = list(entrants)
    paired: dict[tuple, list[swiss.Pair]] = {}  # the same state, the same pairing: made once for every run
    limit = played_rounds + 2 * len(keys) + 3  # a Swiss until one unbeaten, a triple elimination: always far less

    def play(a: Entrant, b: Entrant, rng: random.Random, games: list) -> Entrant:
        a_wins = rng.random() < beats(a, b, length)
        loser_points = rng.randrange(length) if length > 1 else 0
        winner = a if a_wins else b
        points = (length, loser_points) if a_wins else (loser_points, length)
        games.append(standings.Game(a, b, winner=winner, points_a=points[0], points_b=points[1]))
        return b if a_wins else a

    start = standings.standings(keys, list(played), order)
    start_rank = {row.key: row.rank for row in start}
    exact = sum(1 for k in keys if k not in withdrawn) <= PAIR_EXACT_UP_TO

    def once(rng: random.Random) -> dict[Entrant, int]:
        games = list(played)
        opponents = {k: set(met.get(k, ())) for k in keys}
        out = dict(out_round or {})
        wins = {row.key: row.wins for row in start}
        losses = {row.key: row.losses for row in start}
        byes = {row.key: row.byes for row in start}
        number = played_rounds

        def result(a: Entrant, b: Entrant | None) -> None:
            if b is None:
                games.append(standings.Game(a, None, kind=standings.BYE, winner=a))
                wins[a] += 1
                byes[a] += 1
                return
            loser = play(a, b, rng, games)
            wins[b if loser == a else a] += 1
            losses[loser] += 1
            if losses[loser] == swiss.TRIPLE_OUT:
                out.setdefault(loser, number)

        def table() -> list[Any]:
            """The standings the next round is paired from: the flight's own (tie-breaks and all) for a field
            paired exactly; for a larger one the wins and losses so far, ranked within a score group as they
            stood when the simulation started (the tie-breaks move little over a few rounds)."""
            if exact:
                return standings.standings(keys, games, order)
            return [_Row(k, start_rank[k], wins[k], losses[k], byes[k]) for k in keys]

        for a, b in open_tables:
            result(a, b)
        now = table()
        while not rule.is_over(now, number, withdrawn) and number < limit:
            number += 1
            players = [
                swiss.SwissPlayer(
                    row.key,
                    group=rule.group(row),
                    had_bye=row.byes > 0,
                    opponents=frozenset(opponents[row.key]),
                    rank=row.rank,
                )
                for row in now
                if row.key not in withdrawn and rule.still_in(row)
            ]
            if len(players) < 2:
                break
            if exact:
                state = (number, *players)
                pairs = paired.get(state) or paired.setdefault(
                    state, swiss.pair_round(players, rng_seed=pair_seed, round_number=number)
                )
            else:
                pairs = quick_pairs(players)
            for a, b in pairs:
                if b is not None:
                    opponents[a].add(b)
                    opponents[b].add(a)
                result(a, b)
            now = table()
        final = now if exact else standings.standings(keys, games, order)
        return rule.places(final, out, withdrawn)

    return once


def _pair(a: Entrant, b: Entrant) -> tuple:
    return (a, b) if repr(a) <= repr(b) else (b, a)


def runs_for(ms_per_run: float, *, budget_ms: float = 800.0, least: int = 20, most: int = 1000) -> int:
    """How many runs a simulation gets: as many as `budget_ms` (what one cache miss may cost) allows at the
    format's estimate of one run, between `least` and `most`. One standard error on a chance p is
    √(p(1−p)/runs): ±1.6 points at 50 % with 1,000 runs, ±11 with 20 (a 256-player Swiss far from its end)."""
    return max(least, min(most, int(budget_ms / max(ms_per_run, 1e-6))))


def simulate_places(sample: Callable[[random.Random], Mapping[Entrant, int]], *, runs: int, seed: int) -> Places:
    """Place chances by playing the rest of a flight out `runs` times with a seeded random source (the same
    seed, the same figures)."""
    rng = random.Random(seed)
    counts: dict[Entrant, dict[int, int]] = {}
    for _ in range(runs):
        for e, place in sample(rng).items():
            row = counts.setdefault(e, {})
            row[place] = row.get(place, 0) + 1
    return {e: {place: n / runs for place, n in row.items()} for e, row in counts.items()}


def holders(places: Places) -> dict[int, float]:
    """The expected number of holders of each place (over the entrants, the place's chances added up)."""
    total: dict[int, float] = {}
    for row in places.values():
        for place, chance in row.items():
            total[place] = total.get(place, 0.0) + chance
    return total


def expected_prizes(places: Places, amounts: Mapping[int, int], shared_by: Mapping[int, float]) -> dict[Entrant, float]:
    """Each entrant's expected prize: Σ over paid places of P(place) · the place's amount / its holders
    (`amounts`: place -> the line's whole amount; `shared_by`: place -> how many hold it when the flight ends; for
    a simulated format whose place is shared in some runs only, the expected number of holders, so that over the
    entrants each line adds up to its amount: an expectation of a ratio taken as a ratio of expectations)."""
    out: dict[Entrant, float] = {}
    for e, row in places.items():
        out[e] = sum(c * amounts[p] / (shared_by.get(p, 1) or 1) for p, c in row.items() if p in amounts)
    return out
