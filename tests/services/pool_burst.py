"""Run by tests/services/test_pool_idle.py in a process of its own with DATABASE_POOL=1 (as under uvicorn): ten
requests' worth of connections at once, then the pool's size every half second while idle. Prints JSON."""

import json
import os
import threading
import time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.db import connection, connections  # noqa: E402

BURST = 10


def main() -> dict:
    barrier = threading.Barrier(BURST)

    def request() -> None:
        with connection.cursor() as cursor:
            barrier.wait()  # all ten hold a connection at once
            cursor.execute("SELECT pg_sleep(0.2)")
        connections.close_all()  # the request's end: back to the pool

    threads = [threading.Thread(target=request) for _ in range(BURST)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    sizes = []
    started = time.monotonic()
    while time.monotonic() - started < 20:
        sizes.append((round(time.monotonic() - started, 1), connection.pool.get_stats()["pool_size"]))
        if sizes[-1][1] <= 1:
            break
        time.sleep(0.5)
    return {"sizes": sizes}


if __name__ == "__main__":
    print(json.dumps(main()))
