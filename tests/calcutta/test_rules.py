from datetime import UTC, datetime
from decimal import Decimal
from fractions import Fraction

import pytest

from calcutta.core import CalcuttaError, CalcuttaSettings, PayoutTable


def test_payout_table_must_total_exactly_100_percent():
    with pytest.raises(CalcuttaError) as error:
        PayoutTable.of(["50", "30", "15"])
    assert error.value.code == "payout_not_100"
    assert "95%" in error.value.message


def test_payout_table_counts_the_consolation_winner_in_the_100_percent():
    table = PayoutTable.of(["50", "25"], consolation_winner="25")
    assert table.consolation_winner == Decimal(25)


def test_payout_table_with_thirds_written_to_the_hundredth_is_exact():
    assert PayoutTable.of(["33.34", "33.33", "33.33"]).places[0] == Decimal("33.34")


def test_payout_table_refuses_floats():
    with pytest.raises(CalcuttaError) as error:
        PayoutTable.of([70.0, "30"])
    assert error.value.code == "bad_percent"


def test_tied_places_beyond_the_table_pay_nothing():
    table = PayoutTable.of(["50", "30", "20"])
    assert table.share_of_places(3, 2) == Fraction(1, 5)


@pytest.mark.parametrize(
    "overrides, field",
    [
        ({"house_take_percent": Decimal(100)}, "house_take_percent"),
        ({"house_take_percent": Decimal(-1)}, "house_take_percent"),
        ({"minimum_opening_bid": 0}, "minimum_opening_bid"),
        ({"increment": 0}, "increment"),
        ({"buy_back_limit": Fraction(3, 2)}, "buy_back_limit"),
    ],
)
def test_settings_refuse_values_that_make_no_sense(overrides, field):
    values = {"payout": PayoutTable.of(["100"])} | overrides
    with pytest.raises(CalcuttaError) as error:
        CalcuttaSettings(**values)
    assert error.value.field == field


def test_default_settings_follow_the_usual_calcutta():
    settings = CalcuttaSettings(
        payout=PayoutTable.of(["70", "30"]), buy_back_deadline=datetime(2026, 11, 22, 10, tzinfo=UTC)
    )
    assert settings.buy_back_limit == Fraction(1, 2)
    assert settings.house_take_percent == Decimal(10)
    assert settings.self_bidding is False


def test_a_buy_back_deadline_without_time_zone_is_refused():
    with pytest.raises(CalcuttaError) as error:
        CalcuttaSettings(payout=PayoutTable.of(["100"]), buy_back_deadline=datetime(2026, 11, 22, 10))
    assert error.value.code == "bad_deadline"
