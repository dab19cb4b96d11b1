"""`python -m loadtest.servers`: the same requests through each way of serving the site, side by side in one run
on one machine (docs/deploy.md, "Why two servers"): a static file (WhiteNoise, the cheapest request Django
answers) and the cached public bracket page, each for LOADTEST_SECONDS with 10 keep-alive clients, through

  uvicorn      uvicorn alone, WORKERS processes (the earlier production server: HTTP and sockets in one)
  proxy        the production path: Caddy in front of gunicorn's gthread workers (and uvicorn for /ws/ only)
  gthread      those gthread workers (WORKERS processes of THREADS threads), straight: what Caddy costs
  sync         gunicorn's sync workers, WORKERS processes, straight (the issue's reference)
  proxy_sync   Caddy in front of those sync workers
  proxy_uvicorn  Caddy in front of the uvicorn above

Ports: the stack's own (LOADTEST_PORT and up, loadtest/stack.py) and LOADTEST_PORT + 30 to + 33."""

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loadtest.stack import ASGI_OFFSET, SERVER, WORKERS, WSGI_OFFSET, Stack, _port_taken, environment, port  # noqa: E402

if SERVER != "split":
    raise SystemExit("loadtest.servers compares against the split topology; unset LOADTEST_SERVER")

STACK = Stack()
os.environ.update(environment(STACK.media))

import django  # noqa: E402

django.setup()

from django.db import connections  # noqa: E402

from loadtest import fixtures, scenarios  # noqa: E402

SECONDS = float(os.environ.get("LOADTEST_SECONDS", "5"))
STATIC = "/static/favicon.svg"


def main() -> int:
    try:
        STACK.start()
        fixture = fixtures.build(results_flights=1, override_events=0, round_end_entrants=8)
        STACK.spawn_uvicorn("uvicorn", port() + 30, WORKERS)
        STACK.spawn_gunicorn("sync", port() + 31, WORKERS)
        STACK.spawn_proxy("proxy-sync", port() + 32, port() + 31, port() + ASGI_OFFSET)
        STACK.spawn_proxy("proxy-uvicorn", port() + 33, port() + 30, port() + ASGI_OFFSET)
        STACK.wait_healthy()
        connections.close_all()
        targets = {
            "uvicorn": port() + 30,
            "proxy": port(),
            "gthread": port() + WSGI_OFFSET,
            "sync": port() + 31,
            "proxy_sync": port() + 32,
            "proxy_uvicorn": port() + 33,
        }
        for _ in range(60):
            STACK.check_alive()
            if all(_port_taken(number) for number in targets.values()):
                break
            time.sleep(0.5)
        else:
            raise SystemExit(f"loadtest.servers: a server is not listening\n{STACK.logs()}")
        assert _port_taken(port() + ASGI_OFFSET)
        rates: dict[tuple[str, str], float] = {}
        for rounds in range(2):  # twice, in turn: a noisy neighbour then weighs on every server alike
            for name, number in targets.items():
                url = f"http://127.0.0.1:{number}"
                for what, path in (("static", STATIC), ("bracket", fixture.bracket.page)):
                    outcome = scenarios.read(url, f"{name}_{what}", path, clients=10, seconds=SECONDS)
                    tally = outcome.tallies[0]
                    if tally.errors:
                        print(f"  {name} {what}: {tally.errors} errors, e.g. {tally.error_samples[:1]}")
                    rates[name, what] = rates.get((name, what), 0) + tally.throughput / 2
                    print(
                        f"  round {rounds + 1} {name:14} {what:8} {tally.throughput:7.1f} req/s  "
                        f"p99 {tally.p(0.99):5.0f} ms",
                        flush=True,
                    )
        for (name, what), rate in rates.items():
            print(f"servers_{name}_{what}: {rate:.1f} req/s ({rate / rates['sync', 'static']:.2f} of sync static)")
        return 0
    finally:
        connections.close_all()
        STACK.stop()


if __name__ == "__main__":
    sys.exit(main())
