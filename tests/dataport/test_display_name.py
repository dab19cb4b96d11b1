"""A display name (pseudonym) for public pages: where the club allows display names, its brackets, standings,
embeds and public downloads show it; the directors of the player's clubs still see the name. A club that does
not allow them (the default) shows the name everywhere."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import translation

from base.errors import Invalid
from clubs import services as club_services
from clubs.models import Player
from tests.clients import web
from tests.clubs.factories import MembershipFactory
from tests.dataport.test_exports import read
from tests.tournaments.builders import drawn_event
from tests.tournaments.rounds_builders import play_round, swiss_event
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db
PSEUDONYM = "Nightowl 7"


def allow_display_names(club, allowed=True):
    """The club's admin turns the switch (as on the club settings page)."""
    admin = MembershipFactory(club=club, role="admin").player.user
    club_services.update_club(actor=admin, club=club, allow_display_names=allowed)
    club.refresh_from_db()


def _names(event, flight):
    return {"club": event.club.slug, "slug": event.slug, "flight": flight.slug}


def test_public_pages_and_files_show_the_display_name_and_directors_the_name(club, director_user):
    event, flights = drawn_event(club, director_user, 4)
    main = flights["main"]
    player = main.entries.order_by("pk").first().player
    real = player.name
    anonymous = web()
    bracket = main.get_absolute_url()
    assert real in anonymous.get(bracket).content.decode()  # rendered (and cached) before the change
    club_services.update_player(actor=player.user, player=player, display_name=f"  {PSEUDONYM} ")
    assert Player.objects.get(pk=player.pk).display_name == PSEUDONYM  # kept without the spaces
    page = anonymous.get(bracket).content.decode()
    assert real in page and PSEUDONYM not in page  # the club has not allowed display names (the default)
    allow_display_names(club)
    page = anonymous.get(bracket).content.decode()
    assert PSEUDONYM in page and real not in page  # the cached bracket was rendered again
    embed = anonymous.get(reverse("data:embed", kwargs=_names(event, main))).content.decode()
    assert PSEUDONYM in embed and real not in embed
    with translation.override("en"):
        _header, rows, text = read(anonymous.get(reverse("data:flight-entries", kwargs=_names(event, main))))
        assert PSEUDONYM in [row[0] for row in rows] and real not in text
        results = reverse("data:event-results", kwargs={"club": club.slug, "slug": event.slug})
        _header, rows, text = read(anonymous.get(results))
        assert real not in text
    # the director's pages and files: the name
    director = web(director_user)
    payments = director.get(reverse("tournaments:flight-payments", kwargs=_names(event, main))).content.decode()
    assert real in payments and PSEUDONYM not in payments
    entries_box = director.get(event.get_absolute_url()).content.decode()
    assert real in entries_box.split('class="entrants', 1)[1].split("</p>", 1)[0]
    with translation.override("en"):
        _header, rows, _text = read(director.get(reverse("data:flight-entries", kwargs=_names(event, main))))
    assert real in [row[0] for row in rows]


def test_a_swiss_standings_table_shows_the_display_name(club, director_user):
    event, flight = swiss_event(club, director_user, 4, rounds=2)
    tournament_services.start_round(actor=director_user, flight=flight)
    play_round(director_user, flight)
    player = flight.entries.order_by("pk").first().player
    club_services.update_player(actor=player.user, player=player, display_name=PSEUDONYM)
    allow_display_names(club)
    page = web().get(flight.get_absolute_url()).content.decode()
    assert PSEUDONYM in page and player.name not in page
    with translation.override("en"):
        _header, rows, text = read(web().get(reverse("data:flight-standings", kwargs=_names(event, flight))))
    assert PSEUDONYM in [row[1] for row in rows] and player.name not in text


@pytest.mark.parametrize(
    "typed", ["   ", "x" * 41, "two\nlines", "tab\there", "turn\u202earound", "zero\u200bwidth", "---", "\x00"]
)
def test_a_bad_display_name_is_refused_with_a_message(member_user, typed):
    player = member_user.player
    with translation.override("en"), pytest.raises(Invalid) as refusal:
        club_services.update_player(actor=member_user, player=player, display_name=typed)
    assert str(refusal.value) and refusal.value.field == "display_name"
    assert Player.objects.get(pk=player.pk).display_name == ""


def test_only_the_player_sets_it_and_the_page_saves_and_clears_it(member_user, director_user):
    player = member_user.player
    with pytest.raises(PermissionDenied):
        club_services.update_player(actor=director_user, player=player, display_name="Theirs")
    client = web(member_user)
    url = reverse("clubs:display-name")
    assert client.post(url, {"display_name": PSEUDONYM}).status_code == 302
    assert Player.objects.get(pk=player.pk).display_name == PSEUDONYM
    with translation.override("en"):
        refused = client.post(url, {"display_name": ""}, follow=True).content.decode()
        assert "only spaces" in refused
    assert Player.objects.get(pk=player.pk).display_name == PSEUDONYM
    client.post(url, {"action": "clear"})
    assert Player.objects.get(pk=player.pk).display_name == ""
    assert web().get(url).status_code == 302  # sign in first
