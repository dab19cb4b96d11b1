"""Fixtures: a flight of eight entrants at the `club` fixture's public event and its Calcutta."""

import pytest

from calcutta import services
from tests.calcutta.rows import make_flight


@pytest.fixture
def flight(club):
    return make_flight(club)


@pytest.fixture
def calcutta(flight, director_user):
    return services.create_calcutta(
        actor=director_user,
        flight=flight,
        payout_places=["50", "25", "15", "10"],
        minimum_opening_bid=1000,
        increment=500,
    )
