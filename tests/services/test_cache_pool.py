"""The shared Redis cache (base.cache.SharedPoolRedisCache): every thread's cache object, and so every ASGI
request, borrows from one connection pool per process, instead of each opening a connection to Redis of its own
(Django keeps a cache object per thread, and under ASGI each request runs on a new thread)."""

import threading

import pytest
from django.conf import settings

from base.cache import SharedPoolRedisCache

pytestmark = pytest.mark.services


def _cache(location: str) -> SharedPoolRedisCache:
    return SharedPoolRedisCache(location, {"OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}})


def _pools_seen_from_threads(location: str, threads: int) -> list:
    pools: list = []

    def ask() -> None:
        cache = _cache(location)  # what django.core.cache.caches makes for each new thread
        cache.set("pool-check", "yes", 30)
        assert cache.get("pool-check") == "yes"
        pools.append(cache._cache._get_connection_pool(write=False))

    workers = [threading.Thread(target=ask) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return pools


def test_forty_requests_on_forty_threads_share_one_pool_and_a_few_connections():
    location = settings.CELERY_BROKER_URL.rsplit("/", 1)[0] + "/13"  # a database of the same Redis, not the broker's
    pools = _pools_seen_from_threads(location, 40)
    assert len(pools) == 40 and len({id(pool) for pool in pools}) == 1
    made = pools[0]._created_connections
    assert 1 <= made <= 40  # one per request in flight at once at most; Django's own cache made 40, one each
    pools_again = _pools_seen_from_threads(location, 40)
    assert pools_again[0] is pools[0]


def test_a_pool_is_per_server_and_options():
    first, second = _cache("redis://127.0.0.1:6379/11"), _cache("redis://127.0.0.1:6379/12")
    assert first._cache._get_connection_pool(write=True) is not second._cache._get_connection_pool(write=True)
    assert first._cache._get_connection_pool(write=True) is _cache(
        "redis://127.0.0.1:6379/11"
    )._cache._get_connection_pool(write=False)
