"""A whole session as a replay of its events: the starting order, games, and players joining, leaving,
sitting out and coming back. Undoing or correcting a game is replaying the events again, so the order and
the ledger after any change are exactly what they would have been had it been entered right the first time.

A new event needs only the state after the one before it, so the state is also kept as a snapshot
(`to_snapshot` / `from_snapshot`, plain JSON): entering game 500 reads the snapshot, applies one game and
stores the next snapshot, instead of replaying 499 games. The replay stays the truth the snapshot is checked
against (`replay(...)` and `from_snapshot(to_snapshot(...))` give equal states).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from chouette.core import rotation
from chouette.core.errors import ChouetteError
from chouette.core.scoring import GameEntry, ScoredGame, score_game
from chouette.core.settlement import check_rules_for_partner, game_money
from chouette.core.table_options import Rules

Player = Hashable
START, GAME, JOIN, LEAVE, SIT_OUT, RETURN = "start", "game", "join", "leave", "sit_out", "return"


@dataclass(frozen=True)
class Event:
    kind: str
    player: Player | None = None
    order: tuple = ()
    entry: GameEntry | None = None


@dataclass(frozen=True)
class PlayedGame:
    number: int
    order_before: tuple
    order_after: tuple
    scored: ScoredGame
    money: dict

    @property
    def dealt(self) -> frozenset:
        """The members who settled with the box during this game (their points are the deal)."""
        return frozenset(r.member for r in self.scored.results if r.ended_by == "deal")


@dataclass
class SessionState:
    order: list = field(default_factory=list)
    sitting_out: list = field(default_factory=list)
    departed: list = field(default_factory=list)
    points: dict = field(default_factory=dict)
    money: dict = field(default_factory=dict)
    games: list = field(default_factory=list)  # the games played since this state was built (replayed or restored)
    last_loser: Player | None = None
    games_played: int = 0  # every game of the session, also those before a snapshot

    @property
    def box(self):
        return self.order[0] if self.order else None

    @property
    def captain(self):
        return self.order[1] if len(self.order) > 1 else None


def play(state: SessionState, entry: GameEntry, *, rules: Rules, stakes: Mapping[Player, int]) -> PlayedGame:
    """Score the next game at the current seating, pay it into the ledger and rotate."""
    if len(state.order) < 3:
        raise ChouetteError("too_few_players", "A game needs at least 3 players at the table.", field="players")
    if entry.partner is not None and (entry.partner not in state.order or entry.partner == state.order[0]):
        raise ChouetteError("bad_partner", "The partner must be another player at the table.", field="partner")
    check_rules_for_partner(len(state.order), entry.partner, rules)
    if entry.partner == state.order[1]:
        raise ChouetteError("partner_is_captain", "The captain cannot be the box's partner.", field="partner")
    team = rotation.team_for(state.order, entry.partner)
    scored = score_game(box=state.order[0], team=team, entry=entry, rules=rules)
    money = game_money(scored, stakes, rules)
    before = tuple(state.order)
    state.order = rotation.next_order(state.order, scored, rules)
    state.last_loser = state.order[-1]
    for player, value in scored.points.items():
        state.points[player] = state.points.get(player, 0) + value
    for player, cents in money.items():
        state.money[player] = state.money.get(player, 0) + cents
    state.games_played += 1
    game = PlayedGame(state.games_played, before, tuple(state.order), scored, money)
    state.games.append(game)
    return game


def apply(state: SessionState, event: Event, *, rules: Rules, stakes: Mapping[Player, int]) -> PlayedGame | None:
    if event.kind == START:
        if state.order or state.games_played:
            raise ChouetteError("already_started", "The session already has its starting order.", field="order")
        if len(set(event.order)) != len(event.order):
            raise ChouetteError("duplicate_player", "Each player sits at the table once.", field="order")
        if not 3 <= len(event.order) <= rules.max_players:
            raise ChouetteError(
                "table_size",
                f"A chouette needs 3 to {rules.max_players} players.",
                field="order",
                max=rules.max_players,
            )
        state.order = list(event.order)
        return None
    if event.kind == GAME:
        if event.entry is None:
            raise ChouetteError("bad_event", "A game event carries the game.")
        return play(state, event.entry, rules=rules, stakes=stakes)
    player = event.player
    if event.kind == JOIN:
        if player in state.sitting_out:
            raise ChouetteError(
                "sitting_out", f"{player} is sitting out: bring them back instead.", field="player", player=str(player)
            )
        state.order = rotation.join(state.order, player, rules, last_loser=state.last_loser)
        if player in state.departed:
            state.departed.remove(player)
    elif event.kind == RETURN:
        if player not in state.sitting_out:
            raise ChouetteError("not_sitting_out", f"{player} is not sitting out.", field="player", player=str(player))
        state.order = rotation.join(state.order, player, rules, last_loser=state.last_loser)
        state.sitting_out.remove(player)
    elif event.kind == SIT_OUT:
        state.order = rotation.leave(state.order, player)
        state.sitting_out.append(player)
    elif event.kind == LEAVE:
        if player in state.sitting_out:
            state.sitting_out.remove(player)
        else:
            state.order = rotation.leave(state.order, player)
        state.departed.append(player)
    else:
        raise ChouetteError("bad_event", f"Unknown event {event.kind}.")
    return None


def replay(events: Iterable[Event], *, rules: Rules, stakes: Mapping[Player, int]) -> SessionState:
    state = SessionState()
    for event in events:
        apply(state, event, rules=rules, stakes=stakes)
    return state


def _point(value) -> list[int]:
    value = Fraction(value)
    return [value.numerator, value.denominator]


def _from_point(pair) -> int | Fraction:
    value = Fraction(pair[0], pair[1])
    return int(value) if value.denominator == 1 else value


def to_snapshot(state: SessionState) -> dict[str, Any]:
    """The state as JSON (player ids as given, points as [numerator, denominator]); `games` is not kept: a
    snapshot carries only what the next event decides on, and how many games there were."""
    return {
        "order": list(state.order),
        "sitting_out": list(state.sitting_out),
        "departed": list(state.departed),
        "points": [[player, _point(value)] for player, value in state.points.items()],
        "money": [[player, cents] for player, cents in state.money.items()],
        "last_loser": state.last_loser,
        "games_played": state.games_played,
    }


def from_snapshot(data: Mapping[str, Any] | None) -> SessionState:
    """The state a snapshot holds (an empty one for a session not started: `{}`)."""
    data = data or {}
    return SessionState(
        order=list(data.get("order", [])),
        sitting_out=list(data.get("sitting_out", [])),
        departed=list(data.get("departed", [])),
        points={player: _from_point(pair) for player, pair in data.get("points", [])},
        money=dict(data.get("money", [])),
        last_loser=data.get("last_loser"),
        games_played=data.get("games_played", 0),
    )
