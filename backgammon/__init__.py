"""The backgammon engine: pure Python, no Django import, a library the apps use (`games` first of all). Everything
in the site that knows a rule of the game asks this package; `make lint` holds it to importing no project app.

- board.Board: checkers per side in each side's own numbering (index 24 = bar), pips, off, a diagram.
- variants: Variant (standard, nackgammon, hypergammon 1–3, backward hitting), starting_board,
  checkers_per_side; BackwardHitting, the flag the move functions take for backward hits.
- moves: legal_plays / legal_results / max_dice_playable with forced play, check_play for a written move;
  generator: their fast road (positions as integers, a play as a sum of steps) where nothing can bear off.
- cube: Cube and CubeRules (access, timing, Crawford, Holland, beaver, raccoon, limit, Murphy), may_double.
- outcome.game_kind: single, gammon or backgammon. scoring: game values (game_points, Jacoby), the Crawford
  rule (cube_in_play) and the match score. The verifier, match scoresheets and chouette all ask these.
- random_play: reachable positions by seeded random play (tests and benchmarks).
- matchfiles: match records and positions (Jellyfish .mat, gnubg SGF, written moves, Position/Match IDs, XGID).
- verification, record_routing: a record checked move by move, and a record sent to its variant's checker;
  nardy (long nardy), dave (Dave) and backward_play (backward hitting): the variants with rules of their own.
"""
