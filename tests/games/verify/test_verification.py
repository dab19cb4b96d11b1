"""The verifier on the whole corpus, and on mutations of corpus files, each rejected with the right code, game,
move and line. Each test says why its mutation is illegal."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backgammon.matchfiles.mat import parse_mat
from backgammon.verification import check_record, verify
from tests.paths import CORPUS

LEGAL_FILES = sorted(CORPUS.glob("gnubg/*.mat")) + sorted(CORPUS.glob("dialects/*.mat"))
UNTIDY_FILES = sorted(CORPUS.glob("untidy/*.mat"))
FLAWED = CORPUS / "flawed" / "resign_cube2_wrong_points.mat"
# A 3-point match, gnubg (left) against root: gnubg resigns a gammon in game 1 (0–2); game 2 is the Crawford
# game, root resigns a single (1–2); in game 3 gnubg doubles at move 2, root takes, gnubg resigns (1–4).
BASE = CORPUS / "gnubg" / "standard_0001_3p.mat"
# A 7-point match whose game 2 ends in a drop (line 44) and game 3 in a single with the cube at 4 (line 76).
SEVEN = CORPUS / "gnubg" / "standard_0003_7p.mat"


def lines_of(path: Path = BASE) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")


def with_lines(lines: list[str]) -> bytes:
    return "\n".join(lines).encode()


def replaced(line_number: int, old: str, new: str, path: Path = BASE) -> bytes:
    lines = lines_of(path)
    assert old in lines[line_number - 1], lines[line_number - 1]
    lines[line_number - 1] = lines[line_number - 1].replace(old, new, 1)
    return with_lines(lines)


def inserted(before_line: int, text: str, path: Path = BASE) -> bytes:
    lines = lines_of(path)
    lines.insert(before_line - 1, text)
    return with_lines(lines)


def only_error(data: bytes):
    status, verdict = check_record(data)
    assert status == "invalid", verdict.errors
    return verdict.errors[0], verdict


def test_corpus_holds_the_legal_records_the_tests_rely_on():
    assert len(LEGAL_FILES) >= 100 and len(UNTIDY_FILES) == 2


@pytest.mark.parametrize("path", LEGAL_FILES, ids=lambda p: p.name[:40])
def test_every_legal_corpus_file_verifies_valid(path):
    status, verdict = check_record(path.read_bytes())
    assert (status, verdict.errors, verdict.warnings) == ("valid", [], [])
    assert verdict.winner in verdict.players or verdict.match_length == 0


def test_dialect_sample_gets_the_verdict_of_its_gnubg_source():
    # The eXtreme Gammon layout of gnubg's match 4 (combined moves, `Bar/`, `Off`, `(2)`, `Concedes`): same games.
    _, source = check_record((CORPUS / "gnubg" / "standard_0004_9p.mat").read_bytes())
    _, sample = check_record((CORPUS / "dialects" / "xg_0004_9p.mat").read_bytes())
    assert sample.players == ["Anna Lindqvist", "Tomás Ruiz"] and sample.final_score == source.final_score
    assert [(g.points, g.kind, g.cube, g.crawford) for g in sample.games] == [
        (g.points, g.kind, g.cube, g.crawford) for g in source.games
    ]


def test_base_match_verdict():
    verdict = verify(parse_mat(BASE.read_bytes()))
    assert verdict.valid and verdict.final_score == [1, 4] and verdict.winner == "root"
    games = [(g.winner, g.points, g.kind, g.cube, g.crawford) for g in verdict.games]
    assert games == [("root", 2, "resign", 1, False), ("gnubg", 1, "resign", 1, True), ("root", 2, "resign", 2, False)]
    as_json = verdict.as_dict(file="x.mat")
    keys = {"file", "valid", "match_length", "players", "final_score", "winner", "games", "errors", "warnings"}
    assert set(as_json) == keys and as_json["warnings"] == []
    assert set(as_json["games"][0]) == {"number", "winner", "points", "kind", "cube", "crawford"}


def test_flawed_corpus_file_is_wrong_points_at_game_3_move_30():
    error, verdict = only_error(FLAWED.read_bytes())
    # gnubg doubled to 2 in game 3 and later resigned; the record credits root with 5 points, but a
    # resignation with the cube at 2 is worth 2, 4 or 6.
    assert (error.code, error.game, error.move, error.player) == ("wrong_points", 3, 30, "root")
    assert error.line == 92 and "win 5 points" in error.message and "cube at 2 wins 2, 4 or 6" in error.message
    assert len(verdict.errors) == 1


def test_flawed_corpus_file_with_an_illegal_move():
    # gnubg rolled 65 and wrote 6/1 7/2: two steps of 5 pips, but the dice are a 6 and a 5.
    error, verdict = only_error((CORPUS / "flawed" / "illegal_move.mat").read_bytes())
    where = (error.game, error.move, error.line, error.player, error.text)
    assert (error.code, where) == ("illegal_move", (2, 5, 30, "gnubg", "65: 6/1 7/2"))
    assert len(verdict.errors) == 1


def test_flawed_corpus_file_with_a_wrong_header_score():
    # Games 1–9 end at 8–12, but game 10's header says 9–12: a score that does not follow stays an error.
    error, verdict = only_error((CORPUS / "flawed" / "wrong_header_score.mat").read_bytes())
    assert (error.code, error.game, error.line, error.text) == ("score_mismatch", 10, 251, "gnubg : 9   root : 12")
    assert len(verdict.errors) == 1 and verdict.warnings == []


def test_renamed_player_is_a_warning_and_the_record_stays_valid():
    # Game 2 on writes "GNU Bg" in gnubg's column: the same column, so the same player, written differently.
    status, verdict = check_record((CORPUS / "untidy" / "player_renamed.mat").read_bytes())
    assert (status, verdict.valid, verdict.errors) == ("valid", True, [])
    [warning] = verdict.warnings
    assert (warning.code, warning.game, warning.line, warning.player, warning.text) == (
        "player_renamed",
        2,
        34,
        "gnubg",
        "GNU Bg",
    )
    assert verdict.players == ["gnubg", "root"] and verdict.winner == "root"


def test_record_starting_mid_match_is_a_warning_and_the_record_stays_valid():
    # The transcript starts at 3–4 in a 15-point match: the earlier games were not written down.
    status, verdict = check_record((CORPUS / "untidy" / "starts_mid_match.mat").read_bytes())
    assert (status, verdict.errors) == ("valid", [])
    [warning] = verdict.warnings
    assert (warning.code, warning.game, warning.line) == ("starts_mid_match", 1, 6)
    assert "3–4" in warning.message
    assert verdict.final_score == [14, 16] and verdict.winner == "root"
    assert verdict.as_dict()["warnings"][0]["code"] == "starts_mid_match"


def test_mid_match_start_at_match_point_with_a_double_means_crawford_was_played():
    # The base match's game 3 alone, written as game 1 at 0–2 in a 3-point match, with gnubg's double in it:
    # the Crawford game must lie before the transcript (it has no cube), so the double is legal.
    lines = lines_of()
    game3 = lines.index(" Game 3")
    text = [*lines[:4], " Game 1", " gnubg : 0                      root : 2", *lines[game3 + 2 :]]
    status, verdict = check_record(with_lines(text))
    assert status == "valid", verdict.errors
    assert verdict.final_score == [0, 4] and verdict.winner == "root"
    assert [w.code for w in verdict.warnings] == ["starts_mid_match"] and verdict.games[0].crawford is False


def test_a_name_written_back_as_before_is_a_second_rename():
    # Game 2 writes "GNU Bg", game 3 "gnubg" again: two changes of the same column, each a warning.
    status, verdict = check_record(replaced(32, "gnubg : 0", "GNU Bg : 0"))
    assert status == "valid"
    assert [(w.code, w.game, w.player, w.text) for w in verdict.warnings] == [
        ("player_renamed", 2, "gnubg", "GNU Bg"),
        ("player_renamed", 3, "GNU Bg", "gnubg"),
    ]


def test_name_in_neither_column_is_an_error():
    # Game 2 names two players the games before it never had: another match's header, not a rename.
    error, verdict = only_error(replaced(32, "gnubg : 0                      root : 2", "Alice : 0    Bob : 2"))
    assert (error.code, error.game, error.line) == ("player_mismatch", 2, 32)
    assert verdict.warnings == []


def test_names_moved_to_the_other_column_are_an_error():
    # Game 2 writes root in the left column: a name never moves from one column to the other.
    error, _ = only_error(replaced(32, "gnubg : 0                      root : 2", "root : 0    gnubg : 2"))
    assert (error.code, error.game, error.line) == ("player_mismatch", 2, 32)


def test_a_rename_warns_once_and_a_score_that_does_not_follow_stays_an_error():
    # "GNU Bg" from game 2 on is one rename; game 3's header 2–2 does not follow from 1–2 and stays an error.
    lines = lines_of()
    lines[31] = lines[31].replace("gnubg : 0", "GNU Bg : 0")
    assert lines[60].startswith(" gnubg : 1")
    lines[60] = lines[60].replace("gnubg : 1", "GNU Bg : 2")
    status, verdict = check_record(with_lines(lines))
    assert status == "invalid"
    assert [(w.code, w.game) for w in verdict.warnings] == [("player_renamed", 2)]
    assert [(e.code, e.game) for e in verdict.errors] == [("score_mismatch", 3)]


def test_format_error_names_the_line():
    # `24/2x` is no point: the file cannot be read as a record at all.
    status, verdict = check_record(replaced(9, "24/22", "24/2x"))
    assert status == "unreadable"
    assert [(e.code, e.line) for e in verdict.errors] == [("format", 9)]


def test_illegal_move():
    # gnubg rolled 65 but moved 6 and 4 pips.
    error, _ = only_error(replaced(8, "65: 24/18 18/13", "65: 24/18 18/14"))
    assert (error.code, error.game, error.move, error.line, error.player) == ("illegal_move", 1, 2, 8, "gnubg")
    assert error.text == "65: 24/18 18/14"
    assert error.message.startswith("Game 1, move 2, gnubg rolled 65 and wrote 24/18 18/14:")


def test_incomplete_play():
    # gnubg played only the 6 of its 65 although the 5 could be played too.
    error, _ = only_error(replaced(8, "65: 24/18 18/13", "65: 24/18      "))
    assert (error.code, error.game, error.move, error.line) == ("incomplete_play", 1, 2, 8)


def test_opening_double():
    # The opening roll is one die each, so it can never be a double.
    error, _ = only_error(replaced(7, "63: 24/18 18/15", "66: 24/18 18/12"))
    assert (error.code, error.game, error.move, error.line, error.player) == ("opening_double", 1, 1, 7, "root")


def test_double_in_crawford():
    # Game 2 starts at 0–2 in a 3-point match: the Crawford game, where nobody may double.
    error, _ = only_error(inserted(34, "  2)  Doubles => 2                Takes"))
    assert (error.code, error.game, error.move, error.line, error.player) == ("double_in_crawford", 2, 2, 34, "gnubg")


def test_double_without_access():
    # In game 3 root took gnubg's double and owns the cube: gnubg may not redouble.
    error, _ = only_error(inserted(66, "  4)  Doubles => 4                Takes"))
    assert (error.code, error.game, error.move, error.line) == ("double_without_access", 3, 4, 66)


def test_double_after_roll():
    # gnubg rolls 33 first and doubles afterwards: a double comes before the roll.
    lines = lines_of()
    assert "Doubles => 2" in lines[62] and "33: 8/5 8/5 6/3 6/3" in lines[63]
    lines[62:64] = [
        "  2) 33: 8/5 8/5 6/3 6/3",
        "  3)  Doubles => 2                Takes",
        "  3)                             52: 13/11 14/9",
    ]
    error, _ = only_error(with_lines(lines))
    assert (error.code, error.game, error.move, error.line) == ("double_after_roll", 3, 3, 64)


def test_beaver_not_allowed_in_match_play():
    # Beavers belong to money play; in a match the taker cannot beaver.
    error, _ = only_error(replaced(63, "Takes", "Beavers => 4"))
    assert (error.code, error.game, error.move, error.line, error.player) == ("beaver_not_allowed", 3, 2, 63, "root")


def test_wrong_points_for_a_single():
    # gnubg bore off its last checker while root had borne off some: a single, 4 points with the cube at 4, not 8.
    error, _ = only_error(replaced(76, "Wins 4 points", "Wins 8 points", SEVEN))
    assert (error.code, error.game, error.move, error.line, error.player) == ("wrong_points", 3, 28, 76, "gnubg")
    assert "single with the cube at 4 wins 4" in error.message


def test_wrong_points_for_a_drop():
    # A dropped double pays the cube value before the double: 1, not 2.
    error, _ = only_error(replaced(44, "Wins 1 point", "Wins 2 points", SEVEN))
    assert (error.code, error.game, error.move, error.line) == ("wrong_points", 2, 11, 44)


def test_wrong_points_for_a_resignation():
    # With the cube at 1 a resignation gives up 1, 2 or 3 points, never 4.
    error, _ = only_error(replaced(29, "Wins 2 points", "Wins 4 points"))
    assert (error.code, error.game, error.move, error.line, error.player) == ("wrong_points", 1, 22, 29, "root")


def test_score_mismatch():
    # Game 1 ended 0–2, so game 2 cannot start at 0–1.
    error, _ = only_error(replaced(32, "root : 2", "root : 1"))
    assert (error.code, error.game, error.move, error.line) == ("score_mismatch", 2, None, 32)


def test_play_after_match_end():
    # The match ended 1–4 after game 3; a fourth game cannot count.
    lines = lines_of()
    lines += [" Game 4", " gnubg : 1                      root : 4", *lines_of()[6:29]]
    error, _ = only_error(with_lines(lines))
    assert (error.code, error.game, error.line) == ("play_after_match_end", 4, len(lines_of()) + 1)


def test_match_unfinished():
    # Without game 3 the record stops at 1–2: nobody reached 3 points.
    error, verdict = only_error(with_lines(lines_of()[:59]))
    assert (error.code, error.game) == ("match_unfinished", 2)
    assert verdict.final_score == [1, 2] and verdict.winner is None


def test_fibs_resignation_shape_is_valid():
    # Root rolls 51, writes no move and gnubg wins at once: root resigned after rolling (FIBS-era logs).
    lines = lines_of()
    assert "51: 12/11 11/6" in lines[55] and "25) 61: 2/0 1/0" in lines[56]
    lines[55] = lines[55].replace("51: 12/11 11/6", "51:")
    del lines[56]
    status, verdict = check_record(with_lines(lines))
    assert status == "valid", verdict.errors
    assert (verdict.games[1].winner, verdict.games[1].kind, verdict.games[1].points) == ("gnubg", "resign", 1)


def test_roll_without_move_is_incomplete_when_play_goes_on():
    # Root rolled 51 and wrote nothing although it could move, and the game goes on: not a resignation.
    error, _ = only_error(replaced(56, "51: 12/11 11/6", "51:"))
    assert (error.code, error.game, error.move) == ("incomplete_play", 2, 24)


def test_after_an_error_the_next_game_is_still_checked():
    # Two independent mistakes, in games 1 and 3: both are reported.
    lines = lines_of()
    lines[7] = lines[7].replace("65: 24/18 18/13", "65: 24/18 18/14")
    lines[62] = lines[62].replace("Takes", "Beavers => 4")
    _, verdict = only_error(with_lines(lines))
    assert [(e.code, e.game) for e in verdict.errors] == [("illegal_move", 1), ("beaver_not_allowed", 3)]


def money(headers: str = "") -> list[str]:
    lines = lines_of()
    assert lines[2] == " 3 point match"
    lines[2] = " 0 point match"
    return ([headers] if headers else []) + lines


def test_money_session_is_valid_without_a_winner():
    status, verdict = check_record(with_lines(money()))
    assert status == "valid" and verdict.match_length == 0 and verdict.winner is None
    assert verdict.final_score == [1, 4]


def test_jacoby_money_session_counts_an_unturned_gammon_as_single():
    # With Jacoby and the cube never turned, root's 2-point (gammon) win in game 1 is worth 1.
    error, _ = only_error(with_lines(money('; [Jacoby "On"]')))
    assert (error.code, error.game) == ("wrong_points", 1)


def test_beaver_is_allowed_in_a_money_session_that_enables_it():
    # Root beavers gnubg's double in game 3: the cube goes to 4, so gnubg's later resignation cannot be worth 2.
    lines = money('; [Beaver "On"]')
    lines[63] = lines[63].replace("Takes", "Beavers => 4")
    error, _ = only_error(with_lines(lines))
    assert (error.code, error.game) == ("wrong_points", 3)
    assert "cube at 4" in error.message


def test_raccoon_after_a_beaver_turns_the_cube_to_eight_and_only_to_eight():
    # Root beavers gnubg's double (4), gnubg raccoons (8): the resignation later in game 3 is judged at 8.
    lines = money('; [Beaver "On"]')
    lines[63] = lines[63].replace("Takes", "Beavers => 4")
    error, _ = only_error(with_lines([*lines[:64], "  3)  Raccoons => 8", *lines[64:]]))
    assert (error.code, error.game) == ("wrong_points", 3) and "cube at 8" in error.message
    error, _ = only_error(with_lines([*lines[:64], "  3)  Raccoons => 16", *lines[64:]]))
    assert (error.code, error.game, error.line) == ("wrong_cube_value", 3, 65)


def test_a_cube_limit_between_cube_values_allows_the_values_below_it():
    # CubeLimit 3: the double to 2 in game 3 stands; a beaver to 4 would pass the limit.
    assert check_record(with_lines(['; [CubeLimit "3"]', *lines_of()]))[0] == "valid"
    lines = ['; [CubeLimit "3"]', *money('; [Beaver "On"]')]
    lines[64] = lines[64].replace("Takes", "Beavers => 4")
    error, _ = only_error(with_lines(lines))
    assert (error.code, error.game, error.line) == ("cube_limit", 3, 65) and "limit of 3" in error.message


def test_larger_die_required():
    # Root's roll in game 10 becomes 43 (it was 62): from this position only one of the dice can be played, so it
    # must be the 4 (e.g. 5/1), and root wrote 5/2, playing the 3.
    path = CORPUS / "gnubg" / "standard_0020_21p.mat"
    error, _ = only_error(replaced(265, "62: 5/3", "43: 5/2", path))
    where = (error.game, error.move, error.line, error.player)
    assert (error.code, where) == ("larger_die_required", (10, 13, 265, "root"))
    assert "larger one (4)" in error.message


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=3900), st.integers(min_value=0, max_value=40), st.text(max_size=12))
def test_any_edit_of_a_record_gets_a_verdict_never_a_crash(position, cut, insert):
    text = BASE.read_text()
    status, verdict = check_record((text[:position] + insert + text[position + cut :]).encode())
    assert status in ("valid", "invalid", "unreadable")
    assert status != "valid" or not verdict.errors


def test_cube_limit():
    # The record limits the cube to 1, so gnubg's double to 2 in game 3 is not allowed.
    error, _ = only_error(with_lines(['; [CubeLimit "1"]', *lines_of()]))
    assert (error.code, error.game, error.line) == ("cube_limit", 3, 64)


def test_wrong_cube_value():
    # A centred cube at 1 is turned to 2, not 4.
    error, _ = only_error(replaced(63, "Doubles => 2", "Doubles => 4"))
    assert (error.code, error.game, error.move, error.line) == ("wrong_cube_value", 3, 2, 63)


def test_out_of_turn():
    # Root's roll at move 3 is deleted: gnubg then rolls twice in a row.
    error, _ = only_error(replaced(9, "21: 8/7 13/11", ""))
    assert (error.code, error.game, error.move, error.line, error.player) == ("out_of_turn", 1, 4, 10, "gnubg")


def test_no_answer_to_double():
    # gnubg's double in game 3 is neither taken nor dropped before play goes on.
    error, _ = only_error(replaced(63, "Takes", ""))
    assert (error.code, error.game, error.line) == ("no_answer_to_double", 3, 64)


def test_play_after_game_end():
    # After root has won game 1 nobody may roll in it.
    error, _ = only_error(inserted(30, " 23) 31: 8/5 6/5"))
    assert (error.code, error.game, error.move, error.line) == ("play_after_game_end", 1, 23, 30)


def test_game_unfinished():
    # Game 1 loses its result line: it has no winner, yet game 2 follows.
    lines = lines_of()
    assert "Wins 2 points" in lines[28]
    del lines[28]
    error, _ = only_error(with_lines(lines))
    assert (error.code, error.game, error.line) == ("game_unfinished", 1, 5)
