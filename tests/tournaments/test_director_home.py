"""A director's home page leads to the work: the events they direct (with the dashboard) and the open chouette
tables of their clubs, which they enter games for without sitting at them. A player's home shows neither."""

import pytest

from tests.chouette.factories import table
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.tournaments.builders import make_event
from tournaments.models import Event, EventStatus

pytestmark = pytest.mark.django_db


def home_of(client, user) -> str:
    client.force_login(user)
    response = client.get("/")
    assert response.status_code == 200
    return response.content.decode()


def test_the_director_home_lists_the_events_and_tables_of_their_club(client, club, director_user, member_user):
    running = make_event(club, director_user, name="Autumn Open")
    finished = make_event(club, director_user, name="Old Cup")
    Event.objects.filter(pk=finished.pk).update(status=EventStatus.FINISHED)  # as the last final does
    other = ClubFactory()
    elsewhere = make_event(other, MembershipFactory(club=other, role="director").player.user, name="Other Open")
    session, _players, _actor = table(club, director=director_user)

    page = home_of(client, director_user)
    assert "Events I direct" in page and running.get_absolute_url() in page
    assert f"{running.get_absolute_url()}dashboard/" in page
    assert "Old Cup" not in page and elsewhere.name not in page
    assert session.get_absolute_url() in page  # the table they direct, though they sit at none

    page = home_of(client, member_user)
    assert "Events I direct" not in page and session.get_absolute_url() not in page


def test_a_directors_home_stays_a_few_queries(client, club, director_user, django_assert_max_num_queries):
    for n in range(6):
        make_event(club, director_user, name=f"Event {n}")
        table(club, names=(f"A{n}", f"B{n}", f"C{n}"), director=director_user)
    client.force_login(director_user)
    with django_assert_max_num_queries(11):
        assert client.get("/").status_code == 200
