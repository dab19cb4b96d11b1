"""Events built through the services, and results confirmed through match play, as a director would."""

import datetime
import itertools

from games.matchplay import services as match_services
from tests.clubs.factories import MembershipFactory
from tournaments import services
from tournaments.models import Slot

_numbers = itertools.count(1)


def make_event(club, director, *, name="", **kwargs):
    name = name or f"Spring Open {next(_numbers)}"
    return services.create_event(actor=director, club=club, name=name, starts_on=datetime.date(2026, 5, 1), **kwargs)


def members(club, n):
    return [MembershipFactory(club=club).player for _ in range(n)]


def drawn_event(club, director, n, *, consolation=None, last_chance=None, seed=7, **main_kwargs):
    """An event with a released main of n players (and the named fed flights); returns (event, flights)."""
    event = make_event(club, director)
    main = services.add_flight(actor=director, event=event, name="Main", **main_kwargs)
    flights = {"main": main}
    if consolation is not None:
        flights["cons"] = services.add_flight(
            actor=director, event=event, name="Consolation", kind="consolation", source=main, **consolation
        )
    if last_chance is not None:
        flights["lc"] = services.add_flight(
            actor=director, event=event, name="Last Chance", kind="last_chance", source=flights["cons"], **last_chance
        )
    for player in members(club, n):
        services.register(actor=director, flight=main, player=player)
    services.draw_flight(actor=director, flight=main, seed=seed)
    services.confirm_draw(actor=director, flight=main)
    services.release_draw(actor=director, flight=main)
    for flight in flights.values():
        flight.refresh_from_db()
    return event, flights


def ready_slots(flight):
    return list(
        Slot.objects.filter(flight=flight, result="ready")
        .select_related("match", "entry_a", "entry_b")
        .order_by("section", "round", "position")
    )


def win(director, slot, side=0, *, outcome="played"):
    """The director enters the result of the slot's match (confirmed at once); side 0 = player A wins."""
    match = slot.match
    if outcome == "played":
        scores = (match.length, 1) if side == 0 else (1, match.length)
        match_services.submit_report(actor=director, match=match, method="final_score", scores=scores, as_director=True)
    else:
        match_services.submit_report(
            actor=director, match=match, method="no_play", outcome=outcome, winner_side=side, as_director=True
        )


def started_second_round(director, flight):
    """The first two round-1 matches won by player A and the round-2 match they lead to started: a result of the
    first can then change only by an override. Returns (first round-1 slot, round-2 slot)."""
    first, second = ready_slots(flight)[:2]
    win(director, first, 0)
    win(director, second, 0)
    later = Slot.objects.select_related("match").get(flight=flight, round=2, position=0)
    match_services.start_match(actor=director, match=later.match)
    return first, later


def play_all(director, flights, choose=lambda slot: 0):
    """Play every ready match of the flights until none is left."""
    while True:
        slots = [s for f in flights for s in ready_slots(f)]
        if not slots:
            return
        for slot in slots:
            win(director, slot, choose(slot))


def overturn(director, row, comment="the slip was read the wrong way"):
    """The director gives a decided match to the other player by a full score: an override for a bracket slot,
    a correction for a round's table (both take back what followed, the slot's after a preview)."""
    side = 1 if row.winner_id == row.entry_a_id else 0
    length = row.match.length
    scores = (length, 0) if side == 0 else (0, length)
    if isinstance(row, Slot):
        services.override_result(actor=director, slot=row, winner_side=side, scores=scores, comment=comment)
    else:
        services.correct_result(actor=director, pairing=row, winner_side=side, scores=scores, comment=comment)
