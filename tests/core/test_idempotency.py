"""Retries are safe (base.idempotency): a write a phone sends again with the same `Idempotency-Key` (the API) or
the same hidden `idempotency_key` (a page's form) is done once, and the retry gets the first answer."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from base.idempotency import REPLAYED_HEADER, sweep_idempotent_requests
from base.models import IdempotentRequest
from chouette.models import SessionEvent
from games.matchplay import services as match_services
from games.models.matches import MatchDispute, MatchReport
from notifications.models import Notification
from ratings.models import RatedMatch
from tests.chouette.factories import table
from tests.clubs.factories import MembershipFactory
from tests.games.matchplay.factories import MatchFactory
from tests.tournaments.builders import drawn_event, ready_slots, win
from tournaments import services as tournament_services
from tournaments.models import Entry, EntryStatus, Slot

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(club):
    return MatchFactory(
        club=club, player_a=MembershipFactory(club=club).player, player_b=MembershipFactory(club=club).player
    )


def twice(client, path, body, key="phone-1", format="json"):
    """The same write sent twice with one key (the first answer lost on the way back); both answers."""
    first = client.post(path, body, format=format, HTTP_IDEMPOTENCY_KEY=key)
    assert 200 <= first.status_code < 300, first.content
    again = client.post(path, body, format=format, HTTP_IDEMPOTENCY_KEY=key)
    assert again.status_code == first.status_code, again.content
    assert again.content == first.content and again[REPLAYED_HEADER] == "true"
    assert REPLAYED_HEADER not in first
    return first


def reported(match, user):
    return match_services.submit_report(actor=user, match=match, method="final_score", scores=(5, 1))[0]


def test_a_retried_report_is_stored_once(api_as, match):
    path = f"/api/v1/matches/{match.pk}/reports/"
    first = twice(api_as(match.player_a.user), path, {"method": "final_score", "score_a": 5, "score_b": 3})
    assert first.status_code == 201
    assert MatchReport.objects.filter(match=match).count() == 1


def test_a_retried_confirmation_confirms_once_notifies_once_and_rates_once(api_as, match):
    reported(match, match.player_a.user)
    client = api_as(match.player_b.user)
    path = f"/api/v1/matches/{match.pk}/confirm/"
    first = client.post(path, {"version": 1}, format="json", HTTP_IDEMPOTENCY_KEY="phone-1")
    assert first.status_code == 200 and first.json()["confirmed"]
    notified, rated = Notification.objects.count(), RatedMatch.objects.filter(match=match).count()
    assert notified >= 1 and rated >= 1  # the confirmation told someone and moved the ratings
    again = client.post(path, {"version": 1}, format="json", HTTP_IDEMPOTENCY_KEY="phone-1")
    assert (again.status_code, again.json()) == (200, first.json()) and again[REPLAYED_HEADER] == "true"
    assert MatchReport.objects.filter(match=match, confirmed=True).count() == 1
    assert Notification.objects.count() == notified and RatedMatch.objects.filter(match=match).count() == rated
    stored = IdempotentRequest.objects.get(key="phone-1")
    assert (stored.user, stored.status_code) == (match.player_b.user, 200)


def test_a_retried_dispute_is_recorded_once(api_as, match):
    reported(match, match.player_a.user)
    body = {"version": 1, "comment": "It was 5-3."}
    first = twice(api_as(match.player_b.user), f"/api/v1/matches/{match.pk}/disputes/", body)
    assert first.status_code == 201
    assert MatchDispute.objects.filter(report__match=match).count() == 1


def test_a_retried_director_override_is_done_once(api_as, match, director_user):
    reported(match, match.player_a.user)
    body = {"method": "final_score", "score_a": 2, "score_b": 5}
    first = twice(api_as(director_user), f"/api/v1/matches/{match.pk}/override/", body)
    assert first.status_code == 201 and first.json()["version"] == 2
    assert MatchReport.objects.filter(match=match).count() == 2


def _flight_url(club, event, tail):
    return f"/api/v1/events/{club.slug}/{event.slug}/flights/main/{tail}"


def test_a_retried_check_in_and_withdrawal_are_done_once(api_as, club, director_user):
    event = tournament_services.create_event(
        actor=director_user, club=club, name="Friday", starts_on=datetime.date(2026, 5, 1)
    )
    main = tournament_services.add_flight(
        actor=director_user, event=event, name="Main", check_in_deadline=timezone.now() + datetime.timedelta(hours=1)
    )
    entry = tournament_services.register(actor=director_user, flight=main, player=MembershipFactory(club=club).player)
    client = api_as(entry.player.user)
    checked = twice(client, _flight_url(club, event, f"entries/{entry.pk}/check-in/"), None)
    assert checked.status_code == 200 and checked.json()["status"] == EntryStatus.CHECKED_IN
    gone = twice(client, _flight_url(club, event, f"entries/{entry.pk}/withdraw/"), {"comment": "ill"}, key="w")
    assert gone.status_code == 204  # before the draw the entry is taken off the list
    assert not Entry.objects.filter(pk=entry.pk).exists()
    assert IdempotentRequest.objects.filter(user=entry.player.user).count() == 2


def test_a_retried_slot_override_is_done_once(api_as, club, director_user):
    event, flights = drawn_event(club, director_user, 4)
    slot = ready_slots(flights["main"])[0]
    win(director_user, slot, 0)
    length = slot.match.length
    body = {"winner_side": 1, "outcome": "played", "score_a": 1, "score_b": length, "comment": "slip misread"}
    first = twice(api_as(director_user), _flight_url(club, event, f"slots/{slot.pk}/override/"), body)
    assert first.status_code == 200
    assert MatchReport.objects.filter(match=slot.match, confirmed=True).count() == 1
    assert MatchReport.objects.filter(match=slot.match).count() == 2
    assert Slot.objects.get(pk=slot.pk).winner_id == slot.entry_b_id


def test_a_retried_chouette_entry_is_entered_once(api_as, club):
    session, players, _ = table(club)
    path = f"/api/v1/chouette/sessions/{session.pk}/games/"
    first = twice(api_as(players["A"].user), path, {"winner": "team", "expected_number": 1})
    assert first.status_code == 201
    assert SessionEvent.objects.filter(session=session, kind="game").count() == 1


def test_the_same_key_with_another_body_or_path_is_refused_with_its_code(api_as, match):
    client = api_as(match.player_a.user)
    path = f"/api/v1/matches/{match.pk}/reports/"
    assert (
        client.post(path, {"method": "final_score", "score_a": 5, "score_b": 3}, HTTP_IDEMPOTENCY_KEY="k").status_code
        == 201
    )
    with translation.override("en"):
        other = client.post(
            path, {"method": "final_score", "score_a": 5, "score_b": 4}, format="json", HTTP_IDEMPOTENCY_KEY="k"
        )
        elsewhere = client.post(
            f"/api/v1/matches/{match.pk}/disputes/", {"version": 1}, format="json", HTTP_IDEMPOTENCY_KEY="k"
        )
    for refused in (other, elsewhere):
        assert refused.status_code == 409
        assert refused.json()["code"] == "idempotency_key_reused" and "different request" in refused.json()["detail"]
    with translation.override("en"):
        german = client.post(
            path,
            {"method": "final_score", "score_a": 1, "score_b": 5},
            HTTP_IDEMPOTENCY_KEY="k",
            HTTP_ACCEPT_LANGUAGE="de",
        )
    assert german.json()["code"] == "idempotency_key_reused" and "Schlüssel" in german.json()["detail"]
    assert MatchReport.objects.filter(match=match).count() == 1


def test_another_user_with_the_same_key_is_another_request(api_as, match):
    path = f"/api/v1/matches/{match.pk}/reports/"
    for user in (match.player_a.user, match.player_b.user):
        body = {"method": "final_score", "score_a": 5, "score_b": 3}
        assert api_as(user).post(path, body, format="json", HTTP_IDEMPOTENCY_KEY="same").status_code == 201
    assert MatchReport.objects.filter(match=match).count() == 2


@pytest.mark.parametrize("key", ["x" * 81, "tab\there", "ünïcode"])
def test_a_malformed_key_is_refused_before_anything_is_done(api_as, match, key):
    with translation.override("en"):
        response = api_as(match.player_a.user).post(
            f"/api/v1/matches/{match.pk}/reports/",
            {"method": "final_score", "score_a": 5, "score_b": 3},
            format="json",
            HTTP_IDEMPOTENCY_KEY=key,
        )
    assert response.status_code == 400
    assert response.json()["code"] == "idempotency_key_invalid" and "80 printable" in response.json()["detail"]
    assert not MatchReport.objects.filter(match=match).exists()


def test_a_refusal_is_not_kept_so_the_retry_does_the_work_once_it_can(api_as, match):
    client = api_as(match.player_b.user)
    path = f"/api/v1/matches/{match.pk}/confirm/"
    early = client.post(path, {"version": 1}, format="json", HTTP_IDEMPOTENCY_KEY="tap")
    assert early.status_code == 400 and not IdempotentRequest.objects.exists()  # no version 1 yet
    reported(match, match.player_a.user)
    later = client.post(path, {"version": 1}, format="json", HTTP_IDEMPOTENCY_KEY="tap")
    assert later.status_code == 200 and later.json()["confirmed"]


def test_keys_are_forgotten_after_a_day(api_as, match):
    path = f"/api/v1/matches/{match.pk}/reports/"
    client = api_as(match.player_a.user)
    client.post(path, {"method": "final_score", "score_a": 5, "score_b": 3}, format="json", HTTP_IDEMPOTENCY_KEY="old")
    client.post(path, {"method": "final_score", "score_a": 5, "score_b": 2}, format="json", HTTP_IDEMPOTENCY_KEY="new")
    IdempotentRequest.objects.filter(key="old").update(created_at=timezone.now() - datetime.timedelta(hours=25))
    sweep_idempotent_requests()
    assert list(IdempotentRequest.objects.values_list("key", flat=True)) == ["new"]


def test_an_expired_key_not_yet_swept_is_a_new_request(api_as, match):
    path = f"/api/v1/matches/{match.pk}/reports/"
    client = api_as(match.player_a.user)
    body = {"method": "final_score", "score_a": 5, "score_b": 3}
    client.post(path, body, format="json", HTTP_IDEMPOTENCY_KEY="k")
    IdempotentRequest.objects.update(created_at=timezone.now() - datetime.timedelta(hours=25))
    again = client.post(path, body, format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert again.status_code == 201 and REPLAYED_HEADER not in again
    assert MatchReport.objects.filter(match=match).count() == 2


# --- the pages: the hidden key their forms carry ----------------------------------------------------------


def test_a_confirm_form_sent_twice_confirms_once(client, match):
    reported(match, match.player_a.user)
    client.force_login(match.player_b.user)
    page = client.get(match.get_absolute_url()).content.decode()
    assert 'name="idempotency_key"' in page  # the confirm form carries its key
    key = page.split('name="idempotency_key" value="')[1].split('"')[0]
    path = reverse("games:match-confirm", args=[match.pk, 1])
    notified = Notification.objects.count()
    first = client.post(path, {"idempotency_key": key})
    told = Notification.objects.count() - notified
    again = client.post(path, {"idempotency_key": key})
    assert first.status_code == again.status_code == 302 and again["Location"] == first["Location"]
    assert MatchReport.objects.filter(match=match, confirmed=True).count() == 1
    assert Notification.objects.count() - notified == told
    assert IdempotentRequest.objects.get(key=key).location == first["Location"]


def test_a_dispute_form_sent_twice_is_recorded_once(client, match):
    reported(match, match.player_a.user)
    client.force_login(match.player_b.user)
    path = reverse("games:match-dispute", args=[match.pk, 1])
    for _ in range(2):
        assert client.post(path, {"comment": "5-3", "idempotency_key": "d1"}).status_code == 302
    assert MatchDispute.objects.filter(report__match=match).count() == 1


def test_a_refused_page_form_keeps_no_key(client, match):
    client.force_login(match.player_b.user)
    path = reverse("games:match-confirm", args=[match.pk, 1])
    client.post(path, {"idempotency_key": "p1"})  # nothing reported yet: refused, shown as a message
    assert not IdempotentRequest.objects.exists()
    reported(match, match.player_a.user)
    client.post(path, {"idempotency_key": "p1"})
    assert MatchReport.objects.filter(match=match, confirmed=True).count() == 1


def test_a_withdrawal_confirmed_twice_is_done_once_and_its_preview_keeps_no_key(client, club, director_user):
    event, flights = drawn_event(club, director_user, 4)
    slot = ready_slots(flights["main"])[0]
    entry = Entry.objects.get(pk=slot.entry_a_id)
    client.force_login(director_user)
    args = [club.slug, event.slug, "main", entry.pk]
    withdraw = reverse("tournaments:entry-withdraw", args=args)
    confirm_page = client.post(withdraw, {"idempotency_key": "preview"})  # after the release: asked first
    assert confirm_page.status_code == 200 and 'name="idempotency_key"' in confirm_page.content.decode()
    for _ in range(2):
        assert client.post(withdraw, {"confirmed": "1", "idempotency_key": "w1"}).status_code == 302
    entry.refresh_from_db()
    assert entry.status == EntryStatus.WITHDRAWN
    assert (
        IdempotentRequest.objects.filter(key="w1").count() == 1
        and not IdempotentRequest.objects.filter(key="preview").exists()
    )


def test_a_check_in_tapped_twice_checks_in_once_and_goes_back_where_it_came_from(client, club, director_user):
    event = tournament_services.create_event(
        actor=director_user, club=club, name="Friday", starts_on=datetime.date(2026, 5, 1)
    )
    main = tournament_services.add_flight(
        actor=director_user, event=event, name="Main", check_in_deadline=timezone.now() + datetime.timedelta(hours=1)
    )
    entry = tournament_services.register(actor=director_user, flight=main, player=MembershipFactory(club=club).player)
    client.force_login(entry.player.user)
    page = client.get(event.get_absolute_url()).content.decode()
    key = page.split('name="idempotency_key" value="')[1].split('"')[0]
    path = reverse("tournaments:entry-check-in", args=[club.slug, event.slug, "main", entry.pk])
    body = {"next": event.get_absolute_url(), "idempotency_key": key}
    first, again = client.post(path, body), client.post(path, body)
    assert first.status_code == again.status_code == 302 and first["Location"] == again["Location"]
    entry.refresh_from_db()
    assert entry.status == EntryStatus.CHECKED_IN
    assert IdempotentRequest.objects.get(key=key).location == event.get_absolute_url()


def test_a_page_form_with_a_key_made_by_hand_is_bad_input(client, match):
    reported(match, match.player_a.user)
    client.force_login(match.player_b.user)
    response = client.post(reverse("games:match-confirm", args=[match.pk, 1]), {"idempotency_key": "x" * 81})
    assert response.status_code == 400
    assert not MatchReport.objects.filter(match=match, confirmed=True).exists()
