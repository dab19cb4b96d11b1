"""Every result version a tournament writes on someone's behalf names the person who acted (never the event's
first director standing in for them) and says how it came: a walkover for a withdrawal is SYSTEM, a match voided
by an earlier change is BRACKET, a director's override from the bracket is OVERRIDE."""

import pytest

from base.api import Conflict
from games.matchplay import services as match_services
from games.models.matches import MatchReport
from tests.clubs.factories import UserFactory
from tournaments import services
from tournaments.models import Slot

from .builders import drawn_event, ready_slots, started_second_round, win

pytestmark = pytest.mark.django_db


def _second_director(event, director_user):
    """A director added to the event after its creator (who stays its first director)."""
    other = UserFactory()
    services.add_director(actor=director_user, event=event, user=other)
    assert event.directors.order_by("pk").first() != other
    return other


def _latest(match) -> MatchReport:
    return match.reports.order_by("-version").first()


def test_a_player_who_withdraws_signs_the_walkover_themself(club, director_user):
    event, flights = drawn_event(club, director_user, 8)
    slot = ready_slots(flights["main"])[0]
    quitter = slot.entry_a.player.user
    services.withdraw(actor=quitter, entry=slot.entry_a)
    report = _latest(slot.match)
    assert (report.submitted_by, report.confirmed_by) == (quitter, quitter)
    assert (report.origin, report.role, report.outcome) == ("system", "player", "walkover")
    assert report.confirmed and report.winner_id == slot.entry_b.player_id
    slot.refresh_from_db()
    assert slot.result == "walkover" and slot.winner_id == slot.entry_b_id


def test_a_director_who_withdraws_a_player_signs_the_walkover(club, director_user):
    event, flights = drawn_event(club, director_user, 8)
    other = _second_director(event, director_user)
    slot = ready_slots(flights["main"])[0]
    services.withdraw(actor=other, entry=slot.entry_b)
    report = _latest(slot.match)
    assert (report.submitted_by, report.origin, report.role) == (other, "system", "director")


def test_an_override_and_every_match_it_voids_name_the_overriding_director(club, director_user):
    event, flights = drawn_event(club, director_user, 8, consolation={})
    other = _second_director(event, director_user)
    first, r2 = started_second_round(director_user, flights["main"])
    voided = r2.match
    slot = Slot.objects.select_related("flight__event", "match").get(pk=first.pk)
    services.override_result(actor=other, slot=slot, winner_side=1, outcome="forfeit", comment="Wrong score")

    override = _latest(slot.match)
    assert (override.submitted_by, override.confirmed_by, override.origin) == (other, other, "override")
    annulment = _latest(voided)
    assert (annulment.submitted_by, annulment.confirmed_by) == (other, other)
    assert (annulment.origin, annulment.outcome) == ("bracket", "annulled")


def test_the_same_director_typing_the_result_on_the_match_is_refused_once_a_later_match_started(club, director_user):
    # Only the override (shown the cascade first) may void a started match; a result reported on the match page
    # is MANUAL even when a director sends it.
    event, flights = drawn_event(club, director_user, 8)
    first, r2 = started_second_round(director_user, flights["main"])
    with pytest.raises(Conflict):
        win(director_user, Slot.objects.select_related("match").get(pk=first.pk), 1)
    assert not r2.match.reports.exists()


def test_a_players_late_correction_voids_the_next_match_in_the_confirming_players_name(club, director_user):
    event, flights = drawn_event(club, director_user, 8)
    main = flights["main"]
    first, second = ready_slots(main)[:2]
    a, b = first.entry_a.player.user, first.entry_b.player.user
    length = first.match.length
    reported, _ = match_services.submit_report(actor=a, match=first.match, method="final_score", scores=(length, 0))
    match_services.confirm_report(actor=b, match=first.match, version=reported.version)
    win(director_user, second, 0)
    r2 = Slot.objects.select_related("match").get(flight=main, round=2, position=0)
    voided = r2.match
    assert voided is not None and voided.started_at is None
    fixed, _ = match_services.submit_report(actor=b, match=first.match, method="final_score", scores=(0, length))
    match_services.confirm_report(actor=a, match=first.match, version=fixed.version)

    annulment = _latest(voided)
    assert (annulment.submitted_by, annulment.confirmed_by) == (a, a)
    assert (annulment.origin, annulment.role, annulment.outcome) == ("bracket", "player", "annulled")
    assert _latest(first.match).origin == "manual"
    r2.refresh_from_db()
    assert r2.entry_a_id == first.entry_b_id and r2.match_id != voided.pk


def test_the_api_shows_how_each_version_came(api_as, club, director_user):
    event, flights = drawn_event(club, director_user, 8)
    slot = ready_slots(flights["main"])[0]
    quitter = slot.entry_a.player.user
    services.withdraw(actor=quitter, entry=slot.entry_a)
    response = api_as(quitter).get(f"/api/v1/matches/{slot.match_id}/reports/")
    assert response.status_code == 200, response.content
    rows = response.json()["results"]
    assert [(r["submitted_by"], r["origin"]) for r in rows] == [(quitter.username, "system")]


def test_the_match_page_history_says_who_voided_it_and_how(client, club, director_user):
    event, flights = drawn_event(club, director_user, 8)
    other = _second_director(event, director_user)
    first, r2 = started_second_round(director_user, flights["main"])
    slot = Slot.objects.select_related("flight__event", "match").get(pk=first.pk)
    services.override_result(actor=other, slot=slot, winner_side=1, outcome="forfeit", comment="Wrong score")
    client.force_login(director_user)
    page = client.get(r2.match.get_absolute_url()).content.decode()
    assert "Voided by a bracket change" in page and other.username in page
