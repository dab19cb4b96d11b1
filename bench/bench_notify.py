"""Queries spent queuing the notifications of one confirmed result, with 1 and with 50 watchers (the club's
directors, who each get the result in their list): the count must not grow with the watchers."""

from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from bench.scratch import scratch_database
from games.matchplay import services as match_services
from notifications import receivers
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.games.matchplay.factories import MatchFactory


def queries_per_result(watchers: int) -> int:
    """Queries of the notifications callback for one confirmed result at a club with `watchers` directors (the
    e-mails are sent after the commit, by the tasks: not counted; this transaction is rolled back)."""
    with transaction.atomic():
        club = ClubFactory()
        for _ in range(watchers):
            MembershipFactory(club=club, role="director")
        a, b = MembershipFactory(club=club).player, MembershipFactory(club=club).player
        match = MatchFactory(club=club, player_a=a, player_b=b)
        report, _created = match_services.submit_report(actor=a.user, match=match, method="final_score", scores=(5, 2))
        match_services.confirm_report(actor=b.user, match=match, version=report.version)
        report.refresh_from_db()
        with CaptureQueriesContext(connection) as queries:
            receivers.result_confirmed(match, report)
        transaction.set_rollback(True)
    return len(queries)


def main() -> None:
    with scratch_database():
        for watchers in (1, 50):
            print(f"notifications_queries_per_result_{watchers}_watchers: {queries_per_result(watchers)} queries")
