"""Renderings that many readers ask for and few writes change (the public bracket on a tournament day), kept in
the default cache under a key that names the version of what they show.

Why a version in the key instead of deleting entries on change: the writer counts a new version in its own
transaction (tournaments' flight version: a `FlightChange` row appended, counted by the reader), so the change
and the invalidation commit together, and a reader that takes the version before it reads the rows can at worst
store a newer rendering under an older key, never an older one under a newer key. Old versions are simply never
asked for again and expire.

The cache is an accelerator, not a store: when it fails (Redis down, timing out, refusing) the page is rendered
as if nothing were cached, the failure is logged, and the cache is left alone for `PAUSE_SECONDS` so a dead
Redis costs one timeout per process and pause, not two per request.
"""

import logging
import time
from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache

logger = logging.getLogger(__name__)

T = TypeVar("T")

TIMEOUT_SECONDS = 3600  # also bounds a rendering that a write outside the services (the admin) made stale
PAUSE_SECONDS = 10.0
_MISSING = object()
_paused_until = 0.0


def _usable() -> bool:
    return time.monotonic() >= _paused_until


def _failed(action: str, key: str) -> None:
    global _paused_until
    _paused_until = time.monotonic() + PAUSE_SECONDS
    logger.warning("cache %s of %s failed; rendering uncached for %s s", action, key, PAUSE_SECONDS, exc_info=True)


def get_or_build(key: str, build: Callable[[], T], *, timeout: int = TIMEOUT_SECONDS) -> T:
    """The cached value under `key`, or `build()` stored there. Never raises for the cache's sake."""
    if not _usable():
        return build()
    try:
        value = cache.get(key, _MISSING)
    except Exception:  # noqa: BLE001 - any backend failure means "not cached"
        _failed("read", key)
        return build()
    if value is not _MISSING:
        return value
    value = build()
    try:
        cache.set(key, value, timeout)
    except Exception:  # noqa: BLE001 - the page is rendered; keeping it is a bonus
        _failed("write", key)
    return value


def resume() -> None:
    """Use the cache again at once (tests, after an outage they staged)."""
    global _paused_until
    _paused_until = 0.0
