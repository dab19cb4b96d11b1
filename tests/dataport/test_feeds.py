"""Calendar feeds, read back with the icalendar library: a club's events, and a person's own tables behind a
revocable token; a private club's feed shows nothing to outsiders."""

import datetime

import pytest
from django.urls import reverse
from icalendar import Calendar

from data.models import FeedToken
from tests.clients import web
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.tournaments.builders import drawn_event, make_event, play_all
from tests.tournaments.rounds_builders import swiss_event
from tournaments import services as tournament_services
from tournaments.services import boards

pytestmark = pytest.mark.django_db


def _events(response) -> list:
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return list(Calendar.from_ical(response.content).walk("VEVENT"))


def _club_feed(club, token=""):
    url = reverse("data:club-feed", kwargs={"slug": club.slug})
    return url + (f"?token={token}" if token else "")


def _token(user) -> str:
    web(user).post(reverse("data:calendar"), {"do": "new"})
    return FeedToken.objects.get(user=user).token


def test_a_club_feed_lists_its_public_events_as_all_day_events(club, director_user):
    event = make_event(club, director_user, name="Winter Cup")
    hidden = make_event(club, director_user, name="Members Night", is_public=False)
    events = _events(web().get(_club_feed(club)))
    assert [str(e["summary"]) for e in events] == ["Winter Cup"]
    item = events[0]
    assert item.decoded("dtstart") == event.starts_on
    assert item.decoded("dtend") == event.ends_on + datetime.timedelta(days=1)
    assert str(item["url"]).endswith(event.get_absolute_url())
    assert str(item["uid"]) == f"event-{event.pk}@bgclub"
    member = MembershipFactory(club=club).player.user  # a member's token shows the members' event too
    summaries = {str(e["summary"]) for e in _events(web().get(_club_feed(club, _token(member))))}
    assert summaries == {"Winter Cup", hidden.name}


def test_a_private_club_s_feed_shows_nothing_to_outsiders(outsider_user):
    hidden = ClubFactory(is_public=False)
    director = MembershipFactory(club=hidden, role="director").player.user
    make_event(hidden, director, name="Secret Open")
    assert web().get(_club_feed(hidden)).status_code == 404
    assert web(outsider_user).get(_club_feed(hidden)).status_code == 404
    assert web().get(_club_feed(hidden, _token(outsider_user))).status_code == 404
    assert [str(e["summary"]) for e in _events(web().get(_club_feed(hidden, _token(director))))] == ["Secret Open"]


def test_my_feed_has_my_paired_tables_and_moves_the_entry_when_the_board_is_called(club, director_user):
    event, flight = swiss_event(club, director_user, 4, rounds=2)
    tournament_services.start_round(actor=director_user, flight=flight)
    player = flight.entries.order_by("pk").first().player
    user = player.user
    token = _token(user)
    url = reverse("data:matches-feed", kwargs={"token": token})
    events = _events(web().get(url))  # a calendar app: no session, the token only
    assert len(events) == 1
    summary = str(events[0]["summary"])
    assert summary.startswith("Round 1, table ") and player.name in summary
    uid = str(events[0]["uid"])

    boards.set_boards(actor=director_user, event=event, count=2)
    call = boards.call_next(actor=director_user, event=event)
    boards.call_next(actor=director_user, event=event)  # both tables of round 1 are called
    events = _events(web().get(url))
    assert [str(e["uid"]) for e in events] == [uid]  # the same entry, moved: no second one
    assert " · Board " in str(events[0]["summary"])
    called = events[0].decoded("dtstart")
    assert abs(called - call.called_at) < datetime.timedelta(minutes=5)
    assert events[0].decoded("dtend") - called == datetime.timedelta(hours=1)


def test_a_finished_table_leaves_the_feed(club, director_user):
    event, flights = drawn_event(club, director_user, 2)
    player = flights["main"].entries.first().player
    url = reverse("data:matches-feed", kwargs={"token": _token(player.user)})
    assert len(_events(web().get(url))) == 1
    play_all(director_user, [flights["main"]])
    assert _events(web().get(url)) == []


def test_a_revoked_link_stops_working_and_a_new_one_is_another(member_user):
    first = _token(member_user)
    assert web().get(reverse("data:matches-feed", kwargs={"token": first})).status_code == 200
    second = _token(member_user)
    assert second != first and len(second) >= 40
    assert web().get(reverse("data:matches-feed", kwargs={"token": first})).status_code == 404
    web(member_user).post(reverse("data:calendar"), {"do": "revoke"})
    assert web().get(reverse("data:matches-feed", kwargs={"token": second})).status_code == 404
    assert not FeedToken.objects.filter(user=member_user).exists()


def test_the_calendar_page_shows_the_link_to_copy(member_user):
    token = _token(member_user)
    body = web(member_user).get(reverse("data:calendar")).content.decode()
    assert f"/feeds/{token}/matches.ics" in body
    assert web().get(reverse("data:calendar")).status_code == 302  # sign in first
