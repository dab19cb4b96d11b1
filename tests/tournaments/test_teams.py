"""Doubles and consultation: a flight whose entries are pairs, entered by a director, played as one match
between the captains, shown as "Anna & Ben" everywhere, and rated for no one."""

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from base.api import Conflict
from games.models.matches import Match
from ratings.services.pools import club_pool, overall_pool, rateable_matches
from tests.refusals import PermissionDenied, ValidationError
from tests.tournaments.builders import make_event, members, play_all, ready_slots, win
from tournaments import selectors, services
from tournaments.models import EntryMember, Flight, Pairing

pytestmark = pytest.mark.django_db


def pair_flight(club, director, pairs, *, team_kind="doubles", release=True, **kwargs):
    event = make_event(club, director)
    flight = services.add_flight(
        actor=director, event=event, name="Doubles", slug="doubles", team_kind=team_kind, **kwargs
    )
    players = members(club, 2 * pairs)
    entries = [
        services.register_team(actor=director, flight=flight, players=players[i : i + 2])
        for i in range(0, 2 * pairs, 2)
    ]
    if release:
        services.draw_flight(actor=director, flight=flight, seed=3)
        services.confirm_draw(actor=director, flight=flight)
        services.release_draw(actor=director, flight=flight)
        flight.refresh_from_db()
    return flight, players, entries


def test_a_doubles_flight_has_pairs_of_two(club, director_user):
    event = make_event(club, director_user)
    flight = services.add_flight(actor=director_user, event=event, name="Doubles", team_kind="doubles")
    assert (flight.team_kind, flight.team_size, flight.is_team_event) == ("doubles", 2, True)
    singles = services.add_flight(actor=director_user, event=event, name="Main")
    assert (singles.team_kind, singles.team_size, singles.is_team_event) == ("singles", 1, False)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"team_kind": "trios"}, "team_kind"),
        ({"team_kind": "team", "team_size": 3, "kind": "jackpot", "pod_size": 4}, "team_kind"),
        ({"team_kind": "doubles", "team_size": 3}, "team_size"),
        ({"team_kind": "singles", "team_size": 2}, "team_size"),
        ({"team_kind": "consultation", "kind": "jackpot", "pod_size": 4}, "team_kind"),
    ],
)
def test_impossible_team_settings_are_refused_with_what_would_work(club, director_user, kwargs, field):
    event = make_event(club, director_user)
    with pytest.raises(ValidationError) as refused:
        services.add_flight(actor=director_user, event=event, name="X", **kwargs)
    assert field in refused.value.message_dict


def test_no_flight_is_fed_by_a_pair_flight(club, director_user):
    event = make_event(club, director_user)
    doubles = services.add_flight(actor=director_user, event=event, name="Doubles", team_kind="doubles")
    with pytest.raises(ValidationError) as refused:
        services.add_flight(actor=director_user, event=event, name="Cons", kind="consolation", source=doubles)
    assert "Doubles" in refused.value.message_dict["source"][0]  # names the source (in any language)


def test_the_database_ties_the_size_to_the_kind(club, director_user):
    event = make_event(club, director_user)
    with pytest.raises(IntegrityError), transaction.atomic():
        Flight.objects.create(event=event, name="X", slug="x", team_kind="doubles", team_size=3)


def test_a_director_enters_a_pair_named_after_its_players(club, director_user):
    flight, players, entries = pair_flight(club, director_user, 2, release=False)
    entry = entries[0]
    assert entry.player == players[0]  # the captain
    assert entry.name == f"{players[0].name} & {players[1].name}"
    assert [m.player for m in selectors.entry_members(entry=entry)] == players[:2]
    named = services.register_team(
        actor=director_user, flight=flight, players=members(club, 2), team_name="  The Doublers "
    )
    assert named.name == "The Doublers"


def test_a_player_is_in_one_pair_per_flight(club, director_user):
    flight, players, _entries = pair_flight(club, director_user, 2, release=False)
    with pytest.raises(Conflict):
        services.register_team(actor=director_user, flight=flight, players=[players[0], members(club, 1)[0]])
    with pytest.raises(IntegrityError), transaction.atomic():
        EntryMember.objects.create(entry=_entries[1], flight=flight, player=players[0], order=3)


def test_a_pair_is_two_different_players_in_a_pair_flight(club, director_user):
    flight, players, _entries = pair_flight(club, director_user, 1, release=False)
    other = members(club, 3)
    with pytest.raises(ValidationError):
        services.register_team(actor=director_user, flight=flight, players=[other[0], other[0]])
    with pytest.raises(ValidationError):
        services.register_team(actor=director_user, flight=flight, players=other)
    with pytest.raises(ValidationError):  # one player alone is no pair
        services.register(actor=director_user, flight=flight, player=other[0])
    singles = services.add_flight(actor=director_user, event=flight.event, name="Main")
    with pytest.raises(ValidationError):
        services.register_team(actor=director_user, flight=singles, players=other[:2])


def test_a_player_cannot_put_a_partner_on_an_entry(club, director_user):
    """Consent before anyone's data changes: only a director enters a pair; a player names only themself."""
    flight, _players, _entries = pair_flight(club, director_user, 1, release=False)
    me, partner = members(club, 2)
    with pytest.raises(PermissionDenied):
        services.register_team(actor=me.user, flight=flight, players=[me, partner])
    assert not flight.entries.filter(player=me).exists()


def test_a_pair_does_not_re_enter(club, director_user):
    flight, players, entries = pair_flight(club, director_user, 4, reentry_fee=5)
    play_all(director_user, [flight])
    loser = next(e for e in flight.entries.all() if e.place and e.place > 1)
    with pytest.raises(Conflict):
        services.reenter(actor=director_user, flight=flight, player=loser.player)


@pytest.mark.parametrize("team_kind", ["doubles", "consultation"])
def test_a_pair_knockout_is_played_to_the_end_and_rated_for_no_one(club, director_user, team_kind):
    flight, players, entries = pair_flight(club, director_user, 4, team_kind=team_kind)
    match = ready_slots(flight)[0].match
    assert {match.player_a, match.player_b} <= {e.player for e in entries}  # the captains play the match
    play_all(director_user, [flight])
    flight.refresh_from_db()
    assert flight.status == "finished"
    places = sorted(p.place for p in selectors.flight_placements(flight=flight))
    assert places[0] == 1 and None not in places
    played = Match.objects.filter(tournament_slot__flight=flight)
    assert played.count() == 3 and all(m.rated for m in played)  # played out: match play calls them rateable
    for pool in (overall_pool(), club_pool(club.pk)):
        assert not rateable_matches(pool).filter(pk__in=played).exists()  # but a pair's result rates no one


def test_a_singles_match_of_the_same_club_is_still_rated(club, director_user):
    from tests.tournaments.builders import drawn_event  # noqa: PLC0415

    _event, flights = drawn_event(club, director_user, 2)
    play_all(director_user, [flights["main"]])
    played = Match.objects.filter(tournament_slot__flight=flights["main"])
    assert rateable_matches(club_pool(club.pk)).filter(pk__in=played).count() == 1


def test_pages_show_the_pairs_and_their_players(client, club, director_user):
    flight, players, entries = pair_flight(club, director_user, 4)
    page = client.get(flight.get_absolute_url()).content.decode()
    assert entries[0].name.replace("&", "&amp;") in page
    assert "(captain)" in page
    slot = ready_slots(flight)[0]
    client.force_login(director_user)
    match_page = client.get(reverse("games:match-detail", args=[slot.match_id])).content.decode()
    for entry in (slot.entry_a, slot.entry_b):
        for member in entry.members.all():
            assert member.player.name in match_page
    assert "not rated" in match_page


def test_the_bracket_page_costs_the_same_for_4_and_16_pairs(client, club, director_user, django_assert_max_num_queries):
    small, _p, _e = pair_flight(club, director_user, 4)
    big, _p, _e = pair_flight(club, director_user, 16)
    from django.db import connection  # noqa: PLC0415
    from django.test.utils import CaptureQueriesContext  # noqa: PLC0415

    counts = []
    for flight in (small, big):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(flight.get_absolute_url()).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_pairs_through_the_api(club, director_user, api_as):
    api = api_as(director_user)
    event = make_event(club, director_user)
    url = f"/api/v1/events/{club.slug}/{event.slug}/flights/"
    created = api.post(url, {"name": "Consultation", "slug": "cons", "team_kind": "consultation"}, format="json")
    assert created.status_code == 201, created.json()
    assert (created.json()["team_kind"], created.json()["team_size"]) == ("consultation", 2)
    refused = api.post(url, {"name": "Trios", "team_kind": "doubles", "team_size": 3}, format="json")
    assert refused.status_code == 400 and "team_size" in str(refused.json())
    a, b = members(club, 2)
    entered = api.post(url + "cons/teams/", {"players": [a.pk, b.pk], "team_name": "A-Team"}, format="json")
    assert entered.status_code == 201, entered.json()
    assert entered.json()["team_name"] == "A-Team" and entered.json()["player"] == a.pk
    listed = api_as(None).get(url + f"cons/entries/{entered.json()['id']}/members/")
    assert listed.status_code == 200
    assert [(m["player"], m["order"]) for m in listed.json()] == [(a.pk, 1), (b.pk, 2)]
    again = api.post(url + "cons/teams/", {"players": [b.pk, members(club, 1)[0].pk]}, format="json")
    assert again.status_code == 409


def test_pairs_play_a_swiss_and_its_standings_show_the_pairs(client, club, director_user):
    event = make_event(club, director_user)
    flight = services.add_flight(
        actor=director_user, event=event, name="Pairs Swiss", team_kind="consultation", format="swiss", rounds=2
    )
    players = members(club, 8)
    for i in range(0, 8, 2):
        services.register_team(actor=director_user, flight=flight, players=players[i : i + 2])
    services.start_round(actor=director_user, flight=flight)
    pending = Pairing.objects.filter(flight=flight, result="pending").select_related("match")
    while tables := list(pending.all()):
        for table in tables:
            win(director_user, table, 0)
    flight.refresh_from_db()
    assert flight.status == "finished"
    played = Match.objects.filter(tournament_pairing__flight=flight)
    assert played.count() == 4
    assert not rateable_matches(club_pool(club.pk)).filter(pk__in=played).exists()
    page = client.get(flight.get_absolute_url()).content.decode()
    assert f"{players[0].name} &amp; {players[1].name}" in page


def test_a_director_adds_a_team_flight_and_enters_a_team_on_the_event_page(client, club, director_user):
    event = make_event(club, director_user)
    client.force_login(director_user)
    client.post(
        reverse("tournaments:flight-add", args=[club.slug, event.slug]),
        {
            "name": "Nations",
            "kind": "main",
            "feed_rounds": 1,
            "entry_fee": "0",
            "length": 5,
            "seeding": "random",
            "team_kind": "team",
            "team_size": 3,
        },
    )
    flight = event.flights.get(slug="nations")
    assert (flight.team_kind, flight.team_size) == ("team", 3)
    page = client.get(event.get_absolute_url()).content.decode()
    assert "Team name (optional)" in page
    players = members(club, 3)
    names = "\n".join(p.name for p in reversed(players))  # pasted in board order: the last one is the captain
    url = reverse("tournaments:flight-register", args=[club.slug, event.slug, flight.slug])
    client.post(url, {"names": names, "team_name": "Lions"})
    entry = flight.entries.get()
    assert (entry.name, entry.player) == ("Lions", players[-1])
    assert [m.player for m in entry.members.order_by("order")] == list(reversed(players))
    refused = client.post(url, {"names": players[0].name}, follow=True).content.decode()
    assert "give 3" in refused and flight.entries.count() == 1
