"""The Dave record: write → read gives the same record, the documented example reads and verifies, and texts
that are no Dave record are refused with the line that is wrong."""

import re
from pathlib import Path

import pytest

from backgammon.dave.random_play import random_session
from backgammon.dave.record import Kind, parse_dave, write_dave
from backgammon.dave.scoring import net_units, results_of
from backgammon.dave.stake import Progression
from backgammon.dave.verification import check_dave_record

DOCS = Path(__file__).resolve().parents[3] / "docs" / "variants.md"


@pytest.mark.parametrize("progression", list(Progression))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_write_then_read_gives_the_same_record(seed, progression):
    record = random_session(seed=seed, games=3, players=("Anna Lee", "Boris"), progression=progression)
    text = write_dave(record)
    assert parse_dave(text) == record
    assert parse_dave(text.replace("\n", "\r\n").encode("utf-8-sig")) == record
    assert f'; [Progression "{progression}"]' in text


def test_the_example_in_the_docs_is_what_random_play_writes_and_it_verifies():
    section = DOCS.read_text().split("## Short backgammon with Dave", 1)[1]
    example = re.search(r"```\n(; \[Variation.*?)```", section, re.DOTALL)
    assert example, "docs/variants.md shows a whole Dave record"
    assert example.group(1) == write_dave(random_session(seed=387, games=2, players=("Anna", "Boris")))
    status, verdict = check_dave_record(example.group(1))
    assert status == "valid", verdict.errors
    assert verdict.final_score == [2, 4] and verdict.winner is None  # a money session has no winner
    assert [(game.points, game.kind) for game in verdict.games] == [(4, "won"), (2, "gave_up")]
    assert net_units(results_of(verdict)) == {"Boris": 2, "Anna": -2}  # what the text under the example says


def test_the_code_example_in_the_docs_runs_and_pays_what_it_says():
    section = DOCS.read_text().split("## Short backgammon with Dave", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert code, "docs/variants.md shows the state machine in code"
    namespace: dict = {}
    exec(code.group(1), namespace)  # the repository's own documentation, nothing from outside
    assert namespace["paid"] == 2 and namespace["state"].holder == 0


def test_a_hand_written_record_with_other_spacing_reads():
    text = """; [Variation "Short Backgammon  with Dave"]
; [Progression "Arithmetic"]
; [Event "Club night"]
 0 point match
 Game 1
 Anna : 0     Boris : 0
  1) 31: 8/5 6/5   DAVE=>2
  2)  accepts      64: 24/18 13/9
  3) Dave => 3     gives  up
  4) Wins 2 points
 Game 2
 Anna : 2     Boris : 0
  1)              42: 8/4 6/4
  2) 65: 24/13    Wins 1 point
"""
    record = parse_dave(text)
    assert record.progression is Progression.ARITHMETIC
    assert record.extra_headers == (("Event", "Club night"),)
    kinds = [action.kind for action in record.games[0].actions]
    assert kinds == [Kind.ROLL, Kind.DAVE, Kind.ACCEPT, Kind.ROLL, Kind.DAVE, Kind.GIVE_UP, Kind.WIN]
    assert [action.player for action in record.games[0].actions] == [0, 1, 0, 1, 0, 1, 0]
    assert [action.player for action in record.games[1].actions] == [1, 0, 1]  # Boris opens from the right
    status, verdict = check_dave_record(text)
    assert status == "valid", verdict.errors
    assert verdict.final_score == [2, 1]
    assert [game.kind for game in verdict.games] == ["gave_up", "resigned"]


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ('; [Variation "Standard"]\n0 point match\n Game 1\n A : 0  B : 0\n', 0, "Variation"),
        ('; [Variation "Short Backgammon with Dave"]\n; [Progression "fibonacci"]\n0 point match\n Game 1\n'
         " A : 0  B : 0\n", 0, "fibonacci"),
        ('; [Variation "Short Backgammon with Dave"]\n0 point match\n Game 1\n A : 0  B : 0\n'
         "  1) 31: 8/5 6/5   Doubles => 2\n", 5, "Doubles"),  # there is no cube in this form
        ('; [Variation "Short Backgammon with Dave"]\nGame 1\n', 2, "point match"),
        ('; [Variation "Short Backgammon with Dave"]\n0 point match\n Game 1\n A : 0  B : 0\n'
         "  1) 31: 8/5 6/5   Dave => 1234567890123456789\n", 5, "'Dave => n'"),  # 19 digits: no stake
        ('; [Variation "Short Backgammon with Dave"]\n0 point match\n' + " Game 1\n A : 0  B : 0\n" * 501, 1003,
         "at most 500 games"),
        ('; [Variation "Short Backgammon with Dave"]\n0 point match\n Game 1\n', 3, "whole game"),
        ('; [Variation "Short Backgammon with Dave"]\n0 point match\n Game 1\n A : 0  B : 0\n Game 2\n'
         " A : 0  C : 1\n", 6, "between"),
    ],
)
def test_what_is_no_dave_record_is_refused_at_its_line(text, line, words):
    status, verdict = check_dave_record(text)
    assert status == "unreadable" and len(verdict.errors) == 1
    error = verdict.errors[0]
    assert (error.code, error.line) == ("format", line) and words in error.message
