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
from games.models.matches import MatchContext, MatchOutcome, MatchStatus
from notifications.models import Notification
from tests.clients import web
from tests.clubs.factories import MembershipFactory
from tests.games.matchplay.factories import MatchFactory
from tests.schema_check import SchemaCheckingClient
from tests.tournaments.builders import make_event, ready_slots, win
from tournaments import services as tournament_services

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
    # a result the player won (the match page's "… wins" line) and a walkover they won (the match list names it)
    won = MatchFactory(
        club=club,
        player_a=other,
        player_b=player,
        status=MatchStatus.FINISHED,
        score_a=1,
        score_b=5,
        winner=player,
        outcome=MatchOutcome.PLAYED,
    )
    walkover = MatchFactory(
        club=club,
        player_a=player,
        player_b=other,
        status=MatchStatus.FORFEITED,
        winner=player,
        outcome=MatchOutcome.WALKOVER,
    )
    return {"club": club, "player": player, "other": other, "director": director, "admin": admin,
            "match": match, "table": table, "won": won, "walkover": walkover}  # fmt: skip


def _released_main(s):
    """A released knockout of the club between the player and the other player (first place 70 % of the fees)."""
    director = s["director"]
    event = make_event(s["club"], director)
    main = tournament_services.add_flight(
        actor=director,
        event=event,
        name="Main",
        entry_fee=10,
        payout_template=[{"place": 1, "percent": 70}, {"place": 2, "percent": 30}],
    )
    for entrant in (s["player"], s["other"]):
        tournament_services.register(actor=director, flight=main, player=entrant)
    tournament_services.draw_flight(actor=director, flight=main, seed=7)
    tournament_services.confirm_draw(actor=director, flight=main)
    tournament_services.release_draw(actor=director, flight=main)
    return main


def _prized_event(s):
    """An event of the club whose main the player won, built on first use."""
    if "event" not in s:
        main = _released_main(s)
        slot = ready_slots(main)[0]
        win(s["director"], slot, 0 if slot.match.player_a_id == s["player"].pk else 1)
        s["event"] = main.event
    return s["event"]


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


def _team_flight(s):
    """The API address of a released team flight of the club, the player on board 1 of one team and the other
    player on board 1 of the other, built on first use."""
    if "team_flight" not in s:
        director, club = s["director"], s["club"]
        event = make_event(club, director)
        flight = tournament_services.add_flight(
            actor=director, event=event, name="Nations Cup", slug="nations", team_kind="team", team_size=2, length=3
        )
        teams = [
            tournament_services.register_team(
                actor=director, flight=flight, players=[first, MembershipFactory(club=club).player], team_name=team
            )
            for first, team in ((s["player"], "Team A"), (s["other"], "Team B"))
        ]
        tournament_services.draw_flight(actor=director, flight=flight, seed=5)
        tournament_services.confirm_draw(actor=director, flight=flight)
        tournament_services.release_draw(actor=director, flight=flight)
        s["team"], s["team_slot"] = teams[0].pk, ready_slots(flight)[0].pk
        s["team_flight"] = f"/api/v1/events/{club.slug}/{event.slug}/flights/{flight.slug}/"
    return s["team_flight"]


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
    "match page result": _page(lambda s: s["won"].get_absolute_url()),
    "match page walkover": _page(lambda s: s["walkover"].get_absolute_url()),
    "match list": _page(lambda s: reverse("games:match-list")),
    "prize list": _page(
        lambda s: reverse("tournaments:prizes", kwargs={"club": s["club"].slug, "slug": _prized_event(s).slug})
    ),
    "API prizes": _api(lambda s: f"/api/v1/events/{s['club'].slug}/{_prized_event(s).slug}/prizes/"),
    "API team members": _api(lambda s: _team_flight(s) + f"entries/{s['team']}/members/"),
    "API team boards": _api(lambda s: _team_flight(s) + f"slots/{s['team_slot']}/boards/"),
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


def _read_before_and_after_allowing(scene, read):
    """What the other player reads (`read` with their client) before and after the club allows display names."""
    with translation.override("en"):
        before = read(web(scene["other"].user)).content.decode()
        _allow(scene, True)
        return before, read(web(scene["other"].user)).content.decode()


def test_the_take_back_page_names_the_box_and_who_entered_the_game_as_the_club_shows_them(scene):
    """The player entered a game they were the box of; another player, who may not take it back, is told who
    may: by the display name where the club allows it."""
    table = scene["table"]
    chouette_services.record_game(actor=scene["player"].user, session=table, game={"winner": "team"})
    url = reverse("chouette:session-undo-game", kwargs={"slug": scene["club"].slug, "pk": table.pk})
    before, after = _read_before_and_after_allowing(scene, lambda other: other.get(url))
    assert f"Entered by {REAL}; {REAL} was the box." in before
    assert f"Entered by {PSEUDONYM}; {PSEUDONYM} was the box." in after and REAL not in after


def test_the_withdrawal_question_names_the_opponent_who_gets_the_walkover_as_the_club_shows_them(scene):
    main = _released_main(scene)
    own = main.entries.get(player=scene["other"])
    url = reverse(
        "tournaments:entry-withdraw",
        kwargs={"club": scene["club"].slug, "slug": main.event.slug, "flight": main.slug, "pk": own.pk},
    )
    before, after = _read_before_and_after_allowing(scene, lambda other: other.post(url))
    assert f"{REAL} wins the round 1 match by walkover." in before
    assert f"{PSEUDONYM} wins the round 1 match by walkover." in after and REAL not in after
