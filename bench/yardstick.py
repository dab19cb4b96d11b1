"""The yardstick verifier: gnubg-nn's C move generator with the thinnest Python replay loop around it.

Why: "verification is fast" means little without something to hold it against. This loop does the least a
verifier of checker play can do: for every roll of every game it asks gnubg_nn.moves() for the positions the
roll may legally leave (gnubg's generator applies the forced-play rules) and checks that the position the
written move leaves is among them. It knows nothing of the cube, the score, resignations or messages; it only
reads standard backgammon records without backward hits, where every game starts from the usual position.
bench_verify times it beside backgammon.verification.verify on the same parsed records.

gnubg's board is [opponent, mover], each a list of 25 counts in its own numbering (index 24 = the bar), and
moves() answers with the position keys of [opponent, mover after the play].
"""

from __future__ import annotations

import gnubg_nn

from backgammon.analysis.nn_review import play, written_steps
from backgammon.matchfiles.mat import ActionKind, MatchRecord

_START = [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]
_ROLL = ActionKind.ROLL
_NO_MOVE = ("", "Cannot Move")


def replay(record: MatchRecord) -> int:
    """Replay every game; the number of written moves whose result gnubg does not list (0 for a legal record)."""
    wrong = 0
    for game in record.games:
        sides = [list(_START), list(_START)]  # player 0's counts, player 1's counts
        for action in game.actions:
            if action.kind is not _ROLL or action.dice is None:
                continue
            mover, opponent = sides[action.player], sides[1 - action.player]
            legal = gnubg_nn.moves([opponent, mover], action.dice[0], action.dice[1], 0)
            if action.move in _NO_MOVE:
                wrong += bool(legal) and gnubg_nn.key_of_board([opponent, mover]) not in legal
                continue
            play(mover, opponent, written_steps(action.move))
            wrong += gnubg_nn.key_of_board([opponent, mover]) not in legal
    return wrong
