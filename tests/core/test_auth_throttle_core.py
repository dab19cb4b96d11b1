"""The pure throttle arithmetic (accounts.core.throttle), with plain datetimes."""

from datetime import UTC, datetime, timedelta

from accounts.core.throttle import Policy, Window, after_failure, is_locked, retry_after_seconds

T0 = datetime(2026, 5, 1, 18, 0, tzinfo=UTC)
POLICY = Policy(limit=3, window=timedelta(minutes=15), lockout=timedelta(minutes=15))


def fail(times: list[int]) -> Window | None:
    window = None
    for minute in times:
        window = after_failure(window, now=T0 + timedelta(minutes=minute), policy=POLICY)
    return window


def test_the_limit_th_failure_within_the_window_locks_for_the_lockout():
    window = fail([0, 1, 2])
    assert window.failures == 3
    assert window.locked_until == T0 + timedelta(minutes=17)
    assert is_locked(window, now=T0 + timedelta(minutes=16, seconds=59))
    assert retry_after_seconds(window, now=T0 + timedelta(minutes=16)) == 60


def test_fewer_failures_than_the_limit_do_not_lock():
    window = fail([0, 1])
    assert not is_locked(window, now=T0 + timedelta(minutes=1))
    assert retry_after_seconds(window, now=T0 + timedelta(minutes=1)) == 0


def test_failures_spread_over_more_than_the_window_start_a_new_count():
    window = fail([0, 1, 16])
    assert window.failures == 1
    assert window.started == T0 + timedelta(minutes=16)
    assert not is_locked(window, now=T0 + timedelta(minutes=16))


def test_the_lock_ends_and_the_next_failure_counts_afresh():
    window = fail([0, 1, 2])
    assert not is_locked(window, now=T0 + timedelta(minutes=17))
    again = after_failure(window, now=T0 + timedelta(minutes=40), policy=POLICY)
    assert (again.failures, again.locked_until) == (1, None)


def test_retry_after_rounds_up_to_a_whole_second():
    window = Window(failures=3, started=T0, locked_until=T0 + timedelta(seconds=10, microseconds=1))
    assert retry_after_seconds(window, now=T0) == 11
