"""Jackpots: a waiting list that fills pods. A sign-up joins the jackpot flight's waiting list; when `pod_size`
players wait, the longest-waiting `pod_size` of them become a pod — a small knockout flight of its own
(source = the jackpot, feed rule `pod`), drawn, confirmed and released at once — so the knockout engine runs it
like any other flight, and its prize pool is its own entries' fees.

Race: two sign-ups at once would each count the waiting list before the other's entry and could put a player
into two pods, or a pod over its size. Every sign-up runs under the jackpot flight's row lock (`lock_flight`),
so the count and the move into a pod are serialised (tests/services/test_jackpot_race.py, PostgreSQL).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from base.errors import Conflict
from tournaments.models import Entry, FeedRule, Flight, FlightKind
from tournaments.services.draws import confirm_locked, draw_locked, release_locked

WINNER_TAKES_ALL = [{"flight": "", "place": 1, "percent": 100}]


def join_waiting_list(*, actor, jackpot: Flight, player) -> Entry:
    """`jackpot` is locked by the caller. Returns the entry: still waiting, or already in the pod it filled."""
    if jackpot.entries.filter(player=player).exists():
        message = _("%(player)s is on the waiting list already: a pod takes a player once.")
        raise Conflict(message % {"player": player}, code="already_waiting")
    entry = Entry.objects.create(flight=jackpot, player=player, fee=jackpot.entry_fee, registered_by=actor)
    waiting = list(jackpot.entries.order_by("created_at", "pk")[: jackpot.pod_size])
    if len(waiting) == jackpot.pod_size:
        pod = start_pod(actor=actor, jackpot=jackpot, entries=waiting)
        entry.flight = pod
    return entry


def start_pod(*, actor, jackpot: Flight, entries: list[Entry]) -> Flight:
    """A pod of `entries` (moved off the waiting list with their fees), drawn and released at once."""
    number = jackpot.fed_flights.filter(feed_rule=FeedRule.POD).count() + 1
    slug = f"{jackpot.slug[:30]}-pod-{number}"
    while jackpot.event.flights.filter(slug=slug).exists():
        number += 1
        slug = f"{jackpot.slug[:30]}-pod-{number}"
    pod = Flight.objects.create(
        event=jackpot.event,
        kind=FlightKind.JACKPOT,
        name=_("%(jackpot)s, pod %(number)s") % {"jackpot": jackpot.name, "number": number},
        slug=slug,
        order=jackpot.order,
        source=jackpot,
        feed_rule=FeedRule.POD,
        pod_size=jackpot.pod_size,
        entry_fee=jackpot.entry_fee,
        length=jackpot.length,
        # the jackpot's game: a pod is where its matches are played, by the jackpot's rules
        **jackpot.game_form,
        final_length=jackpot.final_length,
        round_lengths=jackpot.round_lengths,
        seeding=jackpot.seeding,
        seed_top_n=jackpot.seed_top_n,
        separate_clubs=jackpot.separate_clubs,
        third_place=jackpot.third_place,
        awards_entry_to=jackpot.awards_entry_to,
        clock_rule=jackpot.clock_rule,
        clock_seconds_per_point=jackpot.clock_seconds_per_point,
        clock_delay_seconds=jackpot.clock_delay_seconds,
        payout_template=[{**line, "flight": ""} for line in jackpot.payout_template] or WINNER_TAKES_ALL,
    )
    Entry.objects.filter(pk__in=[e.pk for e in entries]).update(flight=pod)
    draw_locked(pod)
    confirm_locked(pod)
    release_locked(pod, actor=actor)
    return pod
