"""The crosstable (pure): every table appears once from each side, with the opposite outcome, and every cell
names the opponent's line in the same table."""

from hypothesis import given
from hypothesis import strategies as st

from tournaments.core.crosstable import BYE, LOSS, NOT_SCORED, PENDING, WIN, Table, crosstable


@st.composite
def rounds_of_tables(draw):
    players = draw(st.integers(min_value=2, max_value=10))
    tables = []
    for number in range(1, draw(st.integers(min_value=0, max_value=5)) + 1):
        order = draw(st.permutations(range(players)))
        for i in range(0, players - 1, 2):
            a, b = order[i], order[i + 1]
            result = draw(st.sampled_from(["played", "forfeit", "double_forfeit", "not_scored", "pending"]))
            winner = None if result in ("double_forfeit", "not_scored", "pending") else draw(st.sampled_from([a, b]))
            scores = (7, 3) if winner == a else (3, 7)
            tables.append(Table(number, a, b, result, winner, *(scores if result == "played" else (None, None))))
        if players % 2:
            tables.append(Table(number, order[-1], None, "bye", order[-1]))
    return players, tables


@given(rounds_of_tables())
def test_each_table_shows_from_both_sides_with_opposite_outcomes(case):
    players, tables = case
    order = list(reversed(range(players)))
    rounds, rows = crosstable(order, tables)
    assert [r.key for r in rows] == order
    assert rounds == max((t.round for t in tables), default=0)
    cells = {(row.key, cell.round): cell for row in rows for cell in row.cells if cell is not None}
    assert len(cells) == sum(2 if t.b is not None else 1 for t in tables)
    opposite = {WIN: LOSS, LOSS: WIN, PENDING: PENDING, NOT_SCORED: NOT_SCORED}
    for (key, number), cell in cells.items():
        if cell.opponent is None:
            assert cell.outcome == BYE
            continue
        assert order[cell.line - 1] == cell.opponent
        other = cells[(cell.opponent, number)]
        assert other.opponent == key
        if other.outcome != LOSS or cell.outcome != LOSS:  # a double forfeit is a loss for both
            assert other.outcome == opposite[cell.outcome]
        if cell.score:
            assert other.score == tuple(reversed(cell.score))


def test_players_of_another_table_are_left_out_and_absent_rounds_are_empty():
    tables = [
        Table(1, "a", "x", "played", "a", 7, 2),
        Table(2, "a", "b", "pending"),
        Table(2, "x", "y", "played", "y", 1, 5),
    ]
    rounds, rows = crosstable(["a", "b"], tables)
    assert rounds == 2 and [r.key for r in rows] == ["a", "b"]
    first, second = rows[0].cells
    assert first.outcome == WIN and first.line is None and first.score == (7, 2)
    assert second.outcome == PENDING and second.line == 2
    assert rows[1].cells[0] is None
