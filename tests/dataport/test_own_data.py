"""A person's own data: the JSON download, and leaving (account deleted, player anonymised, others' records
whole, the club's directors told)."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from calcutta.models import Bidder
from chouette import services as chouette_services
from chouette.models import LedgerEntry
from clubs.models import BankAccount, Membership, Player
from data.models import FeedToken
from games.models import Match
from notifications.models import Notification
from ratings.models import RatedMatch
from tests.chouette.factories import table
from tests.clients import web
from tests.clubs.factories import MembershipFactory
from tests.tournaments.builders import drawn_event, play_all
from tournaments.models import Entry

pytestmark = pytest.mark.django_db
User = get_user_model()
PASSWORD = "pw-for-tests"


def _history(club, director_user):
    """A player with a played bracket, a chouette game, a Calcutta bidder line and club details on file."""
    event, flights = drawn_event(club, director_user, 4)
    play_all(director_user, [flights["main"]])
    entry = flights["main"].entries.get(place=1)
    player = entry.player
    Membership.objects.filter(club=club, player=player).update(email="p@example.org", number="M-1", rating=1600)
    player.country, player.federation_id, player.display_name = "DE", "DBGV-1", "Nightowl"
    player.save()
    session, players, actor = table(club, names=("Box", "Crew", "Mate"))
    chouette_services.record_game(actor=actor, session=session, game={"winner": "team"})
    Bidder.objects.create(calcutta=_calcutta(club, director_user), name=player.name, user=player.user, player=player)
    return player, flights["main"]


def _calcutta(club, director_user):
    from calcutta import services as calcutta_services
    from tests.calcutta.rows import make_flight

    flight = make_flight(club, names=["X1", "X2"], slug="side")
    return calcutta_services.create_calcutta(actor=director_user, flight=flight, payout_places=["100"])


def test_the_download_holds_everything_stored_about_the_person_and_no_secret(club, director_user):
    player, _flight = _history(club, director_user)
    user = player.user
    web(user).post(reverse("data:calendar"), {"do": "new"})
    response = web(user).get(reverse("data:my-data-json"))
    assert response.status_code == 200 and response["Content-Type"] == "application/json; charset=utf-8"
    data = json.loads(response.content)
    assert data["account"][0]["username"] == user.username
    assert "password" not in data["account"][0]
    assert data["player"][0]["federation_id"] == "DBGV-1" and data["player"][0]["display_name"] == "Nightowl"
    assert data["memberships"][0]["number"] == "M-1"
    assert len(data["entries"]) == 1 and data["entries"][0]["place"] == 1
    assert len(data["matches"]) == 2 and len(data["match_reports"]) >= 2  # every version of every report
    assert data["calcutta_bidders"][0]["name"] == player.name
    assert data["calendar_feed"] and "token" not in data["calendar_feed"][0]
    assert FeedToken.objects.get(user=user).token not in response.content.decode()
    assert web().get(reverse("data:my-data-json")).status_code == 302  # sign in first


def test_leaving_deletes_the_account_and_anonymises_the_player_keeping_others_records_whole(club, director_user):
    player, flight = _history(club, director_user)
    user = player.user
    BankAccount.objects.create(player=player, holder="Own Name", iban="DE89370400440532013000")
    matches_before = Match.objects.filter(player_a=player).count() + Match.objects.filter(player_b=player).count()
    rated_before = RatedMatch.objects.count()
    entries_before = Entry.objects.filter(flight=flight).count()
    client = web(user)
    with translation.override("en"):
        wrong = client.post(reverse("data:leave"), {"password": "not it"})
    assert wrong.status_code == 400 and User.objects.filter(pk=user.pk).exists()
    response = client.post(reverse("data:leave"), {"password": PASSWORD})
    assert response.status_code == 302

    assert not User.objects.filter(pk=user.pk).exists()
    player.refresh_from_db()
    # The personal columns checked after leaving:
    assert player.name == f"Former player {player.pk}"
    assert (player.user_id, player.country, player.federation_id, player.display_name) == (None, "", "", "")
    membership = Membership.objects.get(club=club, player=player)
    assert (membership.email, membership.number, membership.rating, membership.is_active) == ("", "", None, False)
    assert not BankAccount.objects.filter(player=player).exists()
    bidder = Bidder.objects.get(player=player)
    assert (bidder.name, bidder.user_id) == (f"Former player {player.pk}", None)
    assert not FeedToken.objects.filter(user_id=user.pk).exists()
    assert not Notification.objects.filter(recipient_id=user.pk).exists()
    # Everyone else's records stay whole: the bracket, the matches, the ratings.
    assert Entry.objects.filter(flight=flight).count() == entries_before
    assert Match.objects.filter(player_a=player).count() + Match.objects.filter(player_b=player).count() == (
        matches_before
    )
    assert RatedMatch.objects.count() == rated_before
    assert flight.entries.get(place=1).player_id == player.pk
    # The club's directors are told, by the anonymous name only.
    notice = Notification.objects.get(recipient=director_user, kind="member_left")
    assert notice.params == {"former": f"Former player {player.pk}", "club": club.name}
    # Signed out: the session is gone with the account.
    assert client.get(reverse("data:my-data")).status_code == 302


def test_a_chouette_ledger_keeps_the_lines_of_one_who_left(club):
    session, players, director = table(club, names=("Ann", "Ben", "Cy"))
    for name in ("Ann", "Ben", "Cy"):
        user = User.objects.create_user(username=f"u-{name}", password=PASSWORD)
        Player.objects.filter(pk=players[name].pk).update(user=user)
    chouette_services.record_game(actor=director, session=session, game={"winner": "team"})
    lines = LedgerEntry.objects.filter(session=session).count()
    web(User.objects.get(username="u-Ben")).post(reverse("data:leave"), {"password": PASSWORD})
    assert LedgerEntry.objects.filter(session=session).count() == lines
    assert sum(LedgerEntry.objects.filter(session=session).values_list("cents", flat=True)) == 0
    assert Player.objects.get(pk=players["Ben"].pk).name == f"Former player {players['Ben'].pk}"


def test_only_the_person_can_leave_and_only_with_the_password(club, member_user):
    other = MembershipFactory(club=club).player.user
    web(other).post(reverse("data:leave"), {"password": "pw-for-tests-wrong"})
    assert User.objects.filter(pk=other.pk).exists()
    assert web().post(reverse("data:leave"), {"password": PASSWORD}).status_code == 302  # to the sign-in page
    assert User.objects.filter(pk=member_user.pk).exists()
