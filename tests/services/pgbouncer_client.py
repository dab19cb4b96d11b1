"""Run by tests/services/test_pgbouncer.py in a process of its own, whose settings come from the environment as in
production: DATABASE_URL at PgBouncer in transaction mode, DATABASE_PGBOUNCER=1, DATABASE_POOL=1 (the app's pool,
as under uvicorn). Real services through it: a report and its confirmation, a bracket read, an iterator over a
large queryset, and threads at once on a PgBouncer pool of two server connections. Prints one JSON line."""

import json
import os
import threading

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection, connections, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.utils import timezone  # noqa: E402

from base.models import WorkerHeartbeat  # noqa: E402
from games.matchplay import services as match_services  # noqa: E402
from tests.clubs.factories import ClubFactory, MembershipFactory  # noqa: E402
from tests.tournaments.builders import drawn_event, ready_slots  # noqa: E402


def main() -> dict:
    database = settings.DATABASES["default"]
    options = database.get("OPTIONS", {})
    out = {
        "server_side_binding": options.get("server_side_binding"),
        "prepare_threshold": options.get("prepare_threshold"),
        "server_side_cursors_disabled": database.get("DISABLE_SERVER_SIDE_CURSORS"),
        "pool": "pool" in options,
    }
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").player.user
    event, flights = drawn_event(club, director, 8, length=3)
    slot = ready_slots(flights["main"])[0]
    winner, loser = slot.entry_a.player, slot.entry_b.player
    # the same statements many times over: prepared statements, were they on, would be looked for on another
    # server connection than the one that prepared them
    for _ in range(3):
        ready_slots(flights["main"])
    report, _created = match_services.submit_report(
        actor=winner.user, match=slot.match, method="final_score", scores=(3, 1)
    )
    confirmed = match_services.confirm_report(actor=loser.user, match=slot.match, version=report.version)
    out["confirmed"] = confirmed.pk == report.pk
    slot.refresh_from_db()
    out["slot_result"] = slot.result

    WorkerHeartbeat.objects.bulk_create(
        WorkerHeartbeat(worker=f"row-{n}", beats=n, last_seen=timezone.now()) for n in range(5000)
    )
    out["iterated"] = sum(1 for _ in WorkerHeartbeat.objects.order_by("pk").iterator(chunk_size=100))
    with transaction.atomic():
        out["iterated_in_transaction"] = sum(1 for _ in WorkerHeartbeat.objects.iterator(chunk_size=100))

    # pages, as a phone would ask them, from eight threads at once through two server connections
    url = flights["main"].get_absolute_url()
    statuses, errors = [], []

    def fetch() -> None:
        try:
            client = Client()
            for _ in range(5):
                statuses.append(client.get(url).status_code)
                statuses.append(client.get("/health/").status_code)
        except Exception as error:  # noqa: BLE001 - reported to the test
            errors.append(repr(error))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=fetch) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    out["statuses"] = sorted(set(statuses))
    out["requests"] = len(statuses)
    out["errors"] = errors[:3]
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_statements")
        out["prepared_here"] = cursor.fetchone()[0]
    return out


if __name__ == "__main__":
    print(json.dumps(main()))
