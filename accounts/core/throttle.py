"""Sign-in throttling as arithmetic on one counter window, with no Django import.

A window counts failed sign-ins for one key (an account at an address, or a whole address) from its first
failure on. Once the count reaches the policy's limit the key is locked for the lockout period; a failure
after the window has run out starts a new window. Successful sign-ins never enter this module: only failures
count, so a room full of players signing in correctly from one address is never locked.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta


@dataclass(frozen=True)
class Policy:
    limit: int
    window: timedelta
    lockout: timedelta


@dataclass(frozen=True)
class Window:
    failures: int
    started: datetime
    locked_until: datetime | None = None


def after_failure(window: Window | None, *, now: datetime, policy: Policy) -> Window:
    """The window once one more failure at `now` is counted."""
    if window is None or now >= window.started + policy.window and not is_locked(window, now=now):
        window = Window(failures=0, started=now)
    failures = window.failures + 1
    locked_until = window.locked_until
    if failures >= policy.limit and not is_locked(window, now=now):
        locked_until = now + policy.lockout
    return Window(failures=failures, started=window.started, locked_until=locked_until)


def is_locked(window: Window | None, *, now: datetime) -> bool:
    return window is not None and window.locked_until is not None and window.locked_until > now


def retry_after_seconds(window: Window | None, *, now: datetime) -> int:
    """Whole seconds until the key may try again (0 when it is not locked), rounded up so a client that
    waits exactly this long is let in."""
    if not is_locked(window, now=now):
        return 0
    assert window is not None and window.locked_until is not None
    return max(1, math.ceil((window.locked_until - now).total_seconds()))
