"""Compiled reads (base.compiled): a read compiled once and bound again gives what its plain queryset gives —
the same rows, as the same model instances with the same related objects — in one query, and refuses what it
cannot bind again instead of answering wrongly. tests/core/test_compiled_registry.py holds every compiled read the
project keeps to the statement its queryset compiles to."""

import pytest
from django.db import connection, transaction
from django.db.models import Q
from django.test.utils import CaptureQueriesContext

from base.compiled import MOST_ARGUMENTS, CompiledRead, CompileError
from base.locks import LockError, lock
from clubs.models import Membership, Player
from games.models.matches import Match
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory
from tests.games.matchplay.factories import MatchFactory

pytestmark = pytest.mark.django_db


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


@pytest.fixture
def matches():
    club = ClubFactory()
    found = [MatchFactory(club=club) for _ in range(3)] + [MatchFactory(club=None)]
    return club, found


def test_instances_and_their_related_rows_are_the_querysets_in_one_query(matches):
    _club, found = matches
    build = lambda pk: Match.objects.select_related("player_a", "player_b", "club").filter(pk=pk)[:1]  # noqa: E731
    read = CompiledRead(build)
    for match in found:
        with CaptureQueriesContext(connection) as queries:
            got = read.first(match.pk)
            names = (got.player_a.name, got.player_b.name, got.club.name if got.club_id else None)
        expected = build(match.pk)[0]
        assert len(queries) == 1  # the related rows came with it
        assert _fields(got) == _fields(expected)
        assert names == (expected.player_a.name, expected.player_b.name, expected.club.name if got.club_id else None)
        assert got._state.db == "default" and not got._state.adding  # saved and refreshed like any loaded row
    assert read.first(max(m.pk for m in found) + 1000) is None


def test_a_missing_nullable_relation_is_none_as_the_orm_leaves_it(matches):
    _club, found = matches
    read = CompiledRead(lambda pk: Match.objects.select_related("club").filter(pk=pk)[:1])
    clubless = read.first(found[-1].pk)
    with CaptureQueriesContext(connection) as queries:
        assert clubless.club is None
    assert len(queries) == 0


def test_deferred_fields_load_when_touched_as_with_only(matches):
    _club, found = matches
    read = CompiledRead(lambda pk: Match.objects.only("pk", "club").filter(pk=pk)[:1])
    got = read.first(found[0].pk)
    assert got.get_deferred_fields() >= {"player_a_id", "status"}
    assert got.status == found[0].status  # loaded on demand, as the plain queryset's row would be


def test_values_lists_flat_lists_and_exists(matches):
    club, found = matches
    pairs = CompiledRead(lambda club_id: Match.objects.filter(club_id=club_id).order_by("pk").values_list("pk", "club"))
    flat = CompiledRead(
        lambda club_id: Match.objects.filter(club_id=club_id).order_by("pk").values_list("pk", flat=True)
    )
    assert pairs.all(club.pk) == list(Match.objects.filter(club=club).order_by("pk").values_list("pk", "club"))
    assert flat.all(club.pk) == [m.pk for m in found[:3]]
    assert flat.exists(club.pk) is True
    assert flat.exists(club.pk + 1000) is False


def test_a_string_argument_is_bound_like_a_number(matches):
    _club, found = matches
    player = found[0].player_a
    read = CompiledRead(lambda name: Player.objects.filter(name=name).order_by("pk"), strings=(0,))
    assert [p.pk for p in read.all(player.name)] == list(
        Player.objects.filter(name=player.name).values_list("pk", flat=True)
    )
    assert read.all("nobody by this name") == []
    with pytest.raises(CompileError):
        read.all(7)  # a string's place takes no number


def test_any_number_of_ids_one_plan_per_number_and_the_plain_queryset_past_the_most(matches):
    _club, found = matches
    read = CompiledRead(lambda *ids: Match.objects.filter(pk__in=ids).order_by("pk").values_list("pk", flat=True))
    ids = [m.pk for m in found]
    assert read.all(*ids[:2]) == ids[:2]
    assert read.all(*ids) == ids
    assert read.all() == []  # an empty `__in` asks nothing
    many = ids + [10_000 + n for n in range(MOST_ARGUMENTS)]
    assert read.all(*many) == ids
    with CaptureQueriesContext(connection) as queries:
        assert read.all() == []
    assert len(queries) == 0


@pytest.mark.parametrize("bad", [None, 1.5, "7"])
def test_an_argument_that_is_not_an_id_is_refused_not_bound(matches, bad):
    read = CompiledRead(lambda pk: Match.objects.filter(pk=pk))
    with pytest.raises(TypeError):
        read.all(bad)  # None would be `= NULL` bound (no row) where the ORM writes IS NULL


def test_a_read_whose_arguments_the_orm_rewrites_is_refused():
    pattern = CompiledRead(lambda name: Player.objects.filter(name__contains=name), strings=(0,))
    with pytest.raises(CompileError, match="changed on its way"):
        pattern.all("Ann")
    sliced = CompiledRead(lambda n: Player.objects.order_by("pk")[:n])
    with pytest.raises(CompileError):
        sliced.all(3)  # a slice is written into the SQL: it cannot be bound again
    named = CompiledRead(lambda pk: Player.objects.filter(pk=pk).values("name"))
    with pytest.raises(CompileError, match="values"):
        named.all(1)


def test_a_related_managers_queryset_is_refused(matches):
    club, _found = matches
    with pytest.raises(CompileError):
        CompiledRead(lambda pk: club.memberships.filter(pk=pk)).all(1)


def test_the_check_catches_a_build_that_reads_more_than_its_arguments(matches):
    """A build that depends on anything but its arguments would bind the first call's statement for ever; the
    check (`CompiledRead.check`, which the registry test runs for every read) refuses the first call that differs."""
    club, _found = matches
    state = {"public": True}
    read = CompiledRead(lambda club_id: Match.objects.filter(club_id=club_id, is_public=state["public"]))
    read.all(club.pk)
    state["public"] = False
    with pytest.raises(CompileError, match="compiles to"):
        read.check(club.pk)
    read.all(club.pk)  # unchecked, it runs what it compiled first: the check is what catches it


@pytest.mark.django_db(transaction=True)  # a test's own transaction would hide what autocommit does
def test_a_locking_read_is_checked_and_bounded_on_every_call(matches):
    _club, found = matches
    read = CompiledRead(lambda pk: lock(Match.objects, of=("self",)).filter(pk=pk)[:1])
    with transaction.atomic():
        assert read.first(found[0].pk).pk == found[0].pk
    with pytest.raises(LockError):
        read.first(found[0].pk)  # outside a transaction a FOR UPDATE locks nothing: refused, as lock() refuses


def test_the_hot_paths_reads_match_their_querysets_directly():
    """Two of the compiled reads the hot paths use, on rows made here (the whole suite reaches the others)."""
    from notifications.receivers import _DIRECTORS_OF_CLUB

    club = ClubFactory()
    directors = [MembershipFactory(club=club, role="director") for _ in range(2)]
    MembershipFactory(club=club, role="player")
    MembershipFactory(club=club, role="director", player=PlayerFactory(user=None))  # no account: not told
    expected = set(
        Membership.objects.filter(
            Q(role__in=["director", "admin"]), club=club, is_active=True, player__user__isnull=False
        ).values_list("player__user_id", flat=True)
    )
    assert set(_DIRECTORS_OF_CLUB.all(club.pk)) == expected == {m.player.user_id for m in directors}
