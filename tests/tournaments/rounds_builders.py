"""Round-based flights built through the services, and their tables played through match play."""

from games.matchplay import services as match_services
from tests.tournaments.builders import make_event, members
from tournaments import services
from tournaments.models import Pairing


def swiss_event(club, director, n, **flight_kwargs):
    """An event with a Swiss (or another round-based format) of n players, not yet paired."""
    flight_kwargs.setdefault("format", "swiss")
    if flight_kwargs["format"] == "swiss":
        flight_kwargs.setdefault("rounds", 3)
    event = make_event(club, director)
    flight = services.add_flight(actor=director, event=event, name="Swiss", **flight_kwargs)
    for player in members(club, n):
        services.register(actor=director, flight=flight, player=player)
    return event, flight


def open_tables(flight, round_number=None):
    flight.refresh_from_db()
    return list(
        Pairing.objects.filter(flight=flight, round=round_number or flight.current_round, result="pending")
        .select_related("match", "entry_a", "entry_b")
        .order_by("table")
    )


def report(director, pairing, side=0, *, loser_points=1, outcome="played"):
    """The director enters the table's result (confirmed at once); side 0 = entry A wins."""
    match = pairing.match
    if outcome != "played":
        match_services.submit_report(
            actor=director, match=match, method="no_play", outcome=outcome, winner_side=side, as_director=True
        )
        return
    scores = (match.length, loser_points) if side == 0 else (loser_points, match.length)
    match_services.submit_report(actor=director, match=match, method="final_score", scores=scores, as_director=True)


def play_round(director, flight, choose=lambda pairing: 0):
    for pairing in open_tables(flight):
        report(director, pairing, choose(pairing))
    flight.refresh_from_db()
