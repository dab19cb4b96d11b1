from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calcutta.core import CalcuttaError, allocate_cents, format_money, parse_money, parse_share


@pytest.mark.parametrize("text, cents", [("12.50", 1250), ("12", 1200), (7, 700), (Decimal("0.01"), 1), (" 3.1 ", 310)])
def test_parse_money_gives_cents(text, cents):
    assert parse_money(text) == cents


@pytest.mark.parametrize(
    "value, code", [(12.5, "bad_amount"), ("1.005", "bad_amount"), ("-1", "bad_amount"), ("ten", "bad_amount")]
)
def test_parse_money_refuses_floats_fractions_of_a_cent_and_nonsense(value, code):
    with pytest.raises(CalcuttaError) as error:
        parse_money(value)
    assert error.value.code == code


def test_format_money():
    assert [format_money(c) for c in (0, 5, 123405, -250)] == ["0.00", "0.05", "1234.05", "-2.50"]


@pytest.mark.parametrize("text, share", [("1/3", Fraction(1, 3)), ("0.25", Fraction(1, 4)), ("25%", Fraction(1, 4))])
def test_parse_share(text, share):
    assert parse_share(text) == share


@pytest.mark.parametrize("value", ["0", "1.5", 0.5, "half"])
def test_parse_share_refuses_out_of_range_floats_and_nonsense(value):
    with pytest.raises(CalcuttaError) as error:
        parse_share(value)
    assert error.value.code == "bad_share"


def test_largest_remainder_gives_leftover_cents_to_largest_remainders_then_to_the_first_listed():
    # 100 cents in thirds: 33.33… each, one cent left over, equal remainders → the first listed gets it
    assert allocate_cents(100, [("a", Fraction(1, 3)), ("b", Fraction(1, 3)), ("c", Fraction(1, 3))]) == {
        "a": 34,
        "b": 33,
        "c": 33,
    }
    # 10 cents by 0.55 / 0.45: 5.5 and 4.5 → equal remainders, first listed wins
    assert allocate_cents(10, [("x", Fraction(45, 100)), ("y", Fraction(55, 100))]) == {"x": 5, "y": 5}
    # 7 cents by 0.6 / 0.4: 4.2 and 2.8 → the larger remainder (0.8) gets the cent
    assert allocate_cents(7, [("x", Fraction(3, 5)), ("y", Fraction(2, 5))]) == {"x": 4, "y": 3}


weights = st.lists(st.integers(min_value=0, max_value=1000), min_size=1, max_size=12).filter(lambda ws: sum(ws) > 0)


@given(total=st.integers(min_value=0, max_value=10**9), raw=weights)
def test_allocation_sums_to_the_total_and_stays_within_a_cent_of_exact(total, raw):
    pairs = [(index, Fraction(w, sum(raw))) for index, w in enumerate(raw)]
    parts = allocate_cents(total, pairs)
    assert sum(parts.values()) == total
    for index, weight in pairs:
        assert abs(parts[index] - total * weight) < 1
    assert parts == allocate_cents(total, pairs)  # deterministic
