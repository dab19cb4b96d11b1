"""Groups → knockout with plain objects: balanced snake groups, refusals that say what would work, and the
cross-over seeding of the qualifiers (winners meet runners-up, group mates meet as late as possible)."""

from collections import Counter

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tournaments.core.draw import bracket_size, seed_order
from tournaments.core.errors import BracketError
from tournaments.core.groups import check, crossover, group_sizes, knockout_line, label, split


def _pairs(line):
    return [(line[i], line[i + 1]) for i in range(0, len(line), 2)]


def _qualifiers(groups, advance):
    return [[f"{label(g)}{rank}" for rank in range(1, advance + 1)] for g in range(groups)]


def test_snake_seeding_deals_the_seeds_there_and_back():
    assert split(list(range(1, 13)), group_size=4, advance=2) == [[1, 6, 7, 12], [2, 5, 8, 11], [3, 4, 9, 10]]


def test_sizes_are_balanced_and_never_above_the_group_size():
    assert group_sizes(10, 4) == [4, 3, 3]
    assert [len(g) for g in split(list(range(10)), group_size=4, advance=2)] == [3, 3, 4]  # the snake's turn
    assert group_sizes(17, 5) == [5, 4, 4, 4]


@settings(max_examples=80, deadline=None)
@given(n=st.integers(3, 300), size=st.integers(2, 300), advance=st.integers(1, 8))
@example(n=3, size=3, advance=2)
@example(n=1024, size=2, advance=1)
def test_every_accepted_setting_gives_balanced_groups_with_everyone_once(n, size, advance):
    try:
        check(n, size, advance)
    except BracketError as refused:
        assert refused.field in {"group_size", "advance"}
        return
    groups = split(list(range(n)), group_size=size, advance=advance)
    assert sorted(k for g in groups for k in g) == list(range(n))
    lengths = [len(g) for g in groups]
    assert max(lengths) <= size and max(lengths) - min(lengths) <= 1
    assert advance < min(lengths) and len(groups) * advance >= 2
    for row in range(min(lengths)):  # the snake: each group's i-th player comes from the i-th row of seeds
        assert sorted(g[row] for g in groups) == list(range(row * len(groups), (row + 1) * len(groups)))


@pytest.mark.parametrize(
    "n, size, advance, code, says",
    [
        (16, 1, 1, "group_size_too_small", {"suggestion": 4}),
        (5, 8, 1, "group_size_too_large", {"entrants": 5}),
        (7, 2, 1, "group_of_one", {"size": 2}),
        (9, 4, 3, "advance_out_of_range", {"most": 2, "smallest": 3}),
        (9, 3, 0, "advance_out_of_range", {"most": 2}),
        (4, 4, 1, "knockout_too_small", {"largest": 2}),
        (2, 2, 1, "groups_too_few_entrants", {"entrants": 2}),
        (2000, 4, 1, "groups_too_many_entrants", {"most": 1024}),
    ],
)
def test_impossible_settings_are_refused_saying_what_would_work(n, size, advance, code, says):
    with pytest.raises(BracketError) as refused:
        check(n, size, advance)
    assert refused.value.code == code
    assert says.items() <= refused.value.params.items()
    assert all(str(value) in refused.value.message for value in says.values())


def test_the_suggested_settings_work():
    check(16, 4, 1)  # the suggestion for groups of 1
    check(9, 3, 2)  # at most 2 from groups of 3
    check(4, 2, 1)  # groups of at most 2
    check(7, 3, 1)  # groups of 3 or more


def test_two_groups_cross_over_a1_b2_and_b1_a2():
    assert _pairs(knockout_line(_qualifiers(2, 2))) == [("A1", "B2"), ("B1", "A2")]


def test_four_groups_cross_over_in_pairs_with_each_group_split_between_the_halves():
    assert _pairs(knockout_line(_qualifiers(4, 2))) == [("A1", "B2"), ("D1", "C2"), ("B1", "A2"), ("C1", "D2")]


def test_byes_go_to_the_group_winners_first():
    line = knockout_line(_qualifiers(3, 2))  # 6 qualifiers, 2 byes
    assert {a for a, b in _pairs(line) if b is None} == {"A1", "B1"}


@settings(max_examples=120, deadline=None)
@given(groups=st.integers(1, 64), advance=st.integers(1, 8))
@example(groups=341, advance=2)
@example(groups=5, advance=3)
@example(groups=2, advance=4)
def test_cross_over_seeds_every_qualifier_once_and_keeps_group_mates_apart(groups, advance):
    if groups * advance < 2:
        return
    seeds = crossover(groups, advance)
    assert Counter(seeds) == Counter((g, r) for g in range(groups) for r in range(1, advance + 1))
    assert [r for _, r in seeds] == sorted(r for _, r in seeds)  # all winners first, then the runners-up, ...
    assert [g for g, r in seeds if r == 1] == list(range(groups))
    size = bracket_size(len(seeds))
    position = {seed: i for i, seed in enumerate(seed_order(size))}
    where = {}
    for seed, (g, _) in enumerate(seeds, start=1):
        where.setdefault(g, []).append(position[seed])
    rounds = size.bit_length() - 1
    never = rounds + 1
    earliest = min(((p ^ q).bit_length() for ps in where.values() for p in ps for q in ps if p < q), default=never)
    if groups >= 2:
        assert earliest >= 2  # never two of one group in round 1
    if groups >= 2 and 2 <= advance <= 4:
        # k of a group in k different sections (halves for 2, quarters for 3 or 4): the best any seeding can do.
        assert earliest == rounds + 1 - (advance - 1).bit_length()
    if len(seeds) == size:  # a full bracket: rank r meets rank k + 1 - r in round 1
        line = knockout_line([[(g, r) for r in range(1, advance + 1)] for g in range(groups)])
        assert all(a[1] + b[1] == advance + 1 for a, b in _pairs(line))


def test_labels_go_on_after_z():
    assert [label(i) for i in (0, 1, 25, 26, 27, 51, 52)] == ["A", "B", "Z", "AA", "AB", "AZ", "BA"]


def test_uneven_qualifier_lists_are_refused():
    with pytest.raises(BracketError) as refused:
        knockout_line([["a", "b"], ["c"]])
    assert refused.value.code == "qualifiers_uneven"
