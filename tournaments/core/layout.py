"""Bracket shapes. A layout names every slot (section, round, position) and says where a slot's winner goes
and where a fed loser lands; nothing about the shape is stored, it follows from (kind, size, feed rounds).

Sections: "w" a knockout (the main, or the winners' side of a double elimination), "c" a bracket fed by
another flight's losers (consolation, last chance), "l" the losers' side of a double elimination, "g" its
grand final, "t" a knockout's third-place match, "p" a knockout's playoff for 2nd (its final's loser against
the winner of the consolation it feeds, who arrives from the other flight: side 1).

A fed bracket of a source of size S with feed rounds k: round 1 pairs the losers of the source's round-1
slots (source slot j -> slot j // 2, side j % 2); for each source round f = 2..k a feed round sets the winners
so far (side 0) against the losers of source round f (side 1, in reverse order so round-1 opponents do not
meet again at once), with a pairing round between feed rounds; then pairing rounds down to the final.
A double elimination's losers' side is this with k = every round of the winners' side.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tournaments.core.errors import BracketError

W, C, L, G, T, P = "w", "c", "l", "g", "t", "p"
# How a fed flight takes its players (tournaments.core.consequences routes them); the shape depends on it.
FIRST_PLAYED, PROGRESSIVE, FRESH_DRAW = "first_played", "progressive", "fresh_draw"


@dataclass(frozen=True, order=True)
class Key:
    section: str
    round: int
    position: int


@dataclass(frozen=True)
class Target:
    key: Key
    side: int


@dataclass(frozen=True)
class RoundSpec:
    slots: int
    feed: int | None = None  # the source round whose losers take side 1 of this round (round 1: both sides)


def log2(size: int) -> int:
    if size < 2 or size & (size - 1):
        raise BracketError("bad_bracket_size", "A bracket size is a power of two, at least 2.", "size")
    return size.bit_length() - 1


def knockout_rounds(size: int) -> list[RoundSpec]:
    return [RoundSpec(size >> r) for r in range(1, log2(size) + 1)]


def fed_rounds(source_size: int, feed_rounds: int) -> list[RoundSpec]:
    if source_size < 4:
        raise BracketError("fed_source_too_small", "A fed flight needs a source bracket of at least 4.", "size")
    k = max(1, min(feed_rounds, log2(source_size)))
    rounds = [RoundSpec(source_size // 4, feed=1)]
    for f in range(2, k + 1):
        if f > 2:
            rounds.append(RoundSpec(rounds[-1].slots // 2))
        rounds.append(RoundSpec(source_size >> f, feed=f))
    while rounds[-1].slots > 1:
        rounds.append(RoundSpec(rounds[-1].slots // 2))
    return rounds


@dataclass(frozen=True)
class Layout:
    kind: str  # "knockout", "fed", "double"
    size: int  # the knockout's size; for "fed" the source's size
    feed_rounds: int = 1
    sections: dict[str, list[RoundSpec]] = field(default_factory=dict, compare=False, hash=False)
    reset: bool = False  # double elimination: a second grand final when the losers' side wins the first
    third_place: bool = False  # knockout: a match between the semi-final losers
    playoff_second: bool = False  # knockout: its final's loser plays the consolation's winner for 2nd

    @classmethod
    def knockout(cls, size: int, *, third_place: bool = False, playoff_second: bool = False) -> Layout:
        sections = {W: knockout_rounds(size)}
        if third_place:
            if size < 4:
                raise BracketError(
                    "third_place_too_small",
                    "A third-place match needs two semi-finals: at least 3 entrants, or switch it off.",
                    "third_place",
                )
            sections[T] = [RoundSpec(1)]
        if playoff_second:
            if third_place:
                raise BracketError(
                    "playoff_with_third_place",
                    "A playoff for 2nd places 3rd itself: switch the third-place match off, or the playoff.",
                    "playoff_second",
                )
            sections[P] = [RoundSpec(1)]
        return cls("knockout", size, 1, sections, third_place=third_place, playoff_second=playoff_second)

    @classmethod
    def fed(cls, source_size: int, feed_rounds: int = 1) -> Layout:
        return cls("fed", source_size, feed_rounds, {C: fed_rounds(source_size, feed_rounds)})

    @classmethod
    def double(cls, size: int, *, reset: bool = False) -> Layout:
        if size < 4:
            raise BracketError("double_too_small", "Double elimination needs at least 3 entrants.", "size")
        rounds = log2(size)
        finals = [RoundSpec(1), RoundSpec(1)] if reset else [RoundSpec(1)]
        sections = {W: knockout_rounds(size), L: fed_rounds(size, rounds), G: finals}
        return cls("double", size, rounds, sections, reset=reset)

    @classmethod
    def for_flight(
        cls,
        *,
        size: int,
        double: bool = False,
        feed_rule: str | None = None,
        feed_rounds: int = 1,
        reset: bool = False,
        third_place: bool = False,
        playoff_second: bool = False,
    ) -> Layout:
        """The one place a flight's shape is chosen, for the in-memory engine and the database adapter alike.
        `size` is the flight's own bracket size, or for a linked fed flight its source's `linked_size()`.
        A fresh draw (or a flight with its own draw) is a knockout of its own line; a linked fed flight
        (first_played, progressive) is laid out from its source; only a progressive one feeds more than
        round 1. `reset` (a second grand final) applies to a double elimination, `third_place` and
        `playoff_second` to a knockout of its own line; the settings that do not apply to the shape are
        ignored."""
        if double:
            return cls.double(size, reset=reset)
        if feed_rule in (FIRST_PLAYED, PROGRESSIVE):
            return cls.fed(size, feed_rounds if feed_rule == PROGRESSIVE else 1)
        return cls.knockout(size, third_place=third_place, playoff_second=playoff_second)

    def linked_size(self) -> int:
        """The size a fed flight linked to this one is laid out from: two places per round-1 slot of the first
        section. Below 4 (one round-1 match) it cannot be fed: the linked flight gets no players."""
        return 2 * self.rounds(self.first_section)[0].slots

    # --- the slots ----------------------------------------------------------------------------------------

    @property
    def first_section(self) -> str:
        return C if self.kind == "fed" else W

    @property
    def final_section(self) -> str:
        return {"fed": C, "double": G}.get(self.kind, W)

    def slot_keys(self):
        for section, rounds in self.sections.items():
            for r, spec in enumerate(rounds, start=1):
                for p in range(spec.slots):
                    yield Key(section, r, p)

    def slot_count(self) -> int:
        return sum(spec.slots for rounds in self.sections.values() for spec in rounds)

    def rounds(self, section: str) -> list[RoundSpec]:
        return self.sections[section]

    def is_final(self, key: Key) -> bool:
        """A match played to the final's length: the final (both grand finals with a reset)."""
        if key.section == G and self.reset:
            return True
        return key.section == self.final_section and key.round == len(self.sections[key.section])

    def length_round(self, key: Key) -> int:
        """The round whose match length a slot plays: its own, but the final's round for the third-place
        match (played alongside the final, though not to the final's length)."""
        return len(self.sections[W]) if key.section in (T, P) else key.round

    @staticmethod
    def counts_as_bye(key: Key) -> bool:
        """A walk-through that counts as the player's bye (a fresh draw gives its byes to players without one).
        Not the third-place match's: its player was out of the running already, and may sit in a fresh-draw
        flight's pool by then. Nor the playoff's for 2nd: its players have played their flights through."""
        return key.section not in (T, P)

    def terminal_keys(self) -> list[Key]:
        """The slots whose decision ends the flight once all of them are decided: the final (the second
        grand final with a reset, decided "not needed" when it is not played), a third-place match and a
        playoff for 2nd."""
        final = Key(self.final_section, len(self.sections[self.final_section]), 0)
        return [final] + ([Key(T, 1, 0)] if self.third_place else []) + ([Key(P, 1, 0)] if self.playoff_second else [])

    def is_terminal(self, key: Key) -> bool:
        return key in self.terminal_keys()

    def winner_place(self, key: Key) -> int | None:
        """The place the winner of `key` takes when it moves on nowhere: 1 for the flight's winner, 3 for the
        third-place match; None while the winner moves on."""
        if key.section == T:
            return 3
        if self.is_terminal(key) or (key.section == G and self.reset and key.round == 1):
            return 1
        return None

    def round_one_target(self, line_position: int) -> Target:
        """The round-1 slot and side of a position on the first section's round-1 line."""
        return Target(Key(self.first_section, 1, line_position // 2), line_position % 2)

    # --- where players go ---------------------------------------------------------------------------------

    def winner_target(self, key: Key, winner_side: int | None = None) -> Target | None:
        """The slot and side the winner of `key` moves to; None: the winner has won the flight (or third
        place). The first grand final with a reset depends on who won it (`winner_side`): the losers' side's
        player (side 1) moves to the second final, the winners' side's player has won."""
        if key.section in (T, P):
            return None
        if key.section == G and self.reset and key.round == 1:
            return Target(Key(G, 2, 0), 1) if winner_side == 1 else None
        rounds = self.sections[key.section]
        if key.round < len(rounds):
            nxt = rounds[key.round]
            if nxt.feed is not None:
                return Target(Key(key.section, key.round + 1, key.position), 0)
            return Target(Key(key.section, key.round + 1, key.position // 2), key.position % 2)
        if self.kind == "double" and key.section in (W, L):
            return Target(Key(G, 1, 0), 0 if key.section == W else 1)
        return None

    def feed_target(self, source_round: int, source_position: int, section: str | None = None) -> Target | None:
        """Where the loser of the source's slot (round, position) lands in this fed bracket; None if that
        round does not feed it."""
        section = section or (L if self.kind == "double" else C)
        rounds = self.sections[section]
        if source_round == 1:
            return Target(Key(section, 1, source_position // 2), source_position % 2)
        for r, spec in enumerate(rounds, start=1):
            if spec.feed == source_round:
                return Target(Key(section, r, spec.slots - 1 - source_position), 1)
        return None

    def internal_loser_target(self, key: Key, winner_side: int | None = None) -> Target | None:
        """A loss that does not eliminate: double elimination's winners' side moves the player to the losers'
        side, a first grand final lost by the winners' finalist (`winner_side` 1) to the second final; a
        semi-final loser goes to the third-place match."""
        if self.kind == "double" and key.section == W:
            return self.feed_target(key.round, key.position, L)
        if key.section == G and self.reset and key.round == 1 and winner_side == 1:
            return Target(Key(G, 2, 0), 0)
        if self.third_place and key.section == W and key.round == len(self.sections[W]) - 1:
            return Target(Key(T, 1, 0), key.position)
        if self.playoff_second and key.section == W and key.round == len(self.sections[W]):
            return Target(Key(P, 1, 0), 0)  # the final's loser waits for the consolation's winner
        return None

    def not_needed_targets(self, key: Key, winner_side: int | None) -> list[Target]:
        """The sides of an optional match set empty by this decision: the second grand final when the first
        was won from the winners' side (or by nobody), so it is decided without a match."""
        if key.section == G and self.reset and key.round == 1 and winner_side != 1:
            return [Target(Key(G, 2, 0), 0), Target(Key(G, 2, 0), 1)]
        return []

    def fed_round_count(self) -> int:
        """The last round of the fed section that still takes players from the source."""
        rounds = self.sections[self.first_section]
        return max((r for r, spec in enumerate(rounds, start=1) if spec.feed is not None), default=1)

    # --- places -------------------------------------------------------------------------------------------

    def place_of_loser(self, key: Key) -> int | None:
        """Standard competition ranking by elimination: 1 + the winner + everyone eliminated later. None for a
        loss that does not eliminate (the winners' side of a double elimination)."""
        if key.section == T:
            return 4
        if key.section == P:
            return 3  # a finalist who did not play the final does not play the playoff either: 3rd
        if key.section == G:
            return 2  # either grand final: the loser is second
        order = self._elimination_order()
        if (key.section, key.round) not in order:
            return None
        return order[(key.section, key.round)]

    def _elimination_order(self) -> dict[tuple[str, int], int]:
        stages = [
            (s, r, spec.slots)
            for s in self.sections
            if not (self.kind == "double" and s == W) and s not in (T, P)
            for r, spec in enumerate(self.sections[s], start=1)
            if not (s == G and r > 1)  # a second grand final eliminates nobody a first did not: one stage
        ]
        if self.kind == "double":
            stages.sort(key=lambda t: (t[0] == G, t[1]))
        places, later = {}, 0
        for section, r, slots in reversed(stages):
            places[(section, r)] = 2 + later
            later += slots
        return places
