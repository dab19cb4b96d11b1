"""Self-played matches of backgammon with backward hitting round-trip write → read and verify as valid; mutated
copies are rejected with the code of the rule they break, at the move where it is broken."""

import dataclasses
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backgammon.backward_play import random_match
from backgammon.matchfiles.mat import BACKWARD_HEADER, ActionKind, MatchRecord, parse_mat, write_mat
from backgammon.matchfiles.sgf import parse_sgf, write_sgf
from backgammon.variants import BackwardHitting
from backgammon.verification import CODES, verify

PLAYERS = ("Anna", "Boris")
RULES = list(BackwardHitting)


def _backward_steps(move: str) -> list[tuple[int, int]]:
    steps = []
    for token in move.split():
        origin, _, target = token.replace("*", "").partition("/")
        if origin.isdigit() and target.isdigit() and int(target) > int(origin):
            steps.append((int(origin), int(target)))
    return steps


def _check(text: str):
    return verify(parse_mat(text))


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_self_played_match_verifies_as_valid_after_write_and_read(seed, rule):
    record = random_match(seed=seed, length=5, players=PLAYERS, rule=rule)
    text = write_mat(record)
    assert parse_mat(text) == record
    assert parse_mat(text).backward == rule
    verdict = _check(text)
    assert verdict.valid and not verdict.errors, verdict.errors
    assert verdict.winner in PLAYERS and max(verdict.final_score) >= 5
    backward_moves = [a for g in record.games for a in g.actions if a.move and _backward_steps(a.move)]
    assert backward_moves, "the sample holds no backward hit to verify"


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), rule=st.sampled_from(RULES))
def test_any_self_played_match_round_trips_and_verifies(seed, rule):
    text = write_mat(random_match(seed=seed, length=1, players=PLAYERS, rule=rule))
    assert not _check(text).errors


def _first_larger_die_backward_hit(record: MatchRecord):
    """(game number, move number, player) of the first roll that hits backwards with its larger die or a double."""
    for game in record.games:
        for action in game.actions:
            if action.kind != ActionKind.ROLL or not action.move:
                continue
            high, low = max(action.dice), min(action.dice)
            if any(target - origin != low or high == low for origin, target in _backward_steps(action.move)):
                return game.number, action.move_number, action.player
    return None


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_smaller_die_setting_rejects_the_first_backward_hit_with_the_larger_die(seed):
    record = random_match(seed=seed, length=3, players=PLAYERS, rule=BackwardHitting.ANY_DIE)
    where = _first_larger_die_backward_hit(record)
    assert where is not None, "the sample holds no backward hit with the larger die"
    headers = tuple(
        (key, "smaller die" if key == BACKWARD_HEADER else value) for key, value in record.headers
    )
    verdict = verify(parse_mat(write_mat(dataclasses.replace(record, headers=headers))))
    first = verdict.errors[0]
    assert first.code == "backward_smaller_die"
    assert (first.game, first.move, first.player) == (where[0], where[1], PLAYERS[where[2]])
    assert "only the smaller die" in first.message


def _with_opening_move(record: MatchRecord, move: str) -> MatchRecord:
    game = record.games[0]
    opening = game.actions[0]
    actions = (dataclasses.replace(opening, move=move), *game.actions[1:])
    return dataclasses.replace(record, games=(dataclasses.replace(game, actions=actions), *record.games[1:]))


@pytest.mark.parametrize("rule", RULES)
def test_a_backward_move_that_hits_nothing_is_rejected_at_its_move(rule):
    record = random_match(seed=5, length=1, players=PLAYERS, rule=rule)
    opening = record.games[0].actions[0]
    high, low = opening.dice
    # 6/7, 6/9, 6/10 or 6/11 lands on an empty point, 6/8 on an own checker: no hit either way
    mutated = _with_opening_move(record, f"6/{6 + low} 13/{13 - high}")
    verdict = verify(parse_mat(write_mat(mutated)))
    first = verdict.errors[0]
    assert first.code == "backward_not_hit"
    assert (first.game, first.move, first.player) == (1, 1, PLAYERS[opening.player])
    assert first.text.endswith(f"6/{6 + low} 13/{13 - high}")


def test_a_backward_hit_in_a_standard_record_is_an_illegal_move():
    record = random_match(seed=1, length=5, players=PLAYERS)
    standard = dataclasses.replace(record, headers=())
    verdict = verify(parse_mat(write_mat(standard)))
    assert verdict.errors and verdict.errors[0].code == "illegal_move"
    assert parse_mat(write_mat(standard)).backward is None


def test_the_record_headers_name_the_variant_and_its_setting():
    head = '; [Variation "Backgammon with backward hitting"]\n'
    body = "\n 1 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5\n"
    assert parse_mat(head + body).variant == "backward"
    assert parse_mat(head + body).backward == BackwardHitting.ANY_DIE
    smaller = parse_mat(head + f'; [{BACKWARD_HEADER} "smaller die"]\n' + body)
    assert smaller.backward == BackwardHitting.SMALLER_DIE
    assert parse_mat(body).backward is None and parse_mat(body).variant == "standard"


def test_the_new_codes_are_verification_codes():
    assert {"backward_not_hit", "backward_smaller_die", "backward_on_bar"} <= set(CODES)


def test_the_example_record_in_the_docs_is_the_seeded_match_and_valid():
    docs = (Path(__file__).resolve().parents[3] / "docs" / "variants.md").read_text()
    section = docs.split("## Backward hitting", 1)[1].split("### The record", 1)[1].split("### Verification")[0]
    example = section.split("```\n")[1]
    record = random_match(seed=187, length=1, players=PLAYERS)
    assert example.strip("\n") == write_mat(record).strip("\n")
    verdict = _check(example)
    assert verdict.valid and verdict.final_score == [0, 3] and verdict.winner == "Boris"


def test_an_sgf_export_of_the_variant_reads_back_as_the_variant_and_verifies():
    record = random_match(seed=2, length=3, players=PLAYERS)
    back = parse_sgf(write_sgf(record))
    assert back.variant == "backward" and back.backward == BackwardHitting.ANY_DIE
    verdict = verify(back)
    assert verdict.valid, verdict.errors
    assert verdict.final_score == verify(record).final_score
