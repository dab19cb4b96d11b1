"""Tournament day: check-in (one tap by a player or the director) and the draw of the checked-in only, the
clock rule on the match page and the draw sheet, and the finish-time forecast on the director's dashboard."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Match
from tournaments import selectors, services
from tournaments.models import Entry, EntryStatus, Slot

from .builders import drawn_event, make_event, members, ready_slots, win

pytestmark = pytest.mark.django_db


def _flight_with_deadline(club, director, n=5, *, deadline_in=datetime.timedelta(hours=1)):
    event = make_event(club, director)
    main = services.add_flight(actor=director, event=event, name="Main", check_in_deadline=timezone.now() + deadline_in)
    entries = [services.register(actor=director, flight=main, player=p) for p in members(club, n)]
    return event, main, entries


def test_with_a_deadline_the_draw_takes_only_the_checked_in_and_lists_the_no_shows(client, club, director_user, api):
    event, main, entries = _flight_with_deadline(club, director_user)
    for entry in entries[:3]:
        services.check_in(actor=director_user, entry=entry)
    main = services.draw_flight(actor=director_user, flight=main, seed=1)
    drawn = set(Entry.objects.filter(flight=main, draw_position__isnull=False).values_list("pk", flat=True))
    assert drawn == {e.pk for e in entries[:3]}
    assert main.size == 4  # three checked in: a bracket of four, not eight
    page = client.get(main.get_absolute_url()).content.decode()
    assert "Not checked in (left out of the draw)" in page
    absent = [e.player.name for e in entries[3:]]
    assert all(name in page for name in absent)
    detail = api.get(f"/api/v1/events/{club.slug}/{event.slug}/flights/main/").json()
    assert sorted(e["player_name"] for e in detail["no_shows"]) == sorted(absent)


def test_without_a_deadline_everyone_registered_is_drawn(club, director_user):
    event = make_event(club, director_user)
    main = services.add_flight(actor=director_user, event=event, name="Main")
    for player in members(club, 3):
        services.register(actor=director_user, flight=main, player=player)
    services.draw_flight(actor=director_user, flight=main, seed=1)
    assert Entry.objects.filter(flight=main, draw_position__isnull=False).count() == 3
    assert selectors.no_shows(flight=main) == []


def test_a_player_checks_in_with_one_tap_on_the_event_page_and_the_home(client, club, director_user):
    event, main, entries = _flight_with_deadline(club, director_user, 2)
    first, second = entries
    client.force_login(first.player.user)
    page = client.get(event.get_absolute_url()).content.decode()
    assert f"Check in — {event.name}, Main" in page
    response = client.post(
        reverse("tournaments:entry-check-in", args=[club.slug, event.slug, "main", first.pk]),
        {"next": event.get_absolute_url()},
    )
    assert response.status_code == 302 and response.url == event.get_absolute_url()
    first.refresh_from_db()
    assert first.status == EntryStatus.CHECKED_IN
    assert f"Check in — {event.name}, Main" not in client.get(event.get_absolute_url()).content.decode()
    client.force_login(second.player.user)
    home = client.get("/").content.decode()
    assert reverse("tournaments:entry-check-in", args=[club.slug, event.slug, "main", second.pk]) in home
    client.post(reverse("tournaments:entry-check-in", args=[club.slug, event.slug, "main", second.pk]), {"next": "/"})
    second.refresh_from_db()
    assert second.status == EntryStatus.CHECKED_IN


def test_after_the_deadline_only_the_director_checks_in(club, director_user, api_as):
    event, main, entries = _flight_with_deadline(club, director_user, 2, deadline_in=-datetime.timedelta(minutes=1))
    url = f"/api/v1/events/{club.slug}/{event.slug}/flights/main/entries/{entries[0].pk}/check-in/"
    refused = api_as(entries[0].player.user).post(url)
    assert refused.status_code == 409 and refused.json()["code"] == "check_in_closed"
    done = api_as(director_user).post(url)
    assert done.status_code == 200 and done.json()["status"] == "checked_in"


def test_the_director_ticks_players_off_and_draws_a_late_arrival_in(client, club, director_user):
    event, main, entries = _flight_with_deadline(club, director_user, 4)
    client.force_login(director_user)
    page = client.get(main.get_absolute_url()).content.decode()
    assert page.count(">Check in</button>") == 4  # one list, one tap each
    for entry in entries[:3]:
        client.post(reverse("tournaments:entry-check-in", args=[club.slug, event.slug, "main", entry.pk]))
    assert Entry.objects.filter(flight=main, status=EntryStatus.CHECKED_IN).count() == 3
    services.draw_flight(actor=director_user, flight=main, seed=3)
    late = entries[3]
    assert "Arrived: check in and draw in late" in client.get(main.get_absolute_url()).content.decode()
    client.post(reverse("tournaments:entry-check-in", args=[club.slug, event.slug, "main", late.pk]))
    late.refresh_from_db()
    assert late.is_late and late.status == EntryStatus.CHECKED_IN
    assert late.draw_position is not None  # into the bye's place of the four-line
    assert selectors.no_shows(flight=main) == []


def test_a_player_left_out_of_the_draw_cannot_tap_themself_in(club, director_user, api_as):
    event, main, entries = _flight_with_deadline(club, director_user, 3)
    for entry in entries[:2]:
        services.check_in(actor=director_user, entry=entry)
    services.draw_flight(actor=director_user, flight=main, seed=1)
    url = f"/api/v1/events/{club.slug}/{event.slug}/flights/main/entries/{entries[2].pk}/check-in/"
    refused = api_as(entries[2].player.user).post(url)
    assert refused.status_code == 409 and refused.json()["code"] == "drawn_without_you"
    assert Entry.objects.get(pk=entries[2].pk).draw_position is None


def test_a_clock_rule_shows_on_the_match_page_and_the_draw_sheet(client, club, director_user, api_as):
    event, flights = drawn_event(club, director_user, 4)
    main = flights["main"]
    response = api_as(director_user).patch(
        f"/api/v1/events/{club.slug}/{event.slug}/flights/main/",
        {"clock_rule": "required", "clock_seconds_per_point": 120, "clock_delay_seconds": 12},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert response.json()["time_control"] == "2 min per point + 12 s delay"
    sheet = client.get(main.get_absolute_url()).content.decode()
    assert "Clock required" in sheet and "2 min per point + 12 s delay" in sheet
    slot = ready_slots(main)[0]
    client.force_login(director_user)
    match_page = client.get(reverse("games:match-detail", args=[slot.match_id])).content.decode()
    assert "Clock required" in match_page and "2 min per point + 12 s delay" in match_page


def test_a_match_without_a_clock_shows_none(client, club, director_user):
    event, flights = drawn_event(club, director_user, 4)
    slot = ready_slots(flights["main"])[0]
    client.force_login(director_user)
    page = client.get(reverse("games:match-detail", args=[slot.match_id])).content.decode()
    assert "per point +" not in page


def test_the_director_sets_the_deadline_and_clock_on_the_flight_page(client, club, director_user):
    event = make_event(club, director_user)
    main = services.add_flight(actor=director_user, event=event, name="Main")
    client.force_login(director_user)
    response = client.post(
        reverse("tournaments:flight-day-settings", args=[club.slug, event.slug, "main"]),
        {
            "check_in_deadline": "2026-05-01T09:30",
            "clock_rule": "preferred",
            "clock_seconds_per_point": "90",
            "clock_delay_seconds": "10",
        },
    )
    assert response.status_code == 302
    main.refresh_from_db()
    assert main.clock_rule == "preferred" and main.time_control() == "90 s per point + 10 s delay"
    assert timezone.localtime(main.check_in_deadline).strftime("%H:%M") == "09:30"


def test_club_durations_come_from_the_started_and_finished_times_of_matches(club, director_user):
    event, flights = drawn_event(club, director_user, 4, length=7)
    first, second = ready_slots(flights["main"])
    win(director_user, first)
    win(director_user, second)
    start = timezone.now() - datetime.timedelta(hours=2)
    for slot, minutes in ((first, 50), (second, 70)):
        finished = start + datetime.timedelta(minutes=minutes)
        Match.objects.filter(pk=slot.match_id).update(started_at=start, finished_at=finished)
    assert selectors.club_durations(club=club).minutes(7) == 60  # (50 + 70) / 2


def test_a_final_score_report_sets_the_start_time(club, director_user):
    event, flights = drawn_event(club, director_user, 4)
    slot = ready_slots(flights["main"])[0]
    win(director_user, slot)
    match = Match.objects.get(pk=slot.match_id)
    assert match.started_at is not None and match.finished_at is not None


def test_the_dashboard_warns_when_a_flight_ends_after_closing(client, club, director_user, api_as):
    event, flights = drawn_event(club, director_user, 8, length=7)
    # No match finished yet: 9 minutes a point, 63 minutes a round, three rounds: 189 minutes from now.
    url = reverse("tournaments:dashboard", args=[club.slug, event.slug])
    client.force_login(director_user)
    soon = timezone.localtime() + datetime.timedelta(hours=2)
    response = client.post(
        reverse("tournaments:event-closing-time", args=[club.slug, event.slug]),
        {"closes_at": soon.strftime("%Y-%m-%dT%H:%M")},
    )
    assert response.status_code == 302
    page = client.get(url).content.decode()
    assert "after the closing time" in page and "Expected round starts" in page
    forecast = api_as(director_user).get(f"/api/v1/events/{club.slug}/{event.slug}/forecast/").json()
    assert forecast[0]["flight"] == "main" and forecast[0]["ends_after_closing"] is True
    assert [r["round"] for r in forecast[0]["rounds"]] == [1, 2, 3]
    later = timezone.localtime() + datetime.timedelta(hours=5)
    services.update_event(actor=director_user, event=event, closes_at=later)
    assert "after the closing time" not in client.get(url).content.decode()
    assert Slot.objects.filter(flight=flights["main"]).exists()
