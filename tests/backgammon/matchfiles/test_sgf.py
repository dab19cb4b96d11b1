"""gnubg SGF import and export: corpus matches survive .mat → SGF → record, and bad SGF raises our error only."""

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backgammon.matchfiles.mat import ActionKind, RecordFormatError, parse_mat
from backgammon.matchfiles.notation import decode_move
from backgammon.matchfiles.sgf import parse_sgf, write_sgf
from tests.paths import CORPUS

CORPUS_FILES = sorted(CORPUS.glob("*/*.mat"))
RESIGN_MARKS = ("????", "Concedes")


def played(game):
    """What SGF keeps of a game: who rolled what and moved where, the cube actions and the written result."""
    kept = []
    for action in game.actions:
        if action.kind == ActionKind.CONCEDE or action.move in RESIGN_MARKS:
            continue
        if action.kind == ActionKind.ROLL:
            kept.append(
                (action.player, action.dice, len(decode_move(action.move.replace("Cannot Move", "")).steps) > 0)
            )
        else:
            kept.append((action.player, action.kind, action.value if action.kind == ActionKind.WIN else None))
    return kept


@pytest.mark.parametrize("path", CORPUS_FILES[::5], ids=lambda p: p.name[:40])
def test_corpus_match_survives_sgf_export_and_import(path):
    record = parse_mat(path.read_bytes())
    again = parse_sgf(write_sgf(record))
    assert (again.length, again.players) == (record.length, record.players)
    assert [game.scores for game in again.games] == [game.scores for game in record.games]
    assert [played(game) for game in again.games] == [played(game) for game in record.games]
    assert parse_sgf(write_sgf(again)) == again


def test_gnubg_letters_are_read_from_each_side():
    # Letters name points from Black's side (a = Black's 1-point = White's 24-point), y the bar, z off.
    sgf = "(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[Anna]PB[Bernd]RU[Crawford]RE[B+1R]\n;W[31qtst]\n;B[42xtmk])"
    record = parse_sgf(sgf)
    assert record.players == ("Anna", "Bernd") and record.length == 3
    first, second, win = record.games[0].actions
    assert decode_move(first.move).steps == ((8, 5), (6, 5))
    assert decode_move(second.move).steps == ((24, 20), (13, 11))
    assert (win.player, win.value, win.kind) == (1, 1, ActionKind.WIN)
    assert "RE[B+1]" in write_sgf(record) and ";W[31qtst]" in write_sgf(record)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "(;GM[1])",
        "(;GM[6]MI[length:x])",
        "(;GM[6]\n;W[79abcd])",
        "(;GM[6]RE[W+0])",
        "(;GM[6]\n;W[31{}])",
        "(;GM[6]",
    ],
)
def test_bad_sgf_names_the_problem(text):
    with pytest.raises(RecordFormatError):
        parse_sgf(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="();[]\\GMWBREMI6:+0123456789abcdxyzlength", max_size=80))
def test_any_text_raises_only_the_record_format_error(text):
    with contextlib.suppress(RecordFormatError):
        parse_sgf(text)


@pytest.mark.parametrize("path", CORPUS_FILES[1::9], ids=lambda p: p.name[:40])
def test_exported_sgf_gets_the_same_verdict_as_the_mat(path):
    from backgammon.verification import verify

    record = parse_mat(path.read_bytes())
    by_mat, by_sgf = verify(record), verify(parse_sgf(write_sgf(record)))
    assert by_sgf.valid == by_mat.valid
    assert by_sgf.final_score == by_mat.final_score and by_sgf.winner == by_mat.winner
