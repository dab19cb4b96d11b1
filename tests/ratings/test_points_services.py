"""Event points: awarded when the event finishes, recomputed when a flight's results change."""

import datetime

import pytest

from points import services as points_services
from ratings import selectors as points_selectors
from ratings.models import ClubSeason, EventPoints, PlayerRating, PointsAward
from ratings.services.pools import overall_pool
from tests.clubs.factories import MembershipFactory, PlayerFactory
from tests.tournaments.builders import drawn_event, play_all
from tournaments import selectors as tournament_selectors
from tournaments import services
from tournaments.hooks import flight_results_changed
from tournaments.models import Entry, Event, Flight, Slot

pytestmark = pytest.mark.django_db

KNOCKOUT_8 = [1, 2, 3, 3, 5, 5, 5, 5]


@pytest.fixture
def event(club):
    event = Event.objects.create(
        club=club, name="Monthly", slug="monthly", starts_on=datetime.date(2026, 3, 1),
        ends_on=datetime.date(2026, 3, 1), status="running",
    )  # fmt: skip
    main = Flight.objects.create(event=event, name="Main", slug="main", kind="main")
    for place in KNOCKOUT_8:
        Entry.objects.create(flight=main, player=MembershipFactory(club=club).player, place=place)
    return event


def finish(event):
    Event.objects.filter(pk=event.pk).update(status="finished")
    event.refresh_from_db()
    flight_results_changed(event.flights.get(kind="main"))


def test_points_wait_for_the_finish_and_follow_a_changed_result(event, director_user):
    points_services.set_event_scheme(actor=director_user, event=event, scheme="abt")
    flight_results_changed(event.flights.get())
    assert not PointsAward.objects.exists()  # running: nothing yet
    finish(event)
    awards = {a.place: a.points for a in PointsAward.objects.filter(event=event)}
    assert awards[1] == pytest.approx(8 * 32 / 96)
    assert PointsAward.objects.filter(event=event, place=3).count() == 2
    # A corrected final: the finalist is the winner now.
    main = event.flights.get()
    winner, finalist = main.entries.get(place=1), main.entries.get(place=2)
    Entry.objects.filter(pk=winner.pk).update(place=2)
    Entry.objects.filter(pk=finalist.pk).update(place=1)
    flight_results_changed(main)
    assert PointsAward.objects.get(event=event, player=finalist.player).place == 1
    assert PointsAward.objects.filter(event=event).count() == 8


def test_gammonpoints_use_the_strength_of_field_fixed_at_the_first_award(event, director_user):
    pool = overall_pool()
    players = [e.player for e in event.flights.get().entries.all()]
    for player in players:
        PlayerRating.objects.create(pool=pool, player=player, rating=1900.0)
    points_services.set_event_scheme(actor=director_user, event=event, scheme="gammonpoints")
    finish(event)
    first = sorted(PointsAward.objects.values_list("player_id", "points"))
    assert EventPoints.objects.get(event=event).strength_of_field == 1900.0
    assert max(p for _, p in first) == pytest.approx(10 * 2 * 3.169925, abs=1e-3)
    PlayerRating.objects.update(rating=1500.0)
    flight_results_changed(event.flights.get())
    assert sorted(PointsAward.objects.values_list("player_id", "points")) == first


def test_usbgf_placement_in_an_8_player_field(event, director_user):
    points_services.set_event_scheme(actor=director_user, event=event, scheme="usbgf", division_weight=0.7)
    finish(event)
    winner = PointsAward.objects.get(event=event, place=1)
    assert winner.points == pytest.approx(0.7 * 0.6 * 3)


def test_only_directors_choose_a_scheme_and_bad_values_name_the_field(event, member_user):
    with pytest.raises(points_services.NotAllowed):
        points_services.set_event_scheme(actor=member_user, event=event, scheme="abt")
    director = MembershipFactory(club=event.club, role="director").player.user
    with pytest.raises(points_services.Invalid) as error:
        points_services.set_event_scheme(actor=director, event=event, scheme="elo")
    assert "scheme" in error.value.message_dict
    with pytest.raises(points_services.Invalid) as error:
        points_services.set_event_scheme(actor=director, event=event, scheme="abt", division_factor=0)
    assert "division_factor" in error.value.message_dict


def test_an_event_without_a_scheme_gets_no_points(event):
    finish(event)
    assert not PointsAward.objects.exists()
    assert PlayerFactory()  # the event's players keep no award rows


def test_an_override_that_reopens_a_finished_event_takes_its_awards_back_until_it_finishes_again(club, director_user):
    """A semi-final overridden after the final was played: the event is running again, so it has no awards
    (none computed from the 14 places still stored), and once the final is replayed the awards follow the new
    places and the season standings count the event once."""
    event, flights = drawn_event(club, director_user, 16)
    main = flights["main"]
    points_services.set_event_scheme(actor=director_user, event=event, scheme="gammonpoints")
    play_all(director_user, [main])
    event.refresh_from_db()
    assert event.status == "finished"
    assert PointsAward.objects.filter(event=event).count() == 16
    semi = Slot.objects.select_related("flight__event", "match").get(flight=main, round=3, position=0)
    old_winner, old_loser = semi.winner.player_id, semi.loser.player_id
    flip = 1 if semi.winner_id == semi.entry_a_id else 0
    length = semi.match.length
    services.override_result(
        actor=director_user,
        slot=semi,
        winner_side=flip,
        scores=(length, 1) if flip == 0 else (1, length),
        comment="The score sheet was read the wrong way round",
    )
    event.refresh_from_db()
    assert event.status == "running"
    assert not PointsAward.objects.filter(event=event).exists()
    assert points_selectors.event_points(event=event)[1] == []
    assert all(s.points == 0 for s in points_selectors.leaderboard(club=club))

    play_all(director_user, [main])  # the final again, with the new finalist
    event.refresh_from_db()
    assert event.status == "finished"
    places = {p.player_id: p.place for p in tournament_selectors.flight_placements(flight=main)}
    awards = {a.player_id: a for a in PointsAward.objects.filter(event=event)}
    assert {player: a.place for player, a in awards.items()} == places
    assert len(awards) == 16 and awards[old_loser].place in (1, 2) and awards[old_winner].place == 3
    assert "of 16" in awards[old_winner].explanation
    season = ClubSeason.objects.create(club=club, name="2026", starts_on=event.starts_on, ends_on=event.ends_on)
    standings = {s.player.pk: s for s in points_selectors.leaderboard(club=club, season=season)}
    overall = {row["player_id"]: row for row in points_selectors.overall_points(user=director_user)}
    for player, award in awards.items():
        assert standings[player].events == 1
        assert standings[player].points == pytest.approx(award.points)
        assert overall[player]["events"] == 1 and overall[player]["points"] == pytest.approx(award.points)
