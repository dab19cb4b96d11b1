"""The finish-time forecast from plain numbers: what a director would work out by hand."""

from datetime import datetime, timedelta

from tournaments.core.forecast import DEFAULT_MINUTES_PER_POINT, Durations, Played, ends_late, forecast_flight

TEN = datetime(2026, 5, 1, 10, 0)


def test_an_eight_player_flight_matches_the_hand_computation():
    # The club played two 5-point matches (40 and 50 minutes) and one 7-pointer (63 minutes):
    #   5 points: (40 + 50) / 2 = 45 min;  7 points: 63 min.
    # Eight players, matches to 5, final to 7: three rounds of lengths 5, 5, 7, from 10:00:
    #   round 1 10:00 + 45 = 10:45;  round 2 10:45 + 45 = 11:30;  round 3 (final) 11:30 + 63 = 12:33.
    durations = Durations([Played(5, 40), Played(5, 50), Played(7, 63)])
    result = forecast_flight(start=TEN, round_lengths=[5, 5, 7], durations=durations)
    starts = [r.starts_at.strftime("%H:%M") for r in result.rounds]
    assert starts == ["10:00", "10:45", "11:30"]
    assert result.ends_at == datetime(2026, 5, 1, 12, 33)


def test_a_length_never_played_is_scaled_from_the_clubs_minutes_per_point():
    # 40 + 50 + 63 = 153 minutes for 5 + 5 + 7 = 17 points: 9 minutes a point; an 11-pointer 99 minutes.
    durations = Durations([Played(5, 40), Played(5, 50), Played(7, 63)])
    assert durations.minutes(11) == 99
    assert Durations([]).minutes(7) == 7 * DEFAULT_MINUTES_PER_POINT


def test_a_round_begun_counts_from_its_actual_start_and_slips_are_ignored():
    # Round 2 actually began at 10:50 (five minutes late): 10:50 + 45 = 11:35, final 11:35 + 63 = 12:38.
    # The 0.5-minute "match" is a result typed in afterwards: not a duration.
    durations = Durations([Played(5, 40), Played(5, 50), Played(7, 63), Played(5, 0.5)])
    result = forecast_flight(
        start=TEN, round_lengths=[5, 5, 7], durations=durations, started={2: TEN + timedelta(minutes=50)}
    )
    assert result.ends_at == datetime(2026, 5, 1, 12, 38)


def test_ends_late_only_after_the_closing_time():
    result = forecast_flight(start=TEN, round_lengths=[7], durations=Durations([Played(7, 60)]))
    assert ends_late(result, datetime(2026, 5, 1, 10, 59))
    assert not ends_late(result, datetime(2026, 5, 1, 11, 0))
    assert not ends_late(result, None)
