"""The demo's long nardy club night: a long nardy flight played to the end, every match reported by its
uploaded nardy record, verified valid on the nardy board."""

import pytest
from django.core.management import call_command

from games.models import GameRecord
from games.models.matches import Match
from tournaments import demo_nardy, selectors
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def test_the_demo_has_a_long_nardy_night_played_to_the_end_with_verified_records():
    call_command("load_demo")
    event = Event.objects.get(slug=demo_nardy.NARDY_NIGHT)
    flight = event.flights.get()
    assert (flight.variant, flight.status, event.status) == ("long_nardy", "finished", "finished")
    matches = Match.objects.filter(tournament_slot__flight=flight)
    assert matches.count() == 7 and set(matches.values_list("variant", flat=True)) == {"long_nardy"}
    records = GameRecord.objects.filter(match__in=matches)
    assert records.count() == 7 and set(records.values_list("status", flat=True)) == {"valid"}
    assert all(r.verdict["variant"] == "long_nardy" for r in records)
    for match in matches:
        report = match.reports.get(confirmed=True)
        assert report.method == "record" and max(match.score_a, match.score_b) in (3, 4)
    places = sorted(p.place for p in selectors.flight_placements(flight=flight))
    assert places == [1, 2, 3, 3, 5, 5, 5, 5]
