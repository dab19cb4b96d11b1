"""The .mat reader on every corpus dialect, the writer's round trip, and the reader's only exception."""

import contextlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backgammon.matchfiles.mat import ActionKind, RecordFormatError, decode_text, parse_mat, write_mat
from backgammon.matchfiles.notation import decode_move
from tests.paths import CORPUS

CORPUS_FILES = sorted(CORPUS.glob("*/*.mat"))
DIALECT_FILES = sorted(CORPUS.glob("dialects/*.mat"))
FLAWED = CORPUS / "flawed" / "resign_cube2_wrong_points.mat"


def corpus_file(part: str) -> Path:
    return next(path for path in CORPUS_FILES if part in path.name)


def test_corpus_is_present():
    assert len(CORPUS_FILES) >= 100


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: p.name[:40])
def test_every_corpus_file_reads_and_round_trips(path):
    record = parse_mat(path.read_bytes())
    assert record.games and record.players[0] and record.players[1]
    assert parse_mat(write_mat(record)) == record


def test_gnubg_dialect_keeps_lines_numbers_and_sides():
    record = parse_mat(corpus_file("standard_0001_3p").read_bytes())
    assert record.length == 3 and record.players == ("gnubg", "root")
    first = record.games[0].actions[0]
    # ` 1)                             63: 24/18 18/15`: an empty left cell means the second player opened.
    assert (first.player, first.dice, first.move, first.move_number, first.line) == (1, (6, 3), "24/18 18/15", 1, 7)
    win = record.games[0].actions[-1]
    assert (win.kind, win.player, win.value, win.move_number) == (ActionKind.WIN, 1, 2, 22)
    # `10) 43:` with nothing after the dice: a dance.
    dance = next(a for a in record.games[0].actions if a.move_number == 10 and a.player == 0)
    assert dance.dice == (4, 3) and dance.move == ""


def test_xg_dialect_cube_actions_and_headers():
    # eXtreme Gammon layout: `; [Key "Value"]` headers, a UTF-8 BOM, `Drops` and the `Wins` line on one row.
    data = corpus_file("xg_0013_5p").read_bytes()
    assert data.startswith(b"\xef\xbb\xbf; [Site")
    record = parse_mat(data)
    assert record.length == 5 and record.players == ("Anna Lindqvist", "Tomás Ruiz")
    assert record.header("Crawford") == "On" and record.cube_limit == 1024 and record.variant == "standard"
    assert record.header("Player 2 Elo") == "1588.05/97"
    kinds = [(a.kind, a.player, a.move_number) for a in record.games[3].actions[-3:]]
    assert kinds == [(ActionKind.DOUBLE, 1, 2), (ActionKind.DROP, 0, 3), (ActionKind.WIN, 1, 3)]
    cannot = next(a for a in record.games[1].actions if a.move_number == 10 and a.player == 0)
    assert (cannot.dice, cannot.move) == ((6, 5), "Cannot Move")
    last = record.games[-1].actions[-1]
    assert (last.kind, last.match_won, last.text) == (ActionKind.WIN, True, "Wins 1 point and the match")


def test_flawed_file_keeps_move_number_of_unnumbered_wins_line():
    # gnubg writes the result under the winner's column on a line of its own, without a move number.
    record = parse_mat(FLAWED.read_bytes())
    last_roll, win = record.games[2].actions[-2:]
    assert (last_roll.player, last_roll.dice, last_roll.move_number) == (1, (1, 1), 30)
    assert (win.kind, win.player, win.value, win.move_number, win.numbered) == (ActionKind.WIN, 1, 5, 30, False)
    assert win.line == 92


# What each dialect sample must show, as its program writes it (tools/corpus/dialects.py writes them).
DIALECT_FEATURES = {
    "bgstudio": [
        b"bar/",
        b"/off",
        b"(2)",
        b"Cannot Move",
        b"????",
        b"00: ????",
        b" point\n",
        b"and the match\n",
        b'; [Site "Backgammon',
    ],
    "xg": [
        b"\xef\xbb\xbf",
        b"Bar/",
        b"/Off",
        b"(2)",
        b"*/",
        b"Cannot Move",
        b"Concedes",
        b"  Drops",
        b"and the match ",
    ],
    "galaxy": [b" 25/", b"/0", b"\n     Wins", "sørensen".encode(), b'; [Site "BackgammonGalaxy"]'],
    "fibs": [b"\r\n", "Jürgen".encode("iso-8859-1"), b"bar/", b"/off", b" 24: ", b"*/"],
}


@pytest.mark.parametrize("dialect", sorted(DIALECT_FEATURES))
def test_dialect_samples_show_their_layout_and_read(dialect):
    files = [path for path in DIALECT_FILES if path.name.startswith(dialect + "_")]
    assert len(files) >= 3
    data = b"".join(path.read_bytes() for path in files)
    missing = [feature for feature in DIALECT_FEATURES[dialect] if feature not in data]
    assert not missing
    for path in files:
        record = parse_mat(path.read_bytes())
        assert record.players[0] in decode_text(path.read_bytes())


def test_fibs_log_is_iso_8859_1_with_crlf_and_dice_as_they_fell():
    data = corpus_file("fibs_0003_7p").read_bytes()
    assert b"\r\n" in data and "Jürgen".encode("iso-8859-1") in data
    record = parse_mat(data)
    assert record.players == ("Jürgen", "marvin") and record.headers == ()
    dice = [a.dice for game in record.games for a in game.actions if a.dice]
    assert any(d[0] < d[1] for d in dice) and any(d[0] > d[1] for d in dice)


def test_renamed_player_keeps_the_game_names_and_round_trips():
    record = parse_mat(corpus_file("player_renamed").read_bytes())
    assert record.players == ("gnubg", "root")
    assert record.games[0].names is None and record.games[1].names == ("GNU Bg", "root")
    assert parse_mat(write_mat(record)) == record


def test_nackgammon_variation_header():
    assert parse_mat(corpus_file("nackgammon_0101").read_bytes()).variant == "nackgammon"


def test_encodings_and_line_ends_give_the_same_record():
    text = corpus_file("standard_0001_3p").read_text()
    plain = parse_mat(text.encode("ascii"))
    assert parse_mat(("\ufeff" + text).encode("utf-8")) == plain
    assert parse_mat(text.replace("\n", "\r\n").encode("latin-1")) == plain


def test_iso_8859_1_names_are_read():
    text = corpus_file("standard_0001_3p").read_text().replace("gnubg", "Kümin")
    assert parse_mat(text.encode("iso-8859-1")).players[0] == "Kümin"


def test_roll_then_concede_and_bare_resign_mark():
    text = " 1 point match\n\n Game 1\n A : 0      B : 0\n  1) 31: 8/5 6/5                   62: Concedes\n"
    text += "  2)  Wins 1 point and the match\n"
    game = parse_mat(text).games[0]
    assert (game.actions[1].player, game.actions[1].dice, game.actions[1].move) == (1, (6, 2), "Concedes")


@pytest.mark.parametrize(
    "text, expected",
    [
        ("24/18 13/11", ((24, 18), (13, 11))),
        ("bar/22* 6/off", ((25, 22), (6, 0))),
        ("Bar/24 6/Off", ((25, 24), (6, 0))),
        ("25/22 3/0", ((25, 22), (3, 0))),
        ("8/3(2)", ((8, 3), (8, 3))),
        ("13/7*/1", ((13, 7), (7, 1))),
        ("24/16*", ((24, 16),)),
        ("", ()),
    ],
)
def test_move_notation_dialects(text, expected):
    assert decode_move(text).steps == expected


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("5 point match\n Game 1\n A : 0  B : 0\n  1) 31: 8/x\n", 4, "not a checker move"),
        ("hello\n", 1, "point match"),
        ("5 point match\n Game 1\n  1) 31: 8/5 6/5\n", 3, "score line"),
        ("5 point match\n Game 1\n A : 0  B : 0\n  1) 71: 8/5\n", 4, "dice"),
        ("5 point match\n Game 1\n A : 0  B : 0\n  1) 31: 8/5 6/5 Doubles => 3\n", 4, "cube"),
        ("5 point match\n", 1, "no game"),
    ],
)
def test_format_errors_name_the_line(text, line, words):
    with pytest.raises(RecordFormatError) as caught:
        parse_mat(text)
    assert caught.value.line == line and words in caught.value.message.lower()


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_raise_only_the_record_format_error(data):
    with contextlib.suppress(RecordFormatError):
        parse_mat(data)


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=2000), st.text(alphabet=" 0123456789:/*()?=>abDorWinsTakes\n", max_size=30))
def test_corrupted_corpus_text_raises_only_the_record_format_error(position, junk):
    text = corpus_file("standard_0001_3p").read_text()
    with contextlib.suppress(RecordFormatError):
        parse_mat(text[:position] + junk + text[position:])
