"""The games app's refusals in the reader's language, by code: the scoring rules (ScoringError, match play
included), the record readers (RecordFormatError), the position and match identifiers (IdFormatError), and a
heading for each code a record's verification reports. Registered in GamesConfig.ready (base.messages); the
record page reads VERIFICATION.

A message names a player where the core has a side: games.matchplay.messages.with_players fills `player` in.
"""

from django.utils.translation import gettext_lazy

SCORING = {
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
        "%(a)s–%(b)s cannot be the final score: %(player)s starts this match with %(start)s points (penalty points "
        "for the opponent's lateness), and a player never loses points."
    ),
    "no_deciding_game": gettext_lazy(
        "%(a)s–%(b)s cannot be the final score of this %(length)s-point match: before the last game %(player)s had "
        "at least %(low)s and at most %(high)s points, so that game would have been worth %(least)s to %(most)s "
        "points. A game is worth 1, 2 or 3 times the cube (1, 2, 4, 8, …), so %(below)s or %(above)s come closest. "
        "Check the score for a typo."
    ),
    "crawford_no_cube": gettext_lazy(
        "%(a)s–%(b)s cannot be the final score of this %(length)s-point match: only a game worth %(points)s points "
        "from %(before_a)s–%(before_b)s would end it there, but at %(before_a)s–%(before_b)s the next game is the "
        "Crawford game, played without the cube, so it is worth 1, 2 or 3 points. No other score before the last "
        "game works: a game is worth 1, 2 or 3 times the cube (1, 2, 4, 8, …)."
    ),
    "bad_cube": gettext_lazy("A cube shows 1, 2, 4, 8, … — not %(cube)s."),
    "bad_resignation": gettext_lazy("A resignation gives up a single (1), a gammon (2) or a backgammon (3)."),
    "no_such_result": gettext_lazy(
        "A backgammon game ends in a single, gammon or backgammon, a dropped double or a resignation; oin and mars "
        "are long nardy's."
    ),
    "bad_length": gettext_lazy("A match is played to at least 1 point."),
    "bad_winner": gettext_lazy("The winner is player A or player B."),
    "wrong_points": gettext_lazy("A game is worth at least 1 point."),
    "start_decided": gettext_lazy("A match that starts at %(a)s–%(b)s is decided before its first game."),
    "game_not_over": gettext_lazy("The game is not over: the winner still has %(left)s checkers on the board."),
    "money_option_in_match": gettext_lazy("Jacoby, beavers, raccoons and automatic doubles belong to money play only."),
    "raccoon_without_beaver": gettext_lazy("Raccoons answer a beaver: allow beavers to allow raccoons."),
    "beaver_not_allowed": gettext_lazy("Beavers and raccoons are allowed only in money play when agreed."),
    "bad_cube_limit": gettext_lazy("A cube limit is a cube value (1, 2, 4, …), not %(limit)s."),
    "bad_automatic_doubles": gettext_lazy("The number of automatic doubles cannot be negative."),
    "bad_cube_owner": gettext_lazy("The cube is in the middle or owned by one of the two players."),
    "cube_limit": gettext_lazy("The cube may not pass %(limit)s; this would make it %(value)s."),
    "double_in_crawford": gettext_lazy("No doubling in the Crawford game: the cube is out of play."),
    "double_without_access": gettext_lazy(
        "The opponent owns the cube: only the owner (or anyone, when centred) doubles."
    ),
    "double_after_roll": gettext_lazy("A double is offered before rolling, not after."),
    "double_before_holland": gettext_lazy(
        "Holland rule: after the Crawford game the trailer may double only once each side has rolled twice."
    ),
    "record_invalid": gettext_lazy("The game record did not pass verification: %(errors)s."),
    "record_incomplete": gettext_lazy("The game record does not name two players and a final score."),
    "record_disagrees": gettext_lazy("The game record does not match the report: %(problems)s."),
    "bad_lateness": gettext_lazy("Lateness cannot be negative."),
}


RECORD_FORMAT = {
    "bad_point": gettext_lazy("'%(token)s' names point %(point)s; points run from 1 to 24 (25 bar, 0 off)."),
    "too_many_steps": gettext_lazy("'%(token)s' has %(steps)s steps; a roll moves at most 4 checkers."),
    "bad_move": gettext_lazy(
        "'%(token)s' is not a checker move; write moves as from/to, e.g. 24/18, bar/22*, 6/off, 8/3(2)."
    ),
    "bad_repeat": gettext_lazy("'%(token)s' repeats a move %(repeat)s times; a roll moves at most 4 checkers."),
    "not_an_action": gettext_lazy("'%(text)s' is not a roll, cube action or result."),
    "extra_text": gettext_lazy("'%(text)s' has extra text after the action."),
    "too_many_cells": gettext_lazy("A move line holds at most two cells: one per player."),
    "bad_dice": gettext_lazy("'%(text)s': dice show 1 to 6."),
    "bad_cube_value": gettext_lazy("'%(text)s': a cube is turned to 2, 4, 8, 16, …"),
    "bad_win_points": gettext_lazy("'%(text)s': a game is won by at least 1 point."),
    "too_large": gettext_lazy("The record is larger than 2 MiB; a match record is far smaller."),
    "binary": gettext_lazy("The file holds binary data; upload the .mat text export."),
    "bad_match_line": gettext_lazy("A .mat record starts with 'N point match' (0 for a money session)."),
    "bad_length": gettext_lazy("A %(length)s-point match is not a backgammon match."),
    "no_score_line": gettext_lazy("Each 'Game N' line is followed by the score line 'A : x   B : y'."),
    "too_many_games": gettext_lazy("A record may hold at most %(max)s games; this one holds more."),
    "no_first_game": gettext_lazy("Expected ' Game 1' after the match length."),
    "too_many_actions": gettext_lazy("A record may hold at most %(max)s moves and cube actions; this one holds more."),
    "no_match_line": gettext_lazy("No 'N point match' line: this is not a .mat match record."),
    "last_score_line_missing": gettext_lazy("The last game has no score line."),
    "no_game": gettext_lazy("The record holds no game."),
    "bad_sgf_point": gettext_lazy("'%(letter)s' is not an SGF backgammon point (a–x, y bar, z off)."),
    "too_deep": gettext_lazy("SGF variations may nest at most %(max)s deep; this record nests deeper."),
    "unbalanced": gettext_lazy("An SGF ')' closes nothing."),
    "too_many_nodes": gettext_lazy("An SGF record may hold at most %(max)s nodes; this one holds more."),
    "unexpected_end": gettext_lazy("The SGF text ends inside a game tree or a value."),
    "value_too_long": gettext_lazy("An SGF value may hold at most %(max)s characters; this one holds more."),
    "no_game_tree": gettext_lazy("No SGF game tree '(;GM[6]…)' found."),
    "empty_game_tree": gettext_lazy("An SGF game tree without nodes."),
    "not_backgammon": gettext_lazy("This SGF file is not backgammon (GM[6])."),
    "bad_match_info": gettext_lazy("MI[length:…][game:…][ws:…][bs:…] must hold whole numbers."),
    "match_info_range": gettext_lazy("The match length and scores in MI[…] are out of range."),
    "bad_result": gettext_lazy("RE[%(result)s] is not a result such as RE[W+2] or RE[B+4R]."),
    "bad_result_points": gettext_lazy("RE[%(result)s]: a game is won by at least 1 point."),
    "bad_sgf_roll": gettext_lazy("%(value)s is not a roll such as W[52mhhf]."),
    "bad_sgf_move": gettext_lazy("%(value)s: moves are from/to letter pairs, at most four."),
    "never_finished": gettext_lazy(
        "Verification was started %(attempts)s times and never finished (the worker stopped each time); the record "
        "is probably too large or too complex. Split it into smaller files and upload them again."
    ),
    "verifier_failed": gettext_lazy("The verifier failed on this record; please report it."),
    "cannot_read_file": gettext_lazy("The file cannot be read."),
}


ID_FORMAT = {
    "not_text": gettext_lazy("A %(name)s is text."),
    "bad_length": gettext_lazy("A %(name)s has %(length)s characters from A–Z, a–z, 0–9, + and /."),
    "bad_base64": gettext_lazy("'%(text)s' is not valid Base64."),
    "too_many_checkers": gettext_lazy("A Position ID holds at most 30 checkers; this board has %(count)s."),
    "position_bits_short": gettext_lazy("Position ID %(text)s runs out of bits before both sides' 25 places are read."),
    "position_side_overfull": gettext_lazy(
        "Position ID %(text)s puts %(count)s checkers on one side; at most %(total)s."
    ),
    "position_bits_left": gettext_lazy("Position ID %(text)s has bits set after the last place."),
    "impossible_position": gettext_lazy("%(text)s is not a possible position."),
    "bad_extension": gettext_lazy("The Match ID extension is 6 bits (0–63)."),
    "bad_cube": gettext_lazy("The cube shows a power of two, not %(cube)s."),
    "bad_owner": gettext_lazy("Cube owner and turn are player 0 or 1 (no owner = centred)."),
    "bad_resignation": gettext_lazy("A resignation is 0 (none), 1 (single), 2 (gammon) or 3 (backgammon)."),
    "bad_dice": gettext_lazy("Dice are 1 to 6, not %(dice)s."),
    "bad_scores": gettext_lazy("Match length and scores are 0 to 32767."),
    "match_id_owner": gettext_lazy("Match ID %(text)s names cube owner 2; it is 0, 1 or 3 (centred)."),
    "match_id_state": gettext_lazy("Match ID %(text)s names game state %(state)s; states run 0–4."),
    "match_id_dice": gettext_lazy(
        "Match ID %(text)s holds dice %(die1)s and %(die2)s; both 1–6, or both 0 (not rolled)."
    ),
    "bad_cube_action": gettext_lazy("The cube action is D, B or R, and only when no dice are shown."),
    "negative_scores": gettext_lazy("Match length and scores cannot be negative."),
    "options_mismatch": gettext_lazy("Crawford belongs to match play, Jacoby and beaver to money play."),
    "xgid_not_a_number": gettext_lazy("XGID %(text)s: the %(name)s field is %(value)s, not a whole number."),
    "xgid_fields": gettext_lazy("An XGID has 10 fields separated by ':' (position:cube:owner:turn:dice:…)."),
    "xgid_position": gettext_lazy("XGID %(text)s: the position has 26 characters of '-', A–Z and a–z."),
    "xgid_top_bar": gettext_lazy("XGID %(text)s: place 0 is the top player's bar; it cannot hold %(cell)s."),
    "xgid_bottom_bar": gettext_lazy("XGID %(text)s: place 25 is the bottom player's bar; it cannot hold %(cell)s."),
    "xgid_side_overfull": gettext_lazy("XGID %(text)s puts more than %(total)s checkers on one side."),
    "xgid_cube": gettext_lazy("XGID %(text)s: cube fields are powers of two given as 0–15."),
    "xgid_owner_turn": gettext_lazy("XGID %(text)s: the cube owner is 1, 0 or -1 and the turn 1 or -1."),
    "xgid_dice": gettext_lazy("XGID %(text)s: the dice field is two dice 1–6, 00, D, B or R; got %(dice)s."),
    "xgid_rules": gettext_lazy("XGID %(text)s: the rules field is 0–3."),
}


# A heading per verification code, shown on the record page before the record's own detail.
VERIFICATION = {
    "format": gettext_lazy("The file cannot be read as a match record"),
    "illegal_move": gettext_lazy("Illegal move"),
    "incomplete_play": gettext_lazy("Incomplete play: more checkers could move"),
    "larger_die_required": gettext_lazy("The larger die must be played"),
    "backward_not_hit": gettext_lazy("A backward move that hits no lone checker"),
    "backward_smaller_die": gettext_lazy("Only the smaller die may hit backwards"),
    "backward_on_bar": gettext_lazy("A backward hit while a checker is on the bar"),
    "opening_double": gettext_lazy("A double on the opening roll"),
    "double_in_crawford": gettext_lazy("A double in the Crawford game"),
    "double_without_access": gettext_lazy("A double without access to the cube"),
    "double_after_roll": gettext_lazy("A double after rolling"),
    "beaver_not_allowed": gettext_lazy("A beaver where none is allowed"),
    "wrong_cube_value": gettext_lazy("The cube shows the wrong value"),
    "cube_limit": gettext_lazy("The cube passes its limit"),
    "out_of_turn": gettext_lazy("A move out of turn"),
    "no_answer_to_double": gettext_lazy("A double with no answer"),
    "play_after_game_end": gettext_lazy("Play after the game ended"),
    "game_unfinished": gettext_lazy("The game does not end"),
    "wrong_points": gettext_lazy("The game is scored with the wrong points"),
    "score_mismatch": gettext_lazy("The score does not follow from the games before"),
    "play_after_match_end": gettext_lazy("A game after the match was decided"),
    "match_unfinished": gettext_lazy("The match does not end"),
    "player_mismatch": gettext_lazy("The players' names do not match"),
    "player_renamed": gettext_lazy("A player's name is written differently"),
    "starts_mid_match": gettext_lazy("The record starts in the middle of a match"),
}

# Long nardy (backgammon/nardy): the match scoresheet's refusals, and the core's own for a position or a record.
NARDY = {
    "nardy_no_cube": gettext_lazy(
        "Long nardy is played without a cube: a game is worth oin (1) or mars (2), never %(cube)s times that."
    ),
    "nardy_no_such_result": gettext_lazy(
        "A long nardy game ends in oin (1 point) or mars (2 points); there is no gammon, backgammon or dropped double."
    ),
    "nardy_bad_resignation": gettext_lazy("A resignation in long nardy gives up oin (1) or mars (2)."),
    "nardy_final_score": gettext_lazy(
        "In a long nardy match to %(length)s the winner ends with %(length)s or %(most)s points, not %(score)s: the "
        "last game is worth 1 or 2 and started below the length."
    ),
    "format": gettext_lazy("The file cannot be read as a long nardy record."),
    "invalid_board": gettext_lazy("This is not a long nardy position: each side has 15 checkers on 24 points."),
    "invalid_dice": gettext_lazy("Dice show 1 to 6."),
    "illegal_move": gettext_lazy("This is not a long nardy move: write from/to steps such as 24/18 or 6/off."),
    "invalid_settings": gettext_lazy("These long nardy settings are not known."),
    "game_unfinished": gettext_lazy("The game is not over: the winner has not borne off all fifteen checkers."),
    "invalid_match": gettext_lazy("A match needs a length of at least 0 and scores of at least 0."),
    "match_over": gettext_lazy("The match is already decided."),
    "wrong_points": gettext_lazy("A long nardy game is worth 1 (oin) or 2 (mars)."),
}

# Short backgammon with Dave (backgammon/dave): the stake rules, and a scoresheet with Dave stakes.
DAVE = {
    "dave_no_gammon": gettext_lazy(
        "With Dave stakes a game is played out, given up or resigned for its stake: there is no gammon or backgammon."
    ),
    "wrong_stake": gettext_lazy("%(stake)s is not a stake of the %(progression)s progression."),
    "dave_not_yours": gettext_lazy("Your opponent accepted the last Dave: only they may offer the next one."),
    "dave_after_roll": gettext_lazy("A Dave is offered before one's own roll, not after it or in the opponent's turn."),
    "dave_unanswered": gettext_lazy("A Dave awaits its answer: accept it or give up first."),
    "dave_not_offered": gettext_lazy("Nobody offered a Dave to answer."),
    "out_of_turn": gettext_lazy("It is not this player's turn to roll."),
    "game_over": gettext_lazy("The game is already over."),
    "game_unfinished": gettext_lazy("The game is not over yet."),
    "invalid_settings": gettext_lazy("Write the progression as geometric or arithmetic."),
    "invalid_result": gettext_lazy("A game is won by one of two different players for at least one stake unit."),
    "format": gettext_lazy("The file cannot be read as a record of short backgammon with Dave."),
}
