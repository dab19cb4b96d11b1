"""A playoff for 2nd: the main knockout's losing finalist plays the consolation's winner; the winner is 2nd,
the loser 3rd, everyone else ranked after them. Created when both are known, played as any bracket match, and
taken back by a correction of either final like any later match."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import given
from hypothesis import strategies as st

from base.api import Conflict
from points import services as points_services
from ratings.models import PointsAward
from tests.refusals import ValidationError
from tournaments import selectors, services
from tournaments.core.consequences import playoff_places
from tournaments.models import Slot

from .builders import drawn_event, make_event, members, overturn, play_all, ready_slots, win

pytestmark = pytest.mark.django_db


def _event(club, director, n=8):
    event, flights = drawn_event(club, director, n, consolation={}, playoff_second=True)
    return event, flights["main"], flights["cons"]


def _playoff(main):
    return Slot.objects.select_related("match", "entry_a", "entry_b", "winner").get(flight=main, section="p")


def _places(main):
    return {p.player_id: p.place for p in selectors.flight_placements(flight=main)}


def _finals(main, cons):
    final = Slot.objects.select_related("winner", "loser").get(flight=main, section="w", round=3)
    cons_final = Slot.objects.filter(flight=cons).select_related("winner").order_by("-round").first()
    return final, cons_final


@pytest.mark.parametrize("playoff_winner", [0, 1], ids=["finalist-wins", "consolation-winner-wins"])
def test_the_playoff_places_2nd_and_3rd_and_ranks_everyone_else_after_them(club, director_user, playoff_winner):
    event, main, cons = _event(club, director_user)
    points_services.set_event_scheme(actor=director_user, event=event, scheme="abt")
    play_all(director_user, [main, cons], choose=lambda slot: playoff_winner if slot.section == "p" else 0)
    final, cons_final = _finals(main, cons)
    playoff = _playoff(main)
    assert playoff.entry_a_id == final.loser_id  # side 0: the main's finalist
    assert playoff.entry_b.player_id == cons_final.winner.player_id  # side 1: the consolation's winner's entry
    assert playoff.entry_b.flight_id == main.pk
    main.refresh_from_db()
    event.refresh_from_db()
    assert main.status == "finished" and event.status == "finished"
    places = _places(main)
    second = playoff.entry_a if playoff_winner == 0 else playoff.entry_b
    third = playoff.entry_b if playoff_winner == 0 else playoff.entry_a
    assert places[final.winner.player_id] == 1
    assert places[second.player_id] == 2 and places[third.player_id] == 3
    assert sorted(places.values()) == [1, 2, 3, 4, 4, 6, 6, 6]  # semi-final losers 4th, the rest after them
    awards = dict(PointsAward.objects.filter(event=event).values_list("player_id", "place"))
    assert awards == places  # event points follow the playoff's places


def test_the_main_flight_stays_open_until_the_playoff_is_played(club, director_user):
    event, main, cons = _event(club, director_user)
    play_all(director_user, [main])  # the main's final: its loser waits for the consolation's winner
    main.refresh_from_db()
    assert main.status == "running"
    playoff = _playoff(main)
    assert playoff.entry_a_id is not None and playoff.entry_b_id is None and playoff.match_id is None
    assert None in _places(main).values()  # the finalist has no place yet
    play_all(director_user, [cons])
    playoff = _playoff(main)
    assert playoff.result == "ready" and playoff.match is not None
    assert playoff.match.length == main.length_for(3, is_final=False)
    win(director_user, playoff, 1)
    main.refresh_from_db()
    assert main.status == "finished"


def test_a_corrected_main_final_voids_the_playoff_after_a_preview(club, director_user):
    _event_, main, cons = _event(club, director_user)
    play_all(director_user, [main, cons], choose=lambda slot: 1 if slot.section == "p" else 0)
    final, _cons_final = _finals(main, cons)
    old_playoff = _playoff(main)
    preview = services.override_preview(actor=director_user, slot=final)
    assert [step.slot.pk for step in preview] == [old_playoff.pk]
    overturn(director_user, final)
    old_playoff.match.refresh_from_db()
    assert old_playoff.match.outcome == "annulled"
    playoff = _playoff(main)
    final.refresh_from_db()
    assert playoff.entry_a_id == final.loser_id and playoff.result == "ready"  # the new finalist plays it
    main.refresh_from_db()
    assert main.status == "running"
    win(director_user, playoff, 0)
    assert _places(main)[playoff.entry_a.player_id] == 2


def test_a_corrected_consolation_final_voids_the_playoff_and_seats_the_new_winner(club, director_user):
    _event_, main, cons = _event(club, director_user)
    play_all(director_user, [main, cons], choose=lambda slot: 0)
    _final, cons_final = _finals(main, cons)
    old_playoff = _playoff(main)
    assert [step.slot.pk for step in services.override_preview(actor=director_user, slot=cons_final)] == [
        old_playoff.pk
    ]
    overturn(director_user, cons_final)
    cons_final.refresh_from_db()
    playoff = _playoff(main)
    assert playoff.entry_b.player_id == cons_final.winner.player_id
    assert playoff.result == "ready" and playoff.match_id != old_playoff.match_id
    assert None in _places(main).values()  # 2nd and 3rd are open again
    win(director_user, playoff, 1)
    assert _places(main)[cons_final.winner.player_id] == 2


def test_a_consolation_without_players_gives_the_finalist_2nd_without_a_match(club, director_user):
    _event_, main, cons = _event(club, director_user, n=2)  # one round-1 match feeds no consolation
    play_all(director_user, [main])
    playoff = _playoff(main)
    assert playoff.result == "bye" and playoff.match_id is None
    assert sorted(_places(main).values()) == [1, 2]
    main.refresh_from_db()
    assert main.status == "finished"


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"name": "Main", "playoff_second": True, "third_place": True}, "playoff_second"),
        ({"name": "DE", "kind": "double_elimination", "playoff_second": True}, "playoff_second"),
        ({"name": "Swiss", "format": "swiss", "rounds": 3, "playoff_second": True}, "playoff_second"),
    ],
)
def test_impossible_playoff_settings_are_refused_saying_what_works(club, director_user, kwargs, field):
    event = make_event(club, director_user)
    with pytest.raises(ValidationError) as refused:
        services.add_flight(actor=director_user, event=event, **kwargs)
    assert field in refused.value.message_dict


def test_a_playoff_on_the_consolation_itself_is_refused(club, director_user):
    event = make_event(club, director_user)
    main = services.add_flight(actor=director_user, event=event, name="Main")
    with pytest.raises(ValidationError) as refused:
        services.add_flight(
            actor=director_user, event=event, name="Cons", kind="consolation", source=main, playoff_second=True
        )
    assert "playoff_second" in refused.value.message_dict


def test_a_playoff_without_a_consolation_is_refused_at_the_release(club, director_user):
    event = make_event(club, director_user)
    main = services.add_flight(actor=director_user, event=event, name="Main", playoff_second=True)
    for player in members(club, 4):
        services.register(actor=director_user, flight=main, player=player)
    services.draw_flight(actor=director_user, flight=main, seed=1)
    services.confirm_draw(actor=director_user, flight=main)
    with pytest.raises(Conflict) as refused:
        services.release_draw(actor=director_user, flight=main)
    assert refused.value.get_codes() == "playoff_without_consolation"


def test_queries_per_result_are_constant_with_a_playoff(club, director_user):
    counts = []
    for n in (8, 256):
        _e, main, _cons = _event(club, director_user, n)
        first, second = ready_slots(main)[:2]
        win(director_user, first, 0)
        connection.queries_log.clear()
        with CaptureQueriesContext(connection) as captured:
            win(director_user, second, 0)
        counts.append(len(captured))
    assert counts[0] == counts[1], counts


def test_the_playoff_option_through_the_api(club, director_user, api_as):
    api = api_as(director_user)
    event = make_event(club, director_user)
    url = f"/api/v1/events/{club.slug}/{event.slug}/flights/"
    created = api.post(url, {"name": "Main", "playoff_second": True}, format="json")
    assert created.status_code == 201 and created.json()["playoff_second"] is True
    refused = api.post(url, {"name": "Other", "playoff_second": True, "third_place": True}, format="json")
    assert refused.status_code == 400 and "playoff_second" in str(refused.json())
    patched = api.patch(url + "main/", {"playoff_second": False}, format="json")
    assert patched.status_code == 200 and patched.json()["playoff_second"] is False


@given(
    st.lists(st.integers(min_value=1, max_value=6), min_size=3, max_size=24),
    st.data(),
)
def test_playoff_places_are_a_competition_ranking_with_the_playoff_at_2_and_3(stages, data):
    """Any elimination field: the champion stays 1st, the playoff's winner is 2nd and its loser 3rd, the others
    keep their order after them, and the places are a standard competition ranking (1 + those strictly ahead)."""
    stored = {0: 1, 1: 2}
    stored.update({k: 2 + stage for k, stage in enumerate(stages, start=2)})
    rest = list(stored)[2:]
    other = data.draw(st.sampled_from(rest))
    finalist_wins = data.draw(st.booleans())
    second, third = (1, other) if finalist_wins else (other, 1)
    places = playoff_places(stored, second=second, third=third)
    assert places[0] == 1 and places[second] == 2 and places[third] == 3
    values = list(places.values())
    for place in values:
        assert place == 1 + sum(1 for v in values if v < place)
    others = [k for k in stored if k not in (0, second, third)]
    for a in others:
        for b in others:
            if stored[a] < stored[b]:
                assert places[a] < places[b]
            if stored[a] == stored[b]:
                assert places[a] == places[b]
            assert places[a] > 3


def test_the_prize_list_pays_2nd_and_3rd_by_the_playoff(club, director_user):
    event, flights = drawn_event(
        club, director_user, 8, consolation={}, playoff_second=True, entry_fee=10,
        payout_template=[{"place": 1, "percent": 50}, {"place": 2, "percent": 30}, {"place": 3, "percent": 20}],
    )  # fmt: skip
    main, cons = flights["main"], flights["cons"]
    play_all(director_user, [main, cons], choose=lambda slot: 1 if slot.section == "p" else 0)
    playoff = _playoff(main)
    prizes = {p.flight.slug: p for p in selectors.prize_list(event=event)}
    lines = {line.share.place: line.holders for line in prizes["main"].payout.lines}
    assert list(lines[2]) == [playoff.entry_b.player.name] and list(lines[3]) == [playoff.entry_a.player.name]


def test_the_bracket_page_shows_the_playoff_under_the_tree(club, director_user, client):
    _event_, main, cons = _event(club, director_user)
    play_all(director_user, [main, cons])
    page = client.get(main.get_absolute_url()).content.decode()
    assert "Playoff for 2nd" in page
