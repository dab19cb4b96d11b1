"""Stages that chain themselves: a Swiss, a triple elimination or a round robin with a cut, and groups, feed a
knockout (a main flight with feed rule `cut` and the stage as its source).

The knockout is created with the stage (tournaments.services.events.add_flight), so the stage's page says from
the start who goes on and when; when the stage ends (tournaments.services.rounds._finish) `fill_cut` enters its
qualifiers, seeded as the format says, and draws, confirms and releases the knockout at once (the seeds alone
decide the line: a director's draft would add nothing but a wait). A director who adds the cut after the stage
ended gets it filled the same way.

Ties at a qualifying line are never resolved silently: players equal on every criterion across the line (the
cut's, or a group's) make a `QualifyingTie`, and the knockout waits until it is decided as the flight says —
a lot the director draws (or records, when drawn at the club) on the stage's page, or a playoff match between
two players tied for one place, created at once and played like any tournament match. The row records who
decided, how and when.

Locks: the stage's flight row (6), as every write to the stage (a lot); a playoff's result comes with its match
locked by match play, which serialises it (the flight is not locked after the match: base.locks' order).
"""

from __future__ import annotations

import random

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from base.errors import Conflict, Invalid
from clubs import access
from games.models.matches import Match, MatchContext, MatchOutcome
from tournaments import hooks
from tournaments.formats import Line, format_of
from tournaments.models import DrawStatus, Entry, FeedRule, Flight, FlightStatus, QualifyingTie, QualifyingTies
from tournaments.services.common import flights_changed, lock_flight
from tournaments.services.draws import confirm_locked, draw_locked, release_locked


def cut_of(flight: Flight) -> Flight | None:
    """The knockout this stage feeds, if any."""
    return flight.fed_flights.filter(feed_rule=FeedRule.CUT).order_by("order", "pk").first()


def cut_added(cut: Flight, *, actor) -> None:
    """A cut added by the director replaces the one made with the stage while that one is still empty, and is
    filled at once when the stage has already ended."""
    source = cut.source
    source.fed_flights.filter(feed_rule=FeedRule.CUT, draw_status=DrawStatus.NONE).exclude(pk=cut.pk).exclude(
        entries__isnull=False
    ).delete()
    if source.status == FlightStatus.FINISHED:
        source = lock_flight(source)
        fill_cut(source, actor=actor)
        hooks.flight_results_changed(source)


def fill_cut(flight: Flight, *, actor) -> None:
    """Enter the stage's qualifiers into its knockout, seeded, and draw, confirm and release it; or, with a tie
    at a qualifying line not yet decided, record the tie (and start its playoff) and wait."""
    fed = cut_of(flight)
    if fed is None or fed.entries.exists():
        return
    form = format_of(flight)
    qualified: list[list[Line]] = []
    waiting = False
    for pool in form.pools(flight):
        lines = pool.lines
        found = pool.tie_at_the_line()
        if found is not None:
            tie = _record(flight, pool.group, *found, actor=actor)
            if not tie.order:
                waiting = True
                continue
            lines = _in_decided_order(lines, tie.order)
        qualified.append(lines[: pool.spots])
    if waiting:
        return  # the caller tells the pages (the tie shows on the stage's page)
    seeded = form.seeds(flight, qualified)
    Entry.objects.bulk_create(Entry(flight=fed, player_id=player_id, seed=seed, fee=0) for player_id, seed in seeded)
    if len(seeded) < 2 or fed.draw_status != DrawStatus.NONE:
        return  # withdrawals left fewer than two: the director decides what the knockout becomes
    # Not under the knockout's row lock (the lock order puts flights before the matches and tables this result
    # holds): nobody else writes its entries or its draw, since a cut flight takes no registrations and its
    # entries were created just now, in this transaction; the version still counts the change.
    flights_changed([fed.pk])
    fed.event = flight.event
    draw_locked(fed, seed=flight.random_seed)
    confirm_locked(fed)
    release_locked(fed, actor=actor)


def _in_decided_order(lines: list[Line], order: list[int]) -> list[Line]:
    """The pool with its tied block in the decided order (the others keep their standings order)."""
    rank = {entry_id: i for i, entry_id in enumerate(order)}
    tied = sorted((line for line in lines if line.entry_id in rank), key=lambda line: rank[line.entry_id])
    block = iter(tied)
    return [next(block) if line.entry_id in rank else line for line in lines]


def _record(flight: Flight, group: int, tied: list[Line], places: int, *, actor) -> QualifyingTie:
    """The tie of this pool as it stands; a tie whose players changed (a corrected result) starts over."""
    ids = [line.entry_id for line in tied]
    method = flight.qualifying_ties
    if method == QualifyingTies.PLAYOFF and (len(ids) != 2 or places != 1):
        method = QualifyingTies.LOT  # a playoff is one match: more players or places are drawn by lot (docs)
    tie, created = QualifyingTie.objects.get_or_create(
        flight=flight, group=group, defaults={"tied": ids, "places": places, "method": method}
    )
    if not created and (tie.tied != ids or tie.places != places):
        tie.tied, tie.places, tie.method, tie.order, tie.match = ids, places, method, [], None
        tie.decided_by, tie.decided_at = None, None
        tie.save()
    if tie.method == QualifyingTies.PLAYOFF and tie.match_id is None and not tie.order:
        tie.match = _playoff_match(flight, [line.player_id for line in tied], actor=actor)
        tie.save(update_fields=["match"])
    return tie


def _playoff_match(flight: Flight, players: list[int], *, actor) -> Match:
    match = Match.objects.create(
        player_a_id=players[0],
        player_b_id=players[1],
        length=flight.length,
        context=MatchContext.TOURNAMENT,
        club_id=flight.event.club_id,
        is_public=flight.event.is_public,
        created_by=actor if getattr(actor, "is_authenticated", False) else None,
        **flight.game_form,
    )
    hooks.match_called(match, None)
    return match


@transaction.atomic
def decide_by_lot(*, actor, tie: QualifyingTie, qualified: list[int] | None = None) -> QualifyingTie:
    """The director separates a tie at the qualifying line: `qualified` names the tied entries who go on (a lot
    drawn at the club, recorded here), or, without it, the lot is drawn here. Then the cut is filled."""
    access.require(actor, "event.direct", tie.flight.event)
    flight = lock_flight(tie.flight)
    tie = QualifyingTie.objects.get(pk=tie.pk)  # read under the stage's lock, which every lot takes first
    if tie.order:
        raise Conflict(_("This tie is decided already."), code="tie_decided")
    if tie.match_id is not None:
        raise Conflict(_("This tie is decided by its playoff match: report the match."), code="tie_playoff")
    if qualified is None:
        order = list(tie.tied)
        random.SystemRandom().shuffle(order)
    else:
        if len(set(qualified)) != tie.places or not set(qualified) <= set(tie.tied):
            message = _("Choose exactly %(n)s of the tied players to go on.") % {"n": tie.places}
            raise Invalid(message, field="qualified")
        order = [e for e in tie.tied if e in qualified] + [e for e in tie.tied if e not in qualified]
    tie.order, tie.decided_by, tie.decided_at = order, actor, timezone.now()
    tie.method = QualifyingTies.LOT
    tie.save(update_fields=["order", "decided_by", "decided_at", "method"])
    fill_cut(flight, actor=actor)
    hooks.flight_results_changed(flight)
    return tie


def playoff_confirmed(match, report) -> bool:
    """Match play's hook for a playoff at a qualifying line: its winner goes on, then the cut is filled (an
    annulled playoff is played again). False when the match is no playoff."""
    if match.context != MatchContext.TOURNAMENT:
        return False
    tie = QualifyingTie.objects.filter(match=match).select_related("flight__event").first()
    if tie is None:
        return False
    # Not under the stage's row lock (the lock order puts flights before the match match play holds): the match
    # belongs to this tie alone, so its lock serialises every result of it; the version still counts the change.
    flight = tie.flight
    flights_changed([flight.pk])
    if report.outcome == MatchOutcome.ANNULLED or match.winner_id is None:
        tie.match = _playoff_match(flight, [match.player_a_id, match.player_b_id], actor=report.confirmed_by)
        tie.order = []
        tie.save(update_fields=["match", "order"])
        return True
    by_player = dict(Entry.objects.filter(pk__in=tie.tied).values_list("player_id", "pk"))
    winner = by_player[match.winner_id]
    tie.order = [winner] + [e for e in tie.tied if e != winner]
    tie.decided_at = timezone.now()
    tie.save(update_fields=["order", "decided_at"])
    fill_cut(flight, actor=report.confirmed_by)
    hooks.flight_results_changed(flight)
    return True
