"""A check-in deadline in a flight played in rounds: round 1 pairs only the checked-in players, the others are
withdrawn as no-shows with a change record naming them, get no place, and a director's late check-in brings
one back into a Swiss (a round robin's fixed schedule refuses)."""

import datetime

import pytest
from django.utils import timezone

from base.api import Conflict
from tests.tournaments.builders import members
from tests.tournaments.rounds_builders import open_tables, play_round, swiss_event
from tournaments import services
from tournaments.core.errors import BracketError
from tournaments.models import BracketChange, Entry, EntryStatus, Pairing

pytestmark = pytest.mark.django_db


def _with_deadline(club, director, n, here, **settings):
    event, flight = swiss_event(
        club, director, n, check_in_deadline=timezone.now() + datetime.timedelta(hours=1), **settings
    )
    entries = list(flight.entries.order_by("pk"))
    for entry in entries[:here]:
        services.check_in(actor=director, entry=entry)
    return event, flight, entries


@pytest.mark.parametrize(
    "settings",
    [{"format": "swiss", "rounds": 2}, {"format": "round_robin"}, {"format": "triple_elimination"}],
    ids=lambda s: s["format"],
)
def test_round_one_pairs_only_the_checked_in_and_the_no_shows_get_no_place(club, director_user, settings):
    _, flight, entries = _with_deadline(club, director_user, 7, 4, **settings)
    services.start_round(actor=director_user, flight=flight, confirm_no_shows=True)
    seated = set(Pairing.objects.filter(flight=flight).values_list("entry_a", flat=True)) | set(
        Pairing.objects.filter(flight=flight, entry_b__isnull=False).values_list("entry_b", flat=True)
    )
    assert seated == {e.pk for e in entries[:4]}
    absent = Entry.objects.filter(pk__in=[e.pk for e in entries[4:]])
    assert {e.status for e in absent} == {EntryStatus.WITHDRAWN}
    change = BracketChange.objects.get(flight=flight, kind="no_show")
    assert all(e.player.name in change.comment for e in absent)
    while flight.status != "finished":
        play_round(director_user, flight)
    assert list(absent.values_list("place", flat=True)) == [None, None, None]
    assert sorted(Entry.objects.filter(flight=flight, place__isnull=False).values_list("place", flat=True))[0] == 1


def test_too_few_checked_in_refuses_round_one_and_withdraws_nobody(club, director_user):
    _, flight, entries = _with_deadline(club, director_user, 4, 1, format="swiss", rounds=2)
    with pytest.raises(BracketError) as refused:
        services.start_round(actor=director_user, flight=flight, confirm_no_shows=True)
    assert refused.value.code == "too_few_entrants"
    assert not Entry.objects.filter(flight=flight, status=EntryStatus.WITHDRAWN).exists()


def test_a_director_checks_a_no_show_into_a_swiss_from_the_next_round(club, director_user):
    _, flight, entries = _with_deadline(club, director_user, 5, 4, format="swiss", rounds=3)
    services.start_round(actor=director_user, flight=flight, confirm_no_shows=True)
    late = entries[4]
    services.check_in(actor=director_user, entry=late)
    late.refresh_from_db()
    assert late.status == EntryStatus.CHECKED_IN and late.is_late
    play_round(director_user, flight)
    assert any(late.pk in (p.entry_a_id, p.entry_b_id) for p in Pairing.objects.filter(flight=flight, round=2))
    assert open_tables(flight)


def test_a_round_robin_refuses_a_no_show_once_its_schedule_started(club, director_user):
    _, flight, entries = _with_deadline(club, director_user, 5, 4, format="round_robin")
    services.start_round(actor=director_user, flight=flight, confirm_no_shows=True)
    with pytest.raises(Conflict) as refused:
        services.check_in(actor=director_user, entry=entries[4])
    assert refused.value.get_codes() == "rounds_started"


def test_a_player_cannot_check_in_after_being_left_out(club, director_user):
    _, flight, entries = _with_deadline(club, director_user, 5, 4, format="swiss", rounds=3)
    services.start_round(actor=director_user, flight=flight, confirm_no_shows=True)
    with pytest.raises(Conflict) as refused:
        services.check_in(actor=entries[4].player.user, entry=entries[4])
    assert refused.value.get_codes() == "entry_withdrawn"


def test_late_entry_into_a_swiss_before_any_round_and_between_rounds_is_paired(club, director_user):
    """check_late_entry: a Swiss takes a registration before round 1 and between rounds."""
    event, flight = swiss_event(club, director_user, 4, rounds=3)
    first, second = members(club, 2)
    services.register(actor=director_user, flight=flight, player=first)
    services.start_round(actor=director_user, flight=flight)
    assert Pairing.objects.filter(flight=flight, round=1).count() == 3  # five players: two tables and a bye
    services.register(actor=director_user, flight=flight, player=second)
    play_round(director_user, flight)
    assert Pairing.objects.filter(flight=flight, round=2, entry_b__isnull=False).count() == 3


def test_a_cut_as_large_as_the_field_is_refused_at_round_one_saying_what_works(club, director_user):
    _, flight, _entries = _with_deadline(club, director_user, 6, 4, format="swiss", rounds=2, cut_size=4)
    with pytest.raises(BracketError) as refused:
        # four checked in: a cut of 4 is everyone
        services.start_round(actor=director_user, flight=flight, confirm_no_shows=True)
    assert refused.value.code == "cut_too_large" and refused.value.field == "cut_size"
    assert "cut to the top 3 or fewer (at least 2)" in str(refused.value)
