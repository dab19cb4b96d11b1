"""Seeding ratings from a rating list (the federation's): a preview row by row, then the flight's draw seeds by
them."""

import pytest
from django.urls import reverse
from django.utils import translation

from base.errors import Conflict, Invalid
from data import rating_lists, services
from tests.clients import web
from tests.tournaments.builders import make_event, members
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def seeded_flight(club, director):
    event = make_event(club, director, name="Ranked Open")
    flight = tournament_services.add_flight(actor=director, event=event, name="Main", seeding="rating")
    players = members(club, 4)
    for player in players:
        tournament_services.register(actor=director, flight=flight, player=player)
    players[0].federation_id = "DBGV-1"
    players[0].save()
    return event, flight, players


def listing(players) -> str:
    return (
        "federation_id;name;rating\n"
        "DBGV-1;;1900\n"  # by federation id
        f";{players[1].name.upper()};1700,5\n"  # by name, any case; a decimal comma
        "X-9;Someone Else;1500\n"  # not entered: left out
        f";{players[2].name};abc\n"  # refused: not a number
        f";{players[1].name};1600\n"  # refused: the same player again
    )


def test_the_preview_says_row_by_row_and_confirming_sets_the_draw_s_seeds(club, director_user):
    event, flight, players = seeded_flight(club, director_user)
    url = reverse("data:seeding-ratings", kwargs={"club": club.slug, "slug": event.slug, "flight": flight.slug})
    client = web(director_user)
    with translation.override("en"):
        preview = client.post(url, {"text": listing(players)})
        assert preview.status_code == 200
        plan = preview.context["plan"]
        assert [(r.line, r.action) for r in plan.rows] == [
            (2, "set"), (3, "set"), (4, "not_entered"), (5, "refuse"), (6, "refuse")
        ]  # fmt: skip
        assert "not a number" in plan.rows[3].reason and "the same player as row 3" in plan.rows[4].reason
        assert sorted(plan.unlisted) == sorted([players[2].name, players[3].name])
        assert not flight.entries.filter(seeding_rating__isnull=False).exists()  # nothing before confirming
        done = client.post(url, {"text": plan.text, "digest": plan.digest, "confirm": "1"})
    assert done.status_code == 302
    ratings = dict(flight.entries.values_list("player_id", "seeding_rating"))
    assert ratings == {players[0].pk: 1900.0, players[1].pk: 1700.5, players[2].pk: None, players[3].pk: None}
    again = rating_lists.plan(flight=flight, text=listing(players))
    assert [r.action for r in again.rows][:2] == ["unchanged", "unchanged"] and not again.ratings
    tournament_services.draw_flight(actor=director_user, flight=flight, seed=5)
    seeds = dict(flight.entries.values_list("player_id", "seed"))
    assert (seeds[players[0].pk], seeds[players[1].pk]) == (1, 2)  # the list's best first, before the club's
    tournament_services.confirm_draw(actor=director_user, flight=flight)
    fresh = listing(players).replace("1900", "1950")
    with pytest.raises(Conflict):
        services.import_seeding_ratings(actor=director_user, flight=flight, text=fresh,
                                        digest=rating_lists.plan(flight=flight, text=fresh).digest)  # fmt: skip


def test_a_changed_flight_shows_the_new_preview_and_bad_files_are_refused_whole(club, director_user, member_user):
    event, flight, players = seeded_flight(club, director_user)
    url = reverse("data:seeding-ratings", kwargs={"club": club.slug, "slug": event.slug, "flight": flight.slug})
    old = rating_lists.plan(flight=flight, text=listing(players))
    tournament_services.register(actor=director_user, flight=flight, player=members(club, 1)[0])
    players[0].federation_id = "DBGV-2"
    players[0].save()
    with translation.override("en"):
        stale = web(director_user).post(url, {"text": old.text, "digest": old.digest, "confirm": "1"})
        assert stale.status_code == 409 and "changed since the preview" in stale.content.decode()
        assert not flight.entries.filter(seeding_rating__isnull=False).exists()
        with pytest.raises(Invalid, match="no rating column"):
            rating_lists.plan(flight=flight, text="federation_id;name\nDBGV-1;Anna\n")
        with pytest.raises(Invalid, match="empty"):
            rating_lists.plan(flight=flight, text="\n \n")
        too_big = web(director_user).post(url, {"text": "x" * (1024 * 1024 + 1)})
        assert too_big.status_code == 400 and "larger than 1 MB" in too_big.content.decode()
    assert web(member_user).get(url).status_code == 403
