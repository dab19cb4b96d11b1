"""Club page with a large membership: rendering time and query count (in a throwaway SQLite database)."""

import statistics
import time

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from bench.scratch import scratch_database
from tests.clubs.factories import ClubFactory, MembershipFactory


def main() -> None:
    with scratch_database():
        club = ClubFactory()
        for _ in range(500):
            MembershipFactory(club=club)
        client = Client()
        timings = []
        for _ in range(20):
            start = time.perf_counter()
            with CaptureQueriesContext(connection) as queries:
                client.get(club.get_absolute_url())
            timings.append((time.perf_counter() - start) * 1000)
        print(f"club_page_500_members: {statistics.median(timings):.1f} ms")
        print(f"club_page_500_members_queries: {len(queries)} queries")
