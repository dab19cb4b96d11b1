"""Every place others see a player, checked for the display name: where the club allows display names, anonymous
visitors and other players see the display name and never the name; the player and the club's directors see
the name; where the club does not allow them (the default), everyone sees the name. PLACES lists each page and
API answer checked (a place added to the site that names players belongs in it)."""

import pytest
from django.urls import reverse
from django.utils import translation

from chouette import services as chouette_services
from clubs import services as club_services
from clubs.models import Club
from games.matchplay import services as match_services
from games.matchplay.services.play import create_match
from games.models.matches import MatchContext
from notifications.models import Notification
from tests.clients import web
from tests.clubs.factories import MembershipFactory
from tests.schema_check import SchemaCheckingClient

pytestmark = pytest.mark.django_db
PSEUDONYM = "Nightowl 7"
REAL = "Theodora Quist"


@pytest.fixture
def scene(club):
    """The player with a display name (and an account), another member, a director and an admin of the club, a
    club match of the two players and a chouette table with both seated."""
    player = MembershipFactory(club=club, player__name=REAL).player
    club_services.update_player(actor=player.user, player=player, display_name=PSEUDONYM)
    other = MembershipFactory(club=club, player__name="Otto Other").player
    director = MembershipFactory(club=club, role="director").player.user
    admin = MembershipFactory(club=club, role="admin").player.user
    match = create_match(
        actor=director, player_a=player, player_b=other, length=5, context=MatchContext.CLUB_NIGHT, club=club
    )
    third = MembershipFactory(club=club, player__name="Tilda Third").player
    seated = [player, other, third]
    table = chouette_services.create_session(
        actor=director, club=club, players=seated, stake_cents=100, order=[p.pk for p in seated]
    )
    return {"club": club, "player": player, "other": other, "director": director, "admin": admin,
            "match": match, "table": table}  # fmt: skip


def _page(path):
    def read(user, s):
        response = web(user).get(path(s))
        assert response.status_code == 200, path(s)
        return response.content.decode()

    return read


def _api(path):
    def read(user, s):
        client = SchemaCheckingClient()
        if user is not None:
            client.force_authenticate(user)
        response = client.get(path(s))
        assert response.status_code == 200, path(s)
        return response.content.decode()

    return read


#: Each place others see the player: (name, how to read it as a user).
PLACES = {
    "member list": _page(lambda s: s["club"].get_absolute_url()),
    "player page": _page(lambda s: s["player"].get_absolute_url()),
    "match page": _page(lambda s: s["match"].get_absolute_url()),
    "club leaderboard": _page(lambda s: reverse("ratings:leaderboard", kwargs={"slug": s["club"].slug})),
    "club rating page": _page(
        lambda s: reverse("ratings:player-rating", kwargs={"pk": s["player"].pk}) + f"?club={s['club'].slug}"
    ),
    "overall rating page": _page(lambda s: reverse("ratings:player-rating", kwargs={"pk": s["player"].pk})),
    "head to head": _page(
        lambda s: (
            reverse("ratings:head-to-head", kwargs={"pk": s["other"].pk, "other": s["player"].pk})
            + f"?club={s['club'].slug}"
        )
    ),
    "chouette table": _page(
        lambda s: reverse("chouette:session-detail", kwargs={"slug": s["club"].slug, "pk": s["table"].pk})
    ),
    "API players": _api(lambda s: "/api/v1/players/"),
    "API player": _api(lambda s: f"/api/v1/players/{s['player'].pk}/"),
    "API memberships": _api(lambda s: "/api/v1/memberships/"),
    "API match": _api(lambda s: f"/api/v1/matches/{s['match'].pk}/"),
    "API leaderboard": _api(lambda s: f"/api/v1/ratings/clubs/{s['club'].slug}/leaderboard/"),
    "API chouette table": _api(lambda s: f"/api/v1/chouette/sessions/{s['table'].pk}/"),
    "API chouette state": _api(lambda s: f"/api/v1/chouette/sessions/{s['table'].pk}/live/"),
}


def _allow(scene, allowed: bool):
    club_services.update_club(actor=scene["admin"], club=scene["club"], allow_display_names=allowed)


@pytest.mark.parametrize("place", PLACES)
def test_others_see_the_display_name_where_the_club_allows_it(scene, place):
    read = PLACES[place]
    _allow(scene, True)
    with translation.override("en"):
        for who, user in (("anonymous", None), ("another player", scene["other"].user)):
            text = read(user, scene)
            assert PSEUDONYM in text and REAL not in text, (place, who)
        for who, user in (("the player", scene["player"].user), ("a director", scene["director"])):
            text = read(user, scene)
            assert REAL in text, (place, who)


@pytest.mark.parametrize("place", PLACES)
def test_everyone_sees_the_name_where_the_club_does_not_allow_display_names(scene, place):
    read = PLACES[place]
    assert Club.objects.get(pk=scene["club"].pk).allow_display_names is False  # the default
    with translation.override("en"):
        for user in (None, scene["other"].user, scene["director"]):
            text = read(user, scene)
            assert REAL in text and PSEUDONYM not in text, (place, user)


def test_the_players_api_name_filter_matches_the_name_the_caller_sees(scene, api_as):
    _allow(scene, True)
    real_part, pseudonym_part = "Quist", "Nightowl"
    assert api_as(None).get(f"/api/v1/players/?name={real_part}").json()["results"] == []  # no unmasking
    found = api_as(None).get(f"/api/v1/players/?name={pseudonym_part}").json()["results"]
    assert [p["id"] for p in found] == [scene["player"].pk] and found[0]["name"] == PSEUDONYM
    assert api_as(scene["other"].user).get(f"/api/v1/players/?name={real_part}").json()["results"] == []
    directed = api_as(scene["director"]).get(f"/api/v1/players/?name={real_part}").json()["results"]
    assert [(p["id"], p["name"]) for p in directed] == [(scene["player"].pk, REAL)]
    assert "display_name" not in found[0]  # never both


def test_the_players_own_page_says_how_others_see_them(scene):
    _allow(scene, True)
    with translation.override("en"):
        page = web(scene["player"].user).get(scene["player"].get_absolute_url()).content.decode()
    assert f"Shown to others as {PSEUDONYM}" in page and reverse("clubs:display-name") in page
    assert f"<h1>{REAL}</h1>" in page


def test_only_the_clubs_admins_turn_the_switch_on_its_settings_page_and_in_the_api(scene, api_as):
    club, url = scene["club"], reverse("clubs:club-settings", kwargs={"slug": scene["club"].slug})
    assert web(scene["director"]).get(url).status_code == 403
    assert web(scene["director"]).post(url, {"allow_display_names": "on"}).status_code == 403
    admin = web(scene["admin"])
    with translation.override("en"):
        assert "Allow display names" in admin.get(url).content.decode()
        assert "Club settings" in admin.get(club.get_absolute_url()).content.decode()
        assert "Club settings" not in web(scene["director"]).get(club.get_absolute_url()).content.decode()
    assert admin.post(url, {"allow_display_names": "on"}).status_code == 302
    assert Club.objects.get(pk=club.pk).allow_display_names is True
    admin.post(url, {})
    assert Club.objects.get(pk=club.pk).allow_display_names is False
    refused = api_as(scene["director"]).patch(f"/api/v1/clubs/{club.slug}/", {"allow_display_names": True})
    assert refused.status_code == 403 and Club.objects.get(pk=club.pk).allow_display_names is False
    done = api_as(scene["admin"]).patch(f"/api/v1/clubs/{club.slug}/", {"allow_display_names": True}, format="json")
    assert done.status_code == 200 and done.json()["allow_display_names"] is True


def test_a_notification_to_the_opponent_names_the_player_as_the_club_shows_them(
    scene, django_capture_on_commit_callbacks
):
    match = scene["match"]
    with django_capture_on_commit_callbacks(execute=True):
        match_services.submit_report(actor=scene["player"].user, match=match, method="final_score", scores=(5, 1))
    first = Notification.objects.filter(recipient=scene["other"].user).order_by("-pk").first()
    assert first.params["opponent"] == REAL  # not allowed yet
    _allow(scene, True)
    with django_capture_on_commit_callbacks(execute=True):
        match_services.submit_report(actor=scene["player"].user, match=match, method="final_score", scores=(5, 2))
    latest = Notification.objects.filter(recipient=scene["other"].user).order_by("-pk").first()
    assert latest.params["opponent"] == PSEUDONYM
