"""Draws: draw round 1 as a draft, confirm it, release it into a bracket."""

from __future__ import annotations

import random

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from base.errors import Conflict, Invalid
from clubs import access
from clubs.models import Membership
from ratings.core.fibs import START_RATING
from ratings.selectors import player_ratings
from tournaments import hooks, selectors
from tournaments.core.draw import DrawEntrant, bracket_size
from tournaments.core.draw import draw as core_draw
from tournaments.core.draw import swap as core_swap
from tournaments.models import (
    DrawStatus,
    Entry,
    EntryStatus,
    EventStatus,
    FeedRule,
    Flight,
    FlightKind,
    FlightStatus,
    Seeding,
)
from tournaments.services.common import lock_flight
from tournaments.services.progression import BracketStore


def _home_clubs(player_ids: list[int]) -> dict[int, int]:
    clubs: dict[int, int] = {}
    for player_id, club_id in (
        Membership.objects.filter(player_id__in=player_ids, is_active=True)
        .order_by("joined_on", "pk")
        .values_list("player_id", "club_id")
    ):
        clubs.setdefault(player_id, club_id)
    return clubs


@transaction.atomic
def draw_flight(*, actor, flight: Flight, seed: int | None = None) -> Flight:
    """Draw round 1 (again, while the draw is a draft). The seed is stored so anyone can reproduce it."""
    access.require(actor, "event.direct", flight.event)
    flight = lock_flight(flight)
    return draw_locked(flight, seed=seed)


def draw_locked(flight: Flight, *, seed: int | None = None) -> Flight:
    """The draw itself, for a flight the caller has locked and may draw (a director, or a jackpot filling a
    pod on a player's sign-up)."""
    if flight.draw_status not in (DrawStatus.NONE, DrawStatus.DRAFT):
        raise Conflict(_("The draw is confirmed: it cannot be drawn again."), code="draw_confirmed")
    if flight.is_round_based:
        raise Conflict(_("This flight is played in rounds: pair its first round instead."), code="not_a_knockout")
    if flight.kind == FlightKind.JACKPOT and flight.feed_rule == FeedRule.DRAW:
        message = _("A jackpot is drawn pod by pod: each pod is drawn when its waiting list is full.")
        raise Conflict(message, code="jackpot_draws_pods")
    if flight.feed_rule not in (FeedRule.DRAW, FeedRule.FRESH_DRAW, FeedRule.POD, FeedRule.CUT):
        message = _("This flight is linked to %(source)s and needs no draw of its own.")
        raise Conflict(message % {"source": flight.source}, code="linked_flight")
    if flight.feed_rule == FeedRule.FRESH_DRAW and not fresh_draw_ready(flight=flight):
        message = _("Not every player of %(source)s has played a match yet: draw when they have.")
        raise Conflict(message % {"source": flight.source}, code="source_unfinished")
    entries = list(selectors.drawable_entries(flight).select_related("player").order_by("pk"))
    if len(entries) < 2:
        raise Invalid(_("A draw needs at least two entries."), field="entries")
    if flight.kind == FlightKind.DOUBLE_ELIMINATION and len(entries) < 3:
        raise Invalid(_("Double elimination needs at least three entries."), field="entries")
    seed = random.SystemRandom().randrange(2**53) if seed is None else int(seed)
    ratings: dict[int, float] = {}
    cut = flight.feed_rule == FeedRule.CUT
    if cut:  # seeded by the source's standings: the entries carry their place there as the seed
        ratings = {e.player_id: float(-(e.seed or 0)) for e in entries}
    elif flight.seeding == Seeding.RATING:
        ratings = player_ratings(player_ids=[e.player_id for e in entries])
        # an imported list's rating (the federation's) before the club's own (docs/data.md, "Seeding ratings")
        ratings.update({e.player_id: e.seeding_rating for e in entries if e.seeding_rating is not None})
    clubs = _home_clubs([e.player_id for e in entries]) if flight.separate_clubs else {}
    fresh = flight.feed_rule == FeedRule.FRESH_DRAW
    drawn = [
        DrawEntrant(
            e.pk,
            rating=ratings.get(e.player_id, START_RATING),
            club=clubs.get(e.player_id),
            on_time=not e.had_bye if fresh else not e.is_late,
        )
        for e in entries
    ]
    if fresh and bracket_size(len(drawn)) - len(drawn) > sum(d.on_time for d in drawn):
        drawn = [DrawEntrant(d.key, d.rating, d.club) for d in drawn]  # too few without a bye to take them all
    line = core_draw(
        drawn,
        rng_seed=seed,
        seeded=cut or flight.seeding == Seeding.RATING,
        separate_clubs=flight.separate_clubs,
        seed_top_n=None if cut else flight.seed_top_n,
    )
    by_id = {e.pk: e for e in entries}
    seed_rank = sorted(entries, key=lambda e: -ratings.get(e.player_id, START_RATING))
    Entry.objects.filter(flight=flight).update(draw_position=None)
    seeds = {e.pk: rank for rank, e in enumerate(seed_rank, start=1)}
    for position, entry_id in enumerate(line):
        if entry_id is not None:
            entry = by_id[entry_id]
            entry.draw_position = position
            entry.rating = ratings.get(entry.player_id) if ratings and not cut else None
            seeded = ratings and (cut or flight.seed_top_n is None or seeds[entry.pk] <= flight.seed_top_n)
            entry.seed = seeds[entry.pk] if seeded else None
    Entry.objects.bulk_update(entries, ["draw_position", "rating", "seed"])
    flight.random_seed, flight.size = seed, len(line)
    flight.draw_status, flight.drawn_at = DrawStatus.DRAFT, timezone.now()
    flight.save(update_fields=["random_seed", "size", "draw_status", "drawn_at"])
    return flight


@transaction.atomic
def swap_draft_positions(*, actor, flight: Flight, a: int, b: int) -> Flight:
    """A director's edit of a draft draw: the players (or byes) at line positions a and b change places. Once the
    draw is confirmed the line is fixed (redraw is refused then too)."""
    access.require(actor, "event.direct", flight.event)
    flight = lock_flight(flight)
    if flight.draw_status != DrawStatus.DRAFT:
        raise Conflict(_("Only a draft draw can be edited: the draw is not a draft."), code="not_a_draft")
    entries = list(flight.entries.filter(draw_position__isnull=False))
    line: list = [None] * (flight.size or 0)
    for entry in entries:
        line[entry.draw_position] = entry.pk
    late = frozenset(e.pk for e in entries if e.is_late)
    swapped = core_swap(line, a, b, late=late)
    moved = [e for e in entries if e.draw_position in (a, b)]
    # Two rows trading places would meet the unique (flight, draw_position) on the way: clear them first.
    Entry.objects.filter(pk__in=[e.pk for e in moved]).update(draw_position=None)
    for entry in moved:
        entry.draw_position = swapped.index(entry.pk)
    Entry.objects.bulk_update(moved, ["draw_position"])
    return flight


@transaction.atomic
def confirm_draw(*, actor, flight: Flight) -> Flight:
    access.require(actor, "event.direct", flight.event)
    flight = lock_flight(flight)
    return confirm_locked(flight)


def confirm_locked(flight: Flight) -> Flight:
    if flight.draw_status != DrawStatus.DRAFT:
        raise Conflict(_("Only a draft draw can be confirmed; draw first."), code="not_a_draft")
    flight.draw_status, flight.confirmed_at = DrawStatus.CONFIRMED, timezone.now()
    flight.save(update_fields=["draw_status", "confirmed_at"])
    return flight


@transaction.atomic
def release_draw(*, actor, flight: Flight) -> Flight:
    """Publish the confirmed draw: lay out the bracket (and the brackets linked to it), move byes on, create
    the round-1 matches."""
    access.require(actor, "event.direct", flight.event)
    flight = lock_flight(flight)
    return release_locked(flight, actor=actor)


def release_locked(flight: Flight, *, actor) -> Flight:
    if flight.draw_status != DrawStatus.CONFIRMED:
        raise Conflict(_("Confirm the draw before releasing it."), code="not_confirmed")
    if flight.playoff_second and not flight.fed_flights.filter(kind=FlightKind.CONSOLATION).exists():
        message = _(
            "%(flight)s has a playoff for 2nd against its consolation's winner, but no consolation: add a "
            "consolation flight fed by it, or switch the playoff off."
        )
        raise Conflict(message % {"flight": flight.name}, code="playoff_without_consolation")
    flight.draw_status, flight.released_at, flight.status = DrawStatus.RELEASED, timezone.now(), FlightStatus.RUNNING
    flight.save(update_fields=["draw_status", "released_at", "status"])
    event = flight.event
    if event.status == EventStatus.PLANNED:
        event.status = EventStatus.RUNNING
        event.save(update_fields=["status"])
    store = BracketStore(event, actor=actor)
    layout = store.layout(flight)
    store.create_slots(flight, layout)
    linked = flight
    while True:
        fed = store.fed_flight(linked)
        if fed is None or fed.feed_rule == FeedRule.FRESH_DRAW:
            break
        size = store.layout(linked).linked_size()
        fed.draw_status, fed.released_at = DrawStatus.RELEASED, timezone.now()
        store.touch_all(fed)
        if size < 4:  # one round-1 match cannot feed a bracket: the linked flight stays empty
            fed.save(update_fields=["draw_status", "released_at"])
            store.finish_unfed(fed)
            break
        fed.size, fed.status = size, FlightStatus.RUNNING
        fed.save(update_fields=["size", "draw_status", "status", "released_at"])
        store.create_slots(fed, store.layout(fed))
        linked = fed
    line = [None] * flight.size
    for entry in flight.entries.filter(draw_position__isnull=False):
        line[entry.draw_position] = entry
    for position, entry in enumerate(line):
        store.set_side(flight, layout.round_one_target(position), entry)
    store.notify(flight)
    hooks.draw_released(flight)
    return flight


def fresh_draw_ready(*, flight: Flight) -> bool:
    """A fresh-draw flight can be drawn once every player of its source has played (or is out) and no more
    players can come into the source."""
    source = flight.source
    if source is None or source.draw_status != DrawStatus.RELEASED:
        return False
    layout = BracketStore(flight.event).layout(source)
    last_fed = layout.fed_round_count() if layout.kind == "fed" else 1
    pending = source.slots.filter(section=layout.first_section, round__lte=last_fed).filter(
        Q(entry_a__isnull=True, a_empty=False) | Q(entry_b__isnull=True, b_empty=False)
    )
    unplayed = source.entries.filter(first_played_slot__isnull=True, place__isnull=True).exclude(
        status=EntryStatus.WITHDRAWN
    )
    return not pending.exists() and not unplayed.exists()


@transaction.atomic
def set_seeding_ratings(*, actor, flight: Flight, ratings: dict[int, float]) -> int:
    """Entries' seeding ratings from an imported list (entry id -> rating): the draw seeds by them. Only before
    the draw is confirmed (a draft is drawn again with them), and for the flight's own entries. Returns how
    many changed."""
    access.require(actor, "event.direct", flight.event)
    flight = lock_flight(flight)
    if flight.draw_status in (DrawStatus.CONFIRMED, DrawStatus.RELEASED) or flight.current_round:
        message = _("The draw of %(flight)s is confirmed: seeding ratings change only before it.")
        raise Conflict(message % {"flight": flight.name}, code="draw_confirmed")
    entries = {e.pk: e for e in Entry.objects.filter(flight=flight, pk__in=list(ratings))}
    if set(ratings) - set(entries):
        raise Invalid(_("No such entry in this flight."), field="ratings")
    changed = []
    for pk, rating in ratings.items():
        entry = entries[pk]
        if rating is not None and not 0 <= float(rating) <= 5000:
            raise Invalid(_("A rating is between 0 and 5000."), field="ratings")
        if entry.seeding_rating != rating:
            entry.seeding_rating = None if rating is None else float(rating)
            changed.append(entry)
    Entry.objects.bulk_update(changed, ["seeding_rating"])
    return len(changed)
