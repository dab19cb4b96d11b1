"""Match play without Django: replaying a scoresheet, checking a final score or a verified record against a
report, lateness penalties, and which status changes are allowed.

All scoring goes through backgammon.scoring (MatchState, game_points, check_final_score); this module only
adds what a scoresheet needs on top of it: where the rules put the cube out of play (MatchState.cube_allowed,
the Crawford rule) the cube must stay at 1 and a drop is impossible, and games after the match is decided are
refused.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from backgammon.dave import scoring as dave_scoring
from backgammon.dave.stake import Progression
from backgammon.nardy import scoring as nardy_scoring
from backgammon.scoring import (
    GameKind,
    MatchState,
    ScoringError,
    check_final_score,
    final_score_winner,
    game_points,
)

# --- the variant a match is played in ------------------------------------------------------------------------

LONG_NARDY, DAVE = "long_nardy", "dave"
# How a game ends (MatchGame.Kind's values, spelled here without Django).
SINGLE, GAMMON, BACKGAMMON, DROP, RESIGN, OIN, MARS = "single", "gammon", "backgammon", "drop", "resign", "oin", "mars"
CUBE_VARIANTS = frozenset({"standard", "nackgammon", "hypergammon", "backward"})


@dataclass(frozen=True)
class Form:
    """How a match's games are scored: the variant (its board and rules) and the stakes (`cube` or `dave`,
    with the Dave progression). Long nardy scores oin (1) and mars (2) with no cube; Dave stakes score the
    stake a game was played for; the rest score as backgammon with the cube. The Crawford rule applies only
    where a cube is in play."""

    variant: str = "standard"
    stakes: str = "cube"
    progression: str = "geometric"

    @property
    def has_cube(self) -> bool:
        return self.stakes != DAVE and self.variant in CUBE_VARIANTS

    @property
    def is_nardy(self) -> bool:
        return self.variant == LONG_NARDY

    @property
    def is_dave(self) -> bool:
        return self.stakes == DAVE

    @property
    def kinds(self) -> tuple[str, ...]:
        """How a game of this form can end, as MatchGame.Kind values: the report forms offer only these and
        `record_game` refuses any other (a backgammon game is no oin, a long nardy game no gammon). Long nardy:
        oin, mars, or a resignation of one of them; Dave stakes: played out, a Dave given up (drop) or a
        resignation, no gammon; the backgammon variants with the cube: single, gammon, backgammon, drop, resign
        (Hypergammon and Nackgammon count gammons too)."""
        if self.is_nardy:
            return (OIN, MARS, RESIGN)
        if self.is_dave:
            return (SINGLE, DROP, RESIGN)
        return (SINGLE, GAMMON, BACKGAMMON, DROP, RESIGN)

    @property
    def resign_levels(self) -> tuple[int, ...]:
        """What a resignation can give up: oin (1) or mars (2) in long nardy, a single, gammon or backgammon
        (1-3) with the cube; a Dave resignation pays the stake, no level."""
        if self.is_nardy:
            return (1, 2)
        if self.is_dave:
            return ()
        return (1, 2, 3)


STANDARD = Form()


def entry_points(form: Form, entry: GameEntry) -> int:
    """A game's points in the form's scoring; the rules live in each variant's scoring module."""
    if form.is_nardy:
        return nardy_scoring.scoresheet_points(kind=entry.kind, cube=entry.cube, resign_level=entry.resign_level)
    if form.is_dave:
        return dave_scoring.scoresheet_stake(
            progression=Progression.named(form.progression), kind=entry.kind, stake=entry.cube
        )
    return game_points(kind=GameKind(entry.kind), cube=entry.cube, resign_level=entry.resign_level)


# --- status transitions -------------------------------------------------------------------------------------

INVITED, SCHEDULED, IN_PROGRESS, FINISHED, FORFEITED, ABANDONED = (
    "invited",
    "scheduled",
    "in_progress",
    "finished",
    "forfeited",
    "abandoned",
)
RESULT_STATUSES = frozenset({FINISHED, FORFEITED, ABANDONED})

# A confirmed result may move a match between the result statuses (a correction, an override, an annulment).
# An invitation becomes a match only by its acceptance (declined, withdrawn or expired, it is deleted or ignored).
ALLOWED_TRANSITIONS: Mapping[str, frozenset[str]] = {
    INVITED: frozenset({SCHEDULED}),
    SCHEDULED: frozenset({IN_PROGRESS}) | RESULT_STATUSES,
    IN_PROGRESS: RESULT_STATUSES,
    FINISHED: RESULT_STATUSES,
    FORFEITED: RESULT_STATUSES,
    ABANDONED: RESULT_STATUSES,
}


def can_transition(current: str, new: str) -> bool:
    return new in ALLOWED_TRANSITIONS.get(current, frozenset())


# --- outcomes ------------------------------------------------------------------------------------------------

PLAYED, LATENESS = "played", "lateness"
FORFEIT, WALKOVER, NO_SHOW, DOUBLE_FORFEIT, ANNULLED = "forfeit", "walkover", "no_show", "double_forfeit", "annulled"
NO_PLAY_OUTCOMES = frozenset({FORFEIT, WALKOVER, NO_SHOW, DOUBLE_FORFEIT})


def status_for_outcome(outcome: str) -> str:
    if outcome in (PLAYED, LATENESS):
        return FINISHED
    if outcome == ANNULLED:
        return ABANDONED
    return FORFEITED


def is_rated(outcome: str) -> bool:
    """Only a match played out without penalty points moves ratings."""
    return outcome == PLAYED


# --- the scoresheet ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameEntry:
    winner: int  # 0 = player A, 1 = player B
    kind: str = GameKind.SINGLE
    cube: int = 1
    resign_level: int | None = None


@dataclass(frozen=True)
class ScoredGame:
    number: int
    entry: GameEntry
    points: int
    crawford_game: bool
    scores_after: tuple[int, int]


def start_state(
    *,
    length: int,
    crawford_rule: bool = True,
    holland_rule: bool = False,
    penalties: tuple[int, int] = (0, 0),
    form: Form = STANDARD,
) -> MatchState:
    """The state before the first game. Penalty points against a player are points for the opponent. Without a
    cube (long nardy, Dave stakes) there is no Crawford game."""
    scores = (penalties[1], penalties[0])
    crawford_rule = crawford_rule and form.has_cube
    holland_rule = holland_rule and form.has_cube
    return MatchState.at_score(length=length, scores=scores, crawford_rule=crawford_rule, holland_rule=holland_rule)


def play_game(
    state: MatchState, entry: GameEntry, *, number: int, form: Form = STANDARD
) -> tuple[MatchState, ScoredGame]:
    """Score one game on top of `state`, refusing what the rules forbid with a message naming the game."""
    a, b = state.scores
    if state.is_over:
        raise ScoringError(
            "play_after_match_end",
            f"Game {number} cannot count: the match was already decided at {a}–{b}.",
            number=number, a=a, b=b,
        )  # fmt: skip
    if not form.has_cube:  # long nardy, Dave stakes: the variant's own values, no Crawford game
        points = entry_points(form, entry)
        new_state = state.after_game(winner=entry.winner, points=points)
        return new_state, ScoredGame(number, entry, points, False, new_state.scores)
    if entry.kind not in form.kinds:  # an oin on a backgammon scoresheet: name what a game here ends in
        raise ScoringError(
            "no_such_result",
            "A backgammon game ends in a single, gammon or backgammon, a dropped double or a resignation; oin and "
            "mars are long nardy's.",
            field="kind", kind=entry.kind,
        )  # fmt: skip
    kind = GameKind(entry.kind)
    if not state.cube_allowed and kind == GameKind.DROP:
        raise ScoringError(
            "drop_in_crawford_game",
            f"Game {number} is the Crawford game: nobody may double in it, so the cube stays at 1 and there is no "
            "double to drop.",
            number=number,
        )  # fmt: skip
    if not state.cube_allowed and entry.cube != 1:
        raise ScoringError(
            "cube_in_crawford_game",
            f"Game {number} is the Crawford game: nobody may double in it, so the cube stays at 1 (not {entry.cube}).",
            number=number, cube=entry.cube,
        )  # fmt: skip
    points = game_points(kind=kind, cube=entry.cube, resign_level=entry.resign_level)
    new_state = state.after_game(winner=entry.winner, points=points)
    return new_state, ScoredGame(number, entry, points, state.crawford_game, new_state.scores)


def replay(
    start: MatchState, entries: Iterable[GameEntry], *, form: Form = STANDARD
) -> tuple[MatchState, list[ScoredGame]]:
    state, scored = start, []
    for number, entry in enumerate(entries, start=1):
        state, game = play_game(state, entry, number=number, form=form)
        scored.append(game)
    return state, scored


def describe(state: MatchState, form: Form = STANDARD) -> dict[str, Any]:
    """What a scoresheet shows: the score, who is how many away, and the Crawford situation in plain words."""
    if state.is_over:
        phase = "decided"
    elif state.crawford_game:
        phase = "crawford"
    elif state.post_crawford:
        phase = "post_crawford"
    else:
        phase = "normal"
    return {
        "length": state.length,
        "scores": list(state.scores),
        "away": [state.away(0), state.away(1)],
        "games_played": state.games_played,
        "phase": phase,
        "crawford_game": state.crawford_game,
        "post_crawford": state.post_crawford,
        "cube_allowed": form.has_cube and state.cube_allowed and not state.is_over,
        "is_over": state.is_over,
        "winner_side": state.winner,
        "variant": form.variant,
        "stakes": form.stakes,
    }


# --- final score only ----------------------------------------------------------------------------------------


def check_reported_score(
    *,
    length: int,
    scores: tuple[int, int],
    penalties: tuple[int, int] = (0, 0),
    crawford_rule: bool = True,
    form: Form = STANDARD,
) -> int:
    """Check a final score typed in; returns the winning side. The match starts at the points the opponents'
    lateness gave each player, and the score must follow from there by legal games (check_final_score; for
    long nardy and Dave stakes the variant's own rule, final_score_without_cube)."""
    start = start_state(length=length, crawford_rule=crawford_rule, penalties=penalties, form=form)
    if not form.has_cube:
        return final_score_without_cube(length=length, scores=scores, start=start.scores, form=form)
    return check_final_score(length=length, scores=scores, start=start.scores, crawford_rule=crawford_rule)


def final_score_without_cube(
    *, length: int, scores: tuple[int, int], start: tuple[int, int] = (0, 0), form: Form
) -> int:
    """A final score of a long nardy or Dave-stakes match: the loser below the length, the winner at or past it,
    and (long nardy) past it by at most one, since the last game is worth 1 or 2 from below the length. A Dave
    stake has no upper bound, so only the loser's side and the start are checked. Returns the winning side."""
    winner = final_score_winner(length=length, scores=scores, start=start)
    if form.is_nardy:
        nardy_scoring.check_final_score(length=length, winner_score=scores[winner])
    return winner


# --- a verified game record ----------------------------------------------------------------------------------


def _error_text(error: Any) -> str:
    """The verifier stores errors as dicts with a message (and the game it is in); older shapes as strings."""
    if isinstance(error, Mapping):
        game = error.get("game")
        message = str(error.get("message") or error.get("text") or error.get("code") or "")
        return f"game {game}: {message}" if game else message
    return str(error)


def _name(value: str) -> str:
    return " ".join(str(value).split()).casefold()


def compare_record(
    verdict: Mapping[str, Any],
    *,
    player_names: tuple[str, str],
    length: int,
    scores: tuple[int, int] | None = None,
    form: Form = STANDARD,
) -> tuple[int, int]:
    """Check a verifier verdict against the match; returns the record's final score from A's and B's view.

    `verdict` has the shape {"valid", "match_length", "players": [a, b], "final_score": [x, y], "winner", "games",
    "errors"}. The players may be named in either order; `scores`, when given, is the score the reporter typed and
    must agree. Every disagreement is listed in one ScoringError so the reporter sees all of them at once.
    """
    if not verdict.get("valid"):
        errors = "; ".join(_error_text(e) for e in verdict.get("errors") or []) or "no reason given"
        raise ScoringError(
            "record_invalid", f"The game record did not pass verification: {errors}.", "record", errors=errors
        )
    problems: list[str] = []
    record_players: Sequence[str] = verdict.get("players") or []
    record_score: Sequence[int] = verdict.get("final_score") or []
    if len(record_players) != 2 or len(record_score) != 2:
        raise ScoringError(
            "record_incomplete", "The game record does not name two players and a final score.", "record"
        )
    wanted = (_name(player_names[0]), _name(player_names[1]))
    got = (_name(record_players[0]), _name(record_players[1]))
    if got == wanted:
        ordered = (int(record_score[0]), int(record_score[1]))
    elif got == wanted[::-1]:
        ordered = (int(record_score[1]), int(record_score[0]))
    else:
        problems.append(
            f"the record is between {record_players[0]} and {record_players[1]}, "
            f"the match between {player_names[0]} and {player_names[1]}"
        )
        ordered = (int(record_score[0]), int(record_score[1]))
    if verdict.get("match_length") != length:
        problems.append(f"the record is a {verdict.get('match_length')}-point match, this match is to {length}")
    if scores is not None and tuple(scores) != ordered:
        problems.append(f"the record ends {ordered[0]}–{ordered[1]}, the report says {scores[0]}–{scores[1]}")
    if problems:
        raise ScoringError(
            "record_disagrees",
            "The game record does not match the report: " + "; ".join(problems) + ".",
            "record",
            problems="; ".join(problems),
        )
    # The verifier checked every game; a record may start mid-match and its Crawford setting is its own, so only
    # refuse what no match of this length can end at (reachable from any start without Crawford means from 0–0).
    if form.has_cube:
        check_final_score(length=length, scores=ordered, crawford_rule=False)
    else:
        final_score_without_cube(length=length, scores=ordered, form=form)
    return ordered


# --- lateness ------------------------------------------------------------------------------------------------

LATENESS_STEP_MINUTES = 5


def lateness_penalty(minutes_late: float) -> int:
    """One federation's rule: 1 penalty point once 5 minutes have passed, +1 for every further 5 minutes."""
    if minutes_late < 0:
        raise ScoringError("bad_lateness", "Lateness cannot be negative.", "minutes_late")
    return int(minutes_late // LATENESS_STEP_MINUTES)


def lateness_forfeits(*, penalty: int, length: int) -> bool:
    """Once penalties exceed half the match length, the opponent wins by forfeit."""
    return 2 * penalty > length
