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
import threading
import time
from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

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


class _SharedPoolClient(RedisCacheClient):
    """Django's Redis client, taking its connection pool from the process's one per server and options."""

    _pools_by_server: dict[tuple[str, str], object] = {}
    _lock = threading.Lock()

    def _get_connection_pool(self, write):
        server = self._servers[self._get_connection_pool_index(write)]
        key = (server, repr(sorted(self._pool_options.items(), key=lambda item: item[0])))
        pool = self._pools_by_server.get(key)
        if pool is None:
            with self._lock:
                pool = self._pools_by_server.get(key)
                if pool is None:
                    pool = self._pools_by_server[key] = self._pool_class.from_url(server, **self._pool_options)
        return pool


class SharedPoolRedisCache(RedisCache):
    """Django's Redis cache with one connection pool per process (config.env.env_cache names it).

    Why: Django keeps a cache object per thread, and each made its own pool; under ASGI every request runs on a
    thread of its own, so every cached bracket read opened a new TCP connection to Redis and closed it again.
    Profiled on the load test's bracket page (py-spy, three workers): making that connection was 122 of the 141
    samples spent in Redis, and a sixth of the page's CPU. redis-py's pool is thread-safe and starts afresh in a
    forked child, so one pool per process serves every thread."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = _SharedPoolClient


def resume() -> None:
    """Use the cache again at once (tests, after an outage they staged)."""
    global _paused_until
    _paused_until = 0.0
