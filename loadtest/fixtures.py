"""The data the scenarios run against, made through the services as a director would (the draw, the Calcutta, the
chouette table), in the freshly migrated load test database. Returns plain values (ids, URLs, API token keys),
so the clients need nothing from Django.

Accounts get an unusable password: the clients sign in with API tokens, and hashing hundreds of passwords at
the production work factor would take minutes. The people are bulk-inserted; everything a director does (the
registrations, the draws, the Calcutta, the chouette table) goes through the services.
"""

from __future__ import annotations

import datetime
import itertools
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password

from accounts.models import ApiToken, new_token_key, token_digest
from base.locks import batch
from calcutta import services as calcutta_services
from chouette import services as chouette_services
from clubs.models import Club, Membership, Player, Role
from games.matchplay import services as match_services
from tournaments import services
from tournaments.models import Flight, Slot

_numbers = itertools.count(1)


@dataclass
class Person:
    user_id: int
    player_id: int
    token: str


@dataclass
class FlightData:
    id: int
    event_id: int
    page: str  # the public bracket page
    api: str  # the same bracket through the API
    base: str  # the API prefix of the flight (slots/<pk>/override/ hang below it)
    people: dict[int, Person] = field(default_factory=dict)  # by player id


@dataclass
class Fixture:
    directors: list[Person]
    bracket: FlightData  # 64 entrants: read by the bracket scenarios, the uploads and the push scenario
    results: list[FlightData]  # report + confirm of distinct matches
    round_end: FlightData  # 128 entrants: every first-round match in a minute
    override_flights: list[FlightData]  # one per event, a result already followed by a started match
    calcutta_id: int
    lot_number: int
    bidders: list[tuple[int, str]]  # (bidder id, token)
    chouette_id: int
    chouette_players: list[Person]
    uploader: Person
    watched: list[FlightData] = field(default_factory=list)  # 64 entrants each: one per N of the watchers scenario


def _people(club: Club, names: list[str], role: str = Role.PLAYER) -> list[Person]:
    """Members with an account and an API token each, in three bulk inserts and one for the tokens (hundreds
    of them one by one would take most of the short run's time). The token rows are the ones
    `accounts.services.create_token` writes: the key's digest and prefix, never the key."""
    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"lt-{next(_numbers)}", password=make_password(None)) for _ in names]
    )
    players = Player.objects.bulk_create(
        [Player(name=name, user=user) for name, user in zip(names, users, strict=True)]
    )
    Membership.objects.bulk_create([Membership(club=club, player=player, role=role) for player in players])
    keys = [new_token_key() for _ in names]
    ApiToken.objects.bulk_create(
        [
            ApiToken(user=user, name="loadtest", digest=token_digest(key), prefix=key[:8])
            for user, key in zip(users, keys, strict=True)
        ]
    )
    return [Person(u.pk, p.pk, key) for u, p, key in zip(users, players, keys, strict=True)]


def _person(club: Club, name: str, role: str = Role.PLAYER) -> Person:
    return _people(club, [name], role)[0]


def _flight(club: Club, director, size: int, *, name: str) -> FlightData:
    """A public event with one main flight of `size` members, drawn and released (its first round ready)."""
    event = services.create_event(actor=director, club=club, name=name, starts_on=datetime.date(2026, 12, 5))
    flight = services.add_flight(actor=director, event=event, name="Main")
    people = {p.player_id: p for p in _people(club, [f"{name} player {n + 1}" for n in range(size)])}
    for player in Player.objects.filter(pk__in=list(people)).order_by("pk"):
        services.register(actor=director, flight=flight, player=player)
    services.draw_flight(actor=director, flight=flight, seed=7)
    services.confirm_draw(actor=director, flight=flight)
    services.release_draw(actor=director, flight=flight)
    path = f"events/{club.slug}/{event.slug}/"
    return FlightData(
        id=flight.pk,
        event_id=event.pk,
        page=f"/{path}{flight.slug}/",
        api=f"/api/v1/{path}flights/{flight.slug}/",
        base=f"/api/v1/{path}flights/{flight.slug}/",
        people=people,
    )


def _started_second_round(director, data: FlightData) -> None:
    """The first two matches won by player A and the second-round match they lead to started: changing the first
    result now takes an override, which voids that started match."""
    first, second = Slot.objects.filter(flight_id=data.id, round=1).select_related("match").order_by("position")[:2]
    for slot in (first, second):
        match = slot.match
        match_services.submit_report(
            actor=director, match=match, method="final_score", scores=(match.length, 0), as_director=True
        )
    later = Slot.objects.select_related("match").get(flight_id=data.id, round=2, position=0)
    match_services.start_match(actor=director, match=later.match)


def build(
    *, results_flights: int, override_events: int, round_end_entrants: int = 128, watched_flights: int = 0
) -> Fixture:
    """Everything every scenario needs; the two-node run, which has no round-end or override scenario, asks for a
    small round-end flight and no override events (the fixture is most of a short run's time)."""
    club = Club.objects.create(name="Load Test Club", slug="load", city="Berlin", is_public=True, is_approved=True)
    directors = _people(club, [f"Director {n + 1}" for n in range(3)], Role.DIRECTOR)
    director = get_user_model().objects.get(pk=directors[0].user_id)
    with batch():
        bracket = _flight(club, director, 64, name="Bracket Open")
        results = [_flight(club, director, 64, name=f"Results Cup {n + 1}") for n in range(results_flights)]
        round_end = _flight(club, director, round_end_entrants, name="Round End Masters")
        overrides = [_flight(club, director, 8, name=f"Override Open {n + 1}") for n in range(override_events)]
        for data in overrides:
            _started_second_round(director, data)
        calcutta_id, lot, bidders = _calcutta(club, director)
        chouette_id, chouette_players = _chouette(club, director)
        uploader = _person(club, "Uploader")
        watched = [_flight(club, director, 64, name=f"Watched Final {n + 1}") for n in range(watched_flights)]
    return Fixture(
        directors=directors,
        bracket=bracket,
        results=results,
        round_end=round_end,
        override_flights=overrides,
        calcutta_id=calcutta_id,
        lot_number=lot,
        bidders=bidders,
        chouette_id=chouette_id,
        chouette_players=chouette_players,
        uploader=uploader,
        watched=watched,
    )


def _calcutta(club: Club, director) -> tuple[int, int, list[tuple[int, str]]]:
    """A Calcutta on an undrawn eight-player flight, its auction open and the first lot up, 20 registered
    bidders with accounts of their own."""
    event = services.create_event(
        actor=director, club=club, name="Calcutta Night", starts_on=datetime.date(2026, 12, 6)
    )
    flight = services.add_flight(actor=director, event=event, name="Main")
    entrants = _people(club, [f"Calcutta player {n + 1}" for n in range(8)])
    for player in Player.objects.filter(pk__in=[p.player_id for p in entrants]).order_by("pk"):
        services.register(actor=director, flight=flight, player=player)
    flight = Flight.objects.get(pk=flight.pk)
    calcutta = calcutta_services.create_calcutta(
        actor=director, flight=flight, payout_places=["70", "30"], minimum_opening_bid=100, increment=100
    )
    entries = list(flight.entries.order_by("pk").values_list("pk", flat=True))
    calcutta_services.set_lots(actor=director, calcutta=calcutta, groups=[[pk] for pk in entries])
    bidders = []
    for person in _people(club, [f"Bidder {n + 1}" for n in range(20)]):
        user = get_user_model().objects.get(pk=person.user_id)
        bidder = calcutta_services.register_bidder(actor=user, calcutta=calcutta)
        bidders.append((bidder.pk, person.token))
    step = calcutta_services.auctioneer_step
    step(actor=director, calcutta=calcutta, action="open")
    calcutta = step(actor=director, calcutta=calcutta, action="open_next_lot")
    return calcutta.pk, calcutta.current_lot.number, bidders


def _chouette(club: Club, director) -> tuple[int, list[Person]]:
    """A started chouette table of ten players (the most a table seats)."""
    people = _people(club, [f"Chouette player {n + 1}" for n in range(10)])
    players = [Player.objects.get(pk=p.player_id) for p in people]
    session = chouette_services.create_session(
        actor=director, club=club, players=players, stake_cents=100, order=[p.pk for p in players]
    )
    return session.pk, people
