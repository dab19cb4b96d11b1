"""People-facing, translated text for the scoring refusals of the pure core (which speaks English and sides)."""

from django.utils.translation import gettext_lazy

from games.models.matches import Match
from games.rules.scoring import ScoringError

MESSAGES = {
    "play_after_match_end": gettext_lazy("Game %(number)s cannot count: the match was already decided at %(a)s–%(b)s."),
    "cube_in_crawford_game": gettext_lazy(
        "Game %(number)s is the Crawford game: nobody may double in it, so the cube stays at 1 (not %(cube)s)."
    ),
    "drop_in_crawford_game": gettext_lazy(
        "Game %(number)s is the Crawford game: nobody may double in it, so the cube stays at 1 and there is no "
        "double to drop."
    ),
    "bad_score": gettext_lazy("A score cannot be negative."),
    "loser_at_length": gettext_lazy(
        "In a %(length)s-point match the loser can have at most %(most)s points: the match ends as soon as one "
        "player reaches %(length)s, so %(a)s–%(b)s cannot be a final score."
    ),
    "match_unfinished": gettext_lazy(
        "%(a)s–%(b)s is not a final score of a %(length)s-point match: one player must reach %(length)s."
    ),
    "below_start": gettext_lazy(
        "%(a)s–%(b)s cannot be the final score: %(player)s starts this match with %(start)s points (penalty "
        "points for the opponent's lateness), and a player never loses points."
    ),
    "no_deciding_game": gettext_lazy(
        "%(a)s–%(b)s cannot be the final score of this %(length)s-point match: before the last game %(player)s had "
        "at least %(low)s and at most %(high)s points, so that game would have been worth %(least)s to %(most)s "
        "points. A game is worth 1, 2 or 3 times the cube (1, 2, 4, 8, …), so %(below)s or %(above)s come "
        "closest. Check the score for a typo."
    ),
    "crawford_no_cube": gettext_lazy(
        "%(a)s–%(b)s cannot be the final score of this %(length)s-point match: only a game worth %(points)s points "
        "from %(before_a)s–%(before_b)s would end it there, but at %(before_a)s–%(before_b)s the next game is the "
        "Crawford game, played without the cube, so it is worth 1, 2 or 3 points. No other score before the last "
        "game works: a game is worth 1, 2 or 3 times the cube (1, 2, 4, 8, …)."
    ),
}


def readable(exc: ScoringError, match: Match) -> str:
    """The core's refusal in the reader's language, naming the player instead of side 0 or 1."""
    template = MESSAGES.get(exc.code)
    if template is None:
        return exc.message
    params: dict[str, object] = dict(exc.params)
    if "side" in params:
        params["player"] = match.players[int(params["side"])].name
    try:
        return str(template) % params
    except (KeyError, TypeError, ValueError):  # a refusal raised without its numbers: the core's own words
        return exc.message
