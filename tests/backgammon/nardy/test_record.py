"""The long nardy record: written and read back unchanged, and text that is no nardy record refused by line."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backgammon.nardy.errors import NardyRecordError
from backgammon.nardy.random_play import random_match
from backgammon.nardy.record import NardyAction, NardyGame, NardyRecord, parse_nardy, write_nardy
from backgammon.nardy.settings import ANY_HEAD_DOUBLES, BlockRule, NardySettings
from backgammon.nardy.verification import check_nardy_record
from tests.paths import REPO

HEADER = '; [Variation "Long Nardy"]\n'


def test_the_documented_example_is_a_valid_record_the_writer_produces():
    text = (REPO / "docs" / "variants.md").read_text()
    example = re.search(r"```\n(; \[Variation \"Long Nardy\"\].*?)```", text, re.DOTALL)
    assert example is not None
    status, verdict = check_nardy_record(example.group(1))
    assert status == "valid", verdict.errors
    assert verdict.winner == "Boris" and verdict.games[0].kind == "mars" and verdict.final_score == [0, 2]
    written = write_nardy(random_match(seed=88, length=1, players=("Anna", "Boris")))
    assert written.rstrip("\n") == example.group(1).rstrip("\n")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_match_reads_back_as_written(seed):
    settings = NardySettings(head_doubles=ANY_HEAD_DOUBLES, block_rule=BlockRule.OPPONENT_HOME)
    record = random_match(seed=seed, length=3, players=("Anna Maria", "Boris K."), settings=settings)
    text = write_nardy(record)
    again = parse_nardy(text)
    assert again == record
    assert again.settings == settings
    assert write_nardy(again) == text
    # the same bytes with a byte-order mark and CRLF line ends
    assert parse_nardy(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode()) == record


def test_a_game_the_second_player_opens_keeps_its_columns():
    record = NardyRecord(
        length=1,
        players=("Anna", "Boris"),
        games=(
            NardyGame(1, (0, 0), (
                NardyAction(1, 1, dice=(6, 4), move="24/18 18/14"),
                NardyAction(0, 2, dice=(2, 1), move="24/22 22/21"),
                NardyAction(1, 2, dice=(5, 5), move="24/19 19/14 14/9 9/4"),
            )),
        ),
    )
    text = write_nardy(record)
    assert "  1)                                64: 24/18 18/14" in text
    assert parse_nardy(text) == record


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("1 point match\n Game 1\n A : 0   B : 0\n", 0, "Variation"),
        ('; [Variation "Backgammon"]\n1 point match\n Game 1\n A : 0   B : 0\n', 0, "not 'Backgammon'"),
        (HEADER + '; [SixBlock "never"]\n1 point match\n Game 1\n A : 0   B : 0\n', 0, "SixBlock"),
        (HEADER + '; [HeadDoubles "66 45"]\n1 point match\n Game 1\n A : 0   B : 0\n', 0, "HeadDoubles"),
        (HEADER + "one point match\n", 2, "point match"),
        (HEADER + "1 point match\n  1) 64: 24/18 18/14\n", 3, "Game 1"),
        (HEADER + "1 point match\n Game 1\n  1) 64: 24/18\n", 4, "score line"),
        (HEADER + "1 point match\n Game 1\n A : 0   B : 0\n  1) 74: 24/18\n", 5, "neither a roll"),
        (HEADER + "1 point match\n Game 1\n A : 0   B : 0\n  1) 64: 24/18 Wins 3 points and more\n", 5, "Wins n"),
        (HEADER + "1 point match\n Game 1\n A : 0   B : 0\n 64: 24/18\n", 5, "its number"),
        (HEADER + "1 point match\n Game 1\n A : 0   B : 0\n Game 2\n C : 0   B : 0\n", 6, "not A and B"),
        (HEADER + "1 point match\n", 2, "no game"),
    ],
)
def test_text_that_is_no_nardy_record_is_refused_at_its_line(text, line, words):
    with pytest.raises(NardyRecordError) as refused:
        parse_nardy(text)
    assert refused.value.code == "format" and refused.value.line == line
    assert words in refused.value.message
    status, verdict = check_nardy_record(text)
    assert status == "unreadable" and verdict.errors[0].code == "format" and verdict.errors[0].line == line


VALID = write_nardy(random_match(seed=5, length=1, players=("Anna", "Boris")))


@settings(max_examples=300, deadline=None)
@given(
    edits=st.lists(
        st.tuples(
            st.integers(0, len(VALID)), st.integers(0, 8), st.text(alphabet="0123456789/: offWins()\n?", max_size=12)
        ),
        min_size=1,
        max_size=4,
    )
)
def test_a_damaged_record_is_judged_never_crashes(edits):
    """Any damage (characters cut out, others put in) gives a verdict: unreadable, invalid or valid."""
    text = VALID
    for start, length, inserted in edits:
        text = text[:start] + inserted + text[start + length :]
    status, verdict = check_nardy_record(text)
    assert status in ("valid", "invalid", "unreadable")
    assert verdict.valid == (status == "valid")
    assert all(error.code for error in verdict.errors)
