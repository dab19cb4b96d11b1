"""Writes for rating pools: rating a confirmed match, recomputing a pool.

A newly confirmed match that is the latest in its pool is rated at once (incrementally). Anything else that
changes a pool's history — a correction or annulment of a rated result, or a result dated before matches that
are already rated — marks the pool for a recompute from that instant and enqueues a task on commit. A change to
an already rated result (a correction, a director's override and the matches it voids) does not even lock the
pool: it inserts a RecomputeRequest that is folded into the pool after commit, so an override on one event
never waits for one on another (they share the overall pool). The pool row is locked FOR NO KEY UPDATE: lockers
still line up, while rows that only point at the pool (a request, a rated match) are inserted without waiting. The task
claims the pool once (UPDATE … WHERE recompute_pending, row count checked), so two recomputes requested at
once run once, and rebuilds the pool from its match history in date order: running it twice gives the same
numbers.
"""

from __future__ import annotations

import logging
import operator
from collections.abc import Iterable
from contextlib import contextmanager
from datetime import datetime, timedelta
from functools import cache, partial, reduce

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import CharField, Exists, F, OuterRef, Q
from django.db.models.functions import Cast
from django.utils import timezone
from psycopg.types.datetime import TimestamptzLoader

from base.bulk import insert_rows
from base.compiled import CompiledRead
from base.locks import lock, share
from base.queue import enqueue_on_commit
from clubs import access
from clubs.models import Club, Membership, Player
from games.models.matches import Match, MatchReport, MatchStatus
from games.models.variants import GameVariant
from ratings.core import fibs
from ratings.hooks import club_consent, not_rated
from ratings.models import PlayerRating, RatedMatch, RatingPool, RecomputeRequest

INSERT_BATCH = 5000
logger = logging.getLogger(__name__)
RECOMPUTE_TASK = "ratings.tasks.recompute_rating_pool"


def k_rule() -> str:
    """The FIBS K rule: settings.RATINGS_FIBS_K_RULE, "a" (experience before the match) unless set to "b"."""
    rule = getattr(settings, "RATINGS_FIBS_K_RULE", "a")
    if rule not in fibs.K_RULES:
        raise ValueError(f"RATINGS_FIBS_K_RULE must be 'a' or 'b', not {rule!r}")
    return rule


def overall_pool(variant: str = GameVariant.STANDARD) -> RatingPool:
    pool = RatingPool.objects.filter(club__isnull=True, variant=variant).first()
    if pool is None:
        pool, _created = RatingPool.objects.get_or_create(club=None, variant=variant)
    return pool


def club_pool(club_id: int, variant: str = GameVariant.STANDARD) -> RatingPool:
    pool, _created = RatingPool.objects.get_or_create(club_id=club_id, variant=variant)
    return pool


def pool_variant(standard: RatingPool, variant: str) -> str:
    """The variant whose pool rates a result of `variant`: its own, unless the standard pool of the same club
    (or the overall standard pool) merges every variant into itself."""
    return GameVariant.STANDARD if standard.merge_variants else variant


# pools_for's read of the standard pools (the overall one, and the club's), compiled once per process.
_STANDARD_POOLS = CompiledRead(
    lambda club_id: RatingPool.objects.filter(
        Q(club__isnull=True) | Q(club_id=club_id), variant=GameVariant.STANDARD
    ).order_by("pk")
)
_OVERALL_STANDARD_POOL = CompiledRead(
    lambda: RatingPool.objects.filter(club__isnull=True, variant=GameVariant.STANDARD).order_by("pk")
)


def pools_for(match: Match) -> list[RatingPool]:
    """The overall pool of the match's variant, and the club's pool of it when the match was played at a club;
    a pool whose standard pool merges the variants is that standard pool."""
    pools = []
    found = _STANDARD_POOLS.all(match.club_id) if match.club_id is not None else _OVERALL_STANDARD_POOL.all()
    known = {(p.club_id, p.variant): p for p in found}
    standards = [known.get((None, GameVariant.STANDARD)) or overall_pool()]  # one query when both exist
    if match.club_id is not None:
        standards.append(known.get((match.club_id, GameVariant.STANDARD)) or club_pool(match.club_id))
    for standard in standards:
        variant = pool_variant(standard, match.variant)
        if variant == GameVariant.STANDARD:
            pools.append(standard)
        elif standard.club_id is None:
            pools.append(overall_pool(variant))
        else:
            pools.append(club_pool(standard.club_id, variant))
    return pools


def _variant_condition(pool: RatingPool) -> Q:
    """Which matches a pool takes by variant: its own variant; a merging standard pool every variant; a
    standard pool that does not merge only standard matches. A variant pool whose standard pool merges takes
    none (its results are in the standard pool)."""
    if pool.variant == GameVariant.STANDARD:
        return Q() if pool.merge_variants else Q(variant=GameVariant.STANDARD)
    standard = RatingPool.objects.filter(club_id=pool.club_id, variant=GameVariant.STANDARD, merge_variants=True)
    return Q(variant=pool.variant) & ~Exists(standard)


def played_out(match: Match) -> bool:
    """Finished, played out, fixed length, with a winner: forfeits, walkovers, annulled matches are not."""
    return bool(
        match.rated
        and match.status == MatchStatus.FINISHED
        and match.winner_id is not None
        and match.length >= 1
        and match.finished_at is not None
    )


def _in_club(side: str, club) -> Q:
    """The player on `side` is in the club by their own acceptance, or is the club's own walk-in. `club` is a
    club id or OuterRef/F to one."""
    club_ref = OuterRef(club.name) if isinstance(club, F) else club
    accepted = Membership.objects.filter(club=club_ref, player=OuterRef(side), status=Membership.Status.ACCEPTED)
    # A subquery, not a join on the player: with a join, PostgreSQL planning on stale statistics (a pool's
    # matches imported in bulk) chose a nested loop that scanned the players for every match, 40 s for 200,000.
    # Membership first: most players of a club's matches are members, so the walk-in probe mostly is not made.
    walk_in = Player.objects.filter(pk=OuterRef(side), created_by_club=club_ref)
    return Exists(accepted) | Exists(walk_in)


def _both_players_agreed() -> Exists:
    """One player reported the confirmed result and the other confirmed it."""
    by = Q(submitted_by__player=OuterRef("player_a")) | Q(submitted_by__player=OuterRef("player_b"))
    confirmed_by = Q(confirmed_by__player=OuterRef("player_a")) | Q(confirmed_by__player=OuterRef("player_b"))
    reports = MatchReport.objects.filter(by, confirmed_by, match=OuterRef("pk"), confirmed=True).exclude(
        submitted_by=F("confirmed_by")
    )
    return Exists(reports)


def rateable_matches(pool: RatingPool):
    """THE rule for what counts in a pool — the incremental rating of one result and the rebuild of a pool both
    ask it, so they cannot disagree.

    - Only matches played out (not forfeits, walkovers, annulments), and none another app keeps out
      (ratings.hooks.not_rated: a consultation or doubles pair's match).
    - A club's pool: only matches of that club between players who are in it by their own acceptance or are its
      walk-ins.
    - The overall pool: a result both players agreed on (one reported, the other confirmed); or a result a
      director decided at an approved club, for players who belong to that club by their own acceptance (or are
      its walk-ins) or entered one of its events themselves (that condition is the tournaments app's, added
      through ratings.hooks.club_consent). Never a director's decision about strangers, and
      never a club's before site staff approved it.
    """
    matches = Match.objects.filter(
        _variant_condition(pool),
        rated=True,
        status=MatchStatus.FINISHED,
        winner__isnull=False,
        finished_at__isnull=False,
        length__gte=1,
    )
    for condition in not_rated.conditions():
        matches = matches.exclude(condition)
    if pool.club_id is not None:
        club_id = pool.club_id
        return matches.filter(_in_club("player_a", club_id), _in_club("player_b", club_id), club_id=club_id)
    consented = [
        reduce(operator.or_, [_in_club(side, F("club")), *club_consent.conditions(side)])
        for side in ("player_a", "player_b")
    ]
    decided_at_approved_club = Q(*consented, club__is_approved=True)
    # The director's-decision branch first: its membership probes answer most club matches, and a match it
    # admits needs no look at the reports.
    return matches.filter(decided_at_approved_club | _both_players_agreed())


def is_rateable(match: Match, pool: RatingPool) -> bool:
    """Does the match count in the pool now (rateable_matches, asked for one match)?"""
    return rateable_in(match, [pool])[pool.pk]


def rateable_in(match: Match, pools: list[RatingPool]) -> dict[int, bool]:
    """is_rateable for each of the pools, by pool id, in one query: `SELECT pool WHERE EXISTS (the rule for this
    match)` for each pool, joined by UNION ALL. The rule's SQL is compiled once per pool (`_rule_sql`): building
    its joins through the ORM cost a confirmation more CPU than any other statement it sends."""
    if not played_out(match) or not pools:
        return {pool.pk: False for pool in pools}
    parts, params = [], []
    for pool in pools:
        compiled = _rule_sql(pool)
        if compiled is None:  # the match's id could not be told apart in the compiled SQL: ask the ORM
            return {p.pk: rateable_matches(p).filter(pk=match.pk).exists() for p in pools}
        sql, rule_params, at = compiled
        rule_params = list(rule_params)
        rule_params[at] = match.pk
        parts.append(f"SELECT %s WHERE EXISTS ({sql})")
        params += [pool.pk, *rule_params]
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(parts), params)
        found = {row[0] for row in cursor.fetchall()}
    return {pool.pk: pool.pk in found for pool in pools}


# The rule asked for one match (rateable_matches(pool).filter(pk=…)), compiled with this id in the match's place
# and kept per pool and rule: (sql, params, index of the match's id in params), or None when the id is not
# found exactly once among the params. What the SQL depends on is the key: the pool's club, variant and merging,
# and the other apps' registered conditions.
_RULES: dict[tuple, tuple[str, tuple, int] | None] = {}
_MATCH_PLACEHOLDER = -1_234_567_891


def _rule_sql(pool: RatingPool) -> tuple[str, tuple, int] | None:
    key = (
        connection.vendor,
        pool.pk,
        pool.club_id,
        pool.variant,
        pool.merge_variants,
        not_rated.registered(),
        club_consent.registered(),
    )
    if key not in _RULES:
        rule = rateable_matches(pool).filter(pk=_MATCH_PLACEHOLDER).order_by().values("pk")
        sql, params = rule.query.sql_with_params()
        at = [i for i, value in enumerate(params) if type(value) is int and value == _MATCH_PLACEHOLDER]
        _RULES[key] = (sql, tuple(params), at[0]) if len(at) == 1 else None
    return _RULES[key]


def on_club_approval_changed(club: Club) -> None:
    """clubs.hooks.approval_changed callback: the club's directors' decisions enter or leave the overall pool, so
    it is recomputed from the club's first rated match on (club pools do not depend on approval)."""
    first = (
        Match.objects.filter(club=club, rated=True, finished_at__isnull=False)
        .order_by("finished_at")
        .values_list("finished_at", flat=True)
        .first()
    )
    if first is not None:
        overall_pool()  # the standard pool exists even when only other variants were played so far
        for pool in RatingPool.objects.filter(club__isnull=True).order_by("pk"):  # every variant's overall pool
            request_recompute(pool=pool, since=first)


def _later_rows_exist(pool: RatingPool, match: Match, players: list[int]) -> bool:
    """Is one of `players` (of `match`) rated in the pool after it? Then rating it now would be out of order. A
    later match of two other players is not: its ratings do not depend on this one. A player without a rating row
    in the pool has no rated match in it (both are written together), so only those with one are asked about."""
    if not players:
        return False
    later = Q(played_at__gt=match.finished_at) | Q(played_at=match.finished_at, match_id__gt=match.pk)
    return RatedMatch.objects.filter(later, Q(winner_id__in=players) | Q(loser_id__in=players), pool=pool).exists()


def on_result_confirmed(match: Match, report) -> None:
    """games.matchplay.hooks callback, inside the confirmation's transaction."""
    rated = RatedMatch.objects.filter(match_id=match.pk).order_by()  # one query for every pool's row of this match
    rows = {
        pool_id: {"pool_id": pool_id, "played_at": played_at, "winner_id": winner_id, "length": length}
        for pool_id, played_at, winner_id, length in rated.values_list("pool_id", "played_at", "winner_id", "length")
    }
    if not played_out(match) and not rows:
        return  # a forfeit, walkover or annulment of a match that was never rated: no pool to lock
    pools = pools_for(match)
    rateable = rateable_in(match, pools)
    # The pools the match is rated in at once (see apply_result) are shared in one query, before any rating row.
    shared = share(RatingPool, [p.pk for p in pools if rows.get(p.pk) is None and rateable[p.pk]], "recompute_pending")
    for pool in pools:
        apply_result(
            pool=pool, match=match, existing=rows.get(pool.pk), rateable=rateable[pool.pk], shared=shared.get(pool.pk)
        )


def apply_result(
    *, pool: RatingPool, match: Match, existing=..., rateable: bool | None = None, shared: tuple | None = None
) -> str:
    """Rate the match in the pool now, or mark the pool for a recompute. Returns what happened:
    "rated", "unchanged", "ignored" or "recompute". `existing`: the match's RatedMatch values in the pool,
    `rateable`: whether it counts in it, and `shared`: the pool's (recompute_pending,) read FOR SHARE, when the
    caller read them already."""
    if existing is ...:
        existing = RatedMatch.objects.filter(pool=pool, match=match).values("played_at", "winner_id", "length").first()
    if rateable is None:
        rateable = is_rateable(match, pool)
    if existing is None and not rateable:
        return "ignored"
    if (
        existing is not None
        and rateable
        and (existing["winner_id"], existing["length"])
        == (
            match.winner_id,
            match.length,
        )
    ):
        return "unchanged"  # a corrected score with the same winner and length rates the same
    if existing is not None:
        # A rated result changed or was voided (a correction, an override and the later matches it voids): only
        # a recompute follows that, and asking for one needs no pool row lock held to the end of this
        # transaction (see RecomputeRequest).
        starts = [t for t in (existing["played_at"], rateable and match.finished_at) if t]
        defer_recompute(pool=pool, since=min(starts))
        return "recompute"
    # Race: results of any events share the pool (a rebuild, which locks it, waits for them and they for it).
    # Two results confirmed at once with a player in common would both read that player's current rating: the
    # players' rating rows are locked, so the second waits and reads what the first wrote.
    (pending,) = shared or share(RatingPool, [pool.pk], "recompute_pending")[pool.pk]
    players = sorted({match.player_a_id, match.player_b_id})
    ratings = _lock_ratings(pool, players)
    # Only the two players' later matches depend on this one. A request not folded yet (RecomputeRequest) is not
    # asked about: the recompute it leads to starts earlier than this match, so it rates this match again over
    # the corrected history either way.
    in_order = not pending and not _later_rows_exist(pool, match, list(ratings))
    if in_order and len(ratings) < len(players):
        # A player's first result in the pool: the row is made now (ON CONFLICT, so a first result of theirs
        # committed meanwhile makes none), and a row made here is ours until commit. A row somebody else made
        # meanwhile is locked; had that other result been rated, the order is asked about again.
        new = [p for p in players if p not in ratings]
        ratings.update(_new_ratings(pool, new))
        if len(ratings) < len(players):
            ratings = _lock_ratings(pool, players)
            if any(ratings[p].matches for p in new):
                in_order = not _later_rows_exist(pool, match, players)
    if in_order:
        _rate_one(pool, match, ratings)
        return "rated"
    defer_recompute(pool=pool, since=match.finished_at)
    return "recompute"


def _lock_ratings(pool: RatingPool, players: list[int]) -> dict[int, PlayerRating]:
    """The players' rating rows in the pool that exist, locked in player order."""
    if not players:
        return {}
    return {row.player_id: row for row in _LOCKED_RATINGS.all(pool.pk, *players)}


_LOCKED_RATINGS = CompiledRead(
    lambda pool_id, *players: lock(PlayerRating.objects)
    .filter(pool_id=pool_id, player_id__in=players)
    .order_by("player_id")
)


def _new_ratings(pool: RatingPool, players: list[int]) -> dict[int, PlayerRating]:
    """Start rating rows for these players in the pool (INSERT … ON CONFLICT DO NOTHING RETURNING: one query);
    returns the rows made, by player: a player whose row exists already is left out."""
    fresh = {p: PlayerRating(pool=pool, player_id=p) for p in players}
    quote = connection.ops.quote_name
    columns = ("pool_id", "player_id", "rating", "experience", "matches", "wins")
    values = ", ".join(["(%s, %s, %s, %s, %s, %s)"] * len(players))
    params = [v for r in fresh.values() for v in (pool.pk, r.player_id, r.rating, r.experience, r.matches, r.wins)]
    table, pool_id, player_id = quote(PlayerRating._meta.db_table), quote("pool_id"), quote("player_id")
    sql = (
        f"INSERT INTO {table} ({', '.join(map(quote, columns))}) VALUES {values} "  # noqa: S608 - names only
        f"ON CONFLICT ({pool_id}, {player_id}) DO NOTHING RETURNING {quote('id')}, {player_id}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        made = cursor.fetchall()
    for pk, player in made:
        fresh[player].pk = pk
        fresh[player]._state.adding, fresh[player]._state.db = False, connection.alias
    return {player: fresh[player] for _pk, player in made}


def defer_recompute(*, pool: RatingPool, since: datetime | None) -> None:
    """Ask for a recompute of the pool from `since` without locking the pool row: a request row now, folded into
    the pool right after commit (`fold_requests`), or by the sweep if that fold could not run."""
    RecomputeRequest.objects.create(pool=pool, since=since)
    fold = partial(_fold_after_commit, pool.pk)
    waiting = transaction.get_connection().run_on_commit
    if not any(getattr(f, "func", None) is _fold_after_commit and f.args == fold.args for _s, f, *_r in waiting):
        transaction.on_commit(fold)  # once per pool: an import of many old results folds them all at once


def _fold_after_commit(pool_id: int) -> None:
    """After the commit that asked: never fails the request that has committed (the sweep folds what is left)."""
    try:
        fold_requests(pool_id=pool_id, skip_locked=True)
    except DatabaseError:
        logger.exception("Recompute requests of rating pool %s are left for the sweep", pool_id)


@transaction.atomic
def fold_requests(*, pool_id: int, skip_locked: bool = False) -> bool:
    """Turn the pool's recompute requests into one request_recompute (from the earliest instant asked; the whole
    history if any asked for it). With `skip_locked`, a pool locked right now (a recompute running) is left as
    it is: the recompute folds them when it ends, and the sweep otherwise. True when something was folded."""
    pool = lock(RatingPool.objects, skip_locked=skip_locked).filter(pk=pool_id).first()
    if pool is None:
        return False
    requests = list(RecomputeRequest.objects.filter(pool=pool).values_list("pk", "since"))
    if not requests:
        return False
    starts = [since for _pk, since in requests]
    RecomputeRequest.objects.filter(pk__in=[pk for pk, _since in requests]).delete()
    request_recompute(pool=pool, since=None if None in starts else min(starts))
    return True


def _rate_one(pool: RatingPool, match: Match, current: dict[int, PlayerRating]) -> RatedMatch:
    """Rate the match over its players' current (locked) ratings in the pool."""
    loser_id = match.player_b_id if match.winner_id == match.player_a_id else match.player_a_id
    winner, loser = current[match.winner_id], current[loser_id]
    result = fibs.rate(
        winner_rating=winner.rating,
        loser_rating=loser.rating,
        winner_experience=winner.experience,
        loser_experience=loser.experience,
        length=match.length,
        k_rule=k_rule(),
    )
    row = RatedMatch.objects.create(
        pool=pool,
        match=match,
        played_at=match.finished_at,
        winner_id=match.winner_id,
        loser_id=loser_id,
        length=match.length,
        winner_rating=result.winner_rating,
        loser_rating=result.loser_rating,
        winner_experience=result.winner_experience,
        loser_experience=result.loser_experience,
        difference=result.difference,
        upset_probability=result.upset_probability,
        winner_k=result.winner_k,
        loser_k=result.loser_k,
        winner_change=result.winner_change,
        loser_change=result.loser_change,
    )
    for rating, change, won in ((winner, result.winner_change, 1), (loser, result.loser_change, 0)):
        rating.rating += change
        rating.experience += match.length
        rating.matches += 1
        rating.wins += won
        rating.last_played_at = match.finished_at
    _save_ratings([winner, loser])
    return row


RATING_FIELDS = ("rating", "experience", "matches", "wins", "last_played_at")


@cache
def _ratings_update_sql(vendor: str, count: int) -> str:
    """UPDATE of `count` rating rows in one statement, each column a CASE on the row's id. Built once per database
    and row count: bulk_update builds the same CASE expressions through the ORM on every call, 3.4 ms for the
    two rows of a result on PostgreSQL, against about 0.5 ms for this."""
    quote = connection.ops.quote_name
    key = quote("id")
    whens = " ".join(["WHEN %s THEN %s"] * count)
    sets = ", ".join(f"{quote(f)} = CASE {key} {whens} END" for f in RATING_FIELDS)
    marks = ", ".join(["%s"] * count)
    return f"UPDATE {quote(PlayerRating._meta.db_table)} SET {sets} WHERE {key} IN ({marks})"  # noqa: S608


def _save_ratings(rows: list[PlayerRating]) -> None:
    """Store the rating fields of these (locked) rows: one statement (see _ratings_update_sql)."""
    fields = [PlayerRating._meta.get_field(f) for f in RATING_FIELDS]
    params: list = []
    for field in fields:
        for row in rows:
            params += [row.pk, field.get_db_prep_save(getattr(row, field.attname), connection)]
    params += [row.pk for row in rows]
    with connection.cursor() as cursor:
        cursor.execute(_ratings_update_sql(connection.vendor, len(rows)), params)


@transaction.atomic
def request_recompute(*, pool: RatingPool, since: datetime | None) -> None:
    """Mark the pool for a recompute from `since` (None: the whole history) and enqueue it after commit."""
    pool = lock(RatingPool.objects).get(pk=pool.pk)
    now = timezone.now()
    # A task is already queued for a pending pool: enqueue again only when none was asked for lately (a lost
    # message must not leave the pool pending for ever). So a demo or an import that confirms many old results
    # in one transaction queues one recompute, not one per result.
    enqueue = not pool.recompute_pending or (
        pool.recompute_requested_at is None or now - pool.recompute_requested_at > _requeue_after()
    )
    if pool.recompute_pending:
        if pool.recompute_from is not None:
            pool.recompute_from = None if since is None else min(pool.recompute_from, since)
    else:
        pool.recompute_pending, pool.recompute_from = True, since
    if enqueue:
        pool.recompute_requested_at = now
    pool.save(update_fields=["recompute_pending", "recompute_from", "recompute_requested_at"])
    if enqueue:
        _queue_recompute(pool.pk)


def _requeue_after() -> timedelta:
    """A pending pool whose task was sent this long ago without running is sent again (settings.TASK_STALE_SECONDS)."""
    return timedelta(seconds=settings.TASK_STALE_SECONDS)


def _queue_recompute(pool_id: int) -> None:
    """Send the recompute after commit (base.queue); when the broker is down the pool stays pending, marked as
    not sent, so the next sweep sends it. Sent by the task's name: ratings.tasks imports this module."""
    enqueue_on_commit(RECOMPUTE_TASK, pool_id, on_failure=partial(_mark_unsent, pool_id))


def _mark_unsent(pool_id: int) -> None:
    RatingPool.objects.filter(pk=pool_id, recompute_pending=True).update(recompute_requested_at=None)


@transaction.atomic
def sweep_pending_pools() -> int:
    """core.sweep: fold recompute requests whose fold after commit did not run, and send again the recompute of
    pools left pending (the broker was down, or the worker died and its transaction rolled back). A pool being
    recomputed right now is locked by its task and skipped (SKIP LOCKED), and each pool sent is marked sent in
    this transaction, so two sweeps never send one pool twice."""
    for pool_id in set(RecomputeRequest.objects.values_list("pool_id", flat=True)):
        fold_requests(pool_id=pool_id, skip_locked=True)  # requests whose fold after commit did not run
    stale = timezone.now() - _requeue_after()
    pools = list(
        lock(RatingPool.objects, skip_locked=True)
        .filter(Q(recompute_requested_at__isnull=True) | Q(recompute_requested_at__lt=stale), recompute_pending=True)
        .values_list("pk", flat=True)
    )
    RatingPool.objects.filter(pk__in=pools).update(recompute_requested_at=timezone.now())
    for pool_id in pools:
        _queue_recompute(pool_id)
    return len(pools)


@transaction.atomic
def request_full_recompute(*, actor, pool: RatingPool) -> None:
    """A club admin (of the pool's club) or a superuser rebuilds a pool from its whole history."""
    access.require(actor, "ratings.recompute", pool)
    request_recompute(pool=pool, since=None)


@transaction.atomic
def set_merge_variants(*, actor, club: Club, merge: bool) -> RatingPool:
    """A club admin merges every variant's results into the club's standard pool (or splits them again). The
    club's pools of every variant are rebuilt from their whole history, since which matches each holds changed."""
    standard = club_pool(club.pk)
    access.require(actor, "ratings.merge_variants", standard)
    if standard.merge_variants != merge:
        standard.merge_variants = merge
        standard.save(update_fields=["merge_variants"])
        for pool in RatingPool.objects.filter(club=club).order_by("pk"):
            request_recompute(pool=pool, since=None)
    return standard


def recompute_pool(*, pool_id: int) -> bool:
    """Run a requested recompute; False when there was nothing to claim (another worker ran it already)."""
    with transaction.atomic():
        # Claim once: the UPDATE takes the pool row; a second recompute requested at the same moment waits on it
        # and then finds nothing pending (row count 0), so it does not run the same work again.
        claimed = RatingPool.objects.filter(pk=pool_id, recompute_pending=True).update(recompute_pending=False)
        if not claimed:
            return False
        pool = RatingPool.objects.get(pk=pool_id)
        # The requests this rebuild answers: committed (so their changes are what it reads) and from its start
        # on. Later ones stay for the fold after it.
        covered = RecomputeRequest.objects.filter(pool_id=pool_id)
        if pool.recompute_from is not None:
            covered = covered.filter(since__gte=pool.recompute_from)
        covered.delete()
        rebuild(pool=pool, since=pool.recompute_from)
        pool.recompute_from = None
        pool.recomputed_at = timezone.now()
        pool.recompute_count += 1
        pool.save(update_fields=["recompute_from", "recomputed_at", "recompute_count"])
    _fold_after_commit(pool_id)  # requests that came while it ran (their own fold skipped the locked pool)
    return True


def recompute_now(*, pool: RatingPool) -> bool:
    """Rebuild the whole pool in this process (a command, the demo); the task queued by the request then finds
    nothing left to claim. False when another worker had already claimed it."""
    request_recompute(pool=pool, since=None)
    return recompute_pool(pool_id=pool.pk)


RATED_MATCH_FIELDS = (
    "pool", "played_at", "match", "winner", "loser", "length", "winner_rating", "loser_rating", "winner_experience",
    "loser_experience", "difference", "upset_probability", "winner_k", "loser_k", "winner_change", "loser_change",
)  # fmt: skip


def _insert_rated_rows(params: Iterable[tuple]) -> None:
    """Insert explanation rows without building model instances: a million of them through bulk_create would cost
    minutes of SQL compilation. The values are already what the columns take (ids, numbers, raw date-times)."""
    insert_rows(RatedMatch, RATED_MATCH_FIELDS, params)


def _raw(queryset) -> list[tuple]:
    """The rows of a values_list queryset as the database returns them, without Django's per-value converters:
    date-times stay in the backend's own form (SQLite's text, psycopg's datetime), so they can go straight back
    into an INSERT (on SQLite the converters alone cost seconds per 100,000 rows)."""
    sql, params = queryset.query.sql_with_params()
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # psycopg's own loader, in C: Django's converts each date-time again in Python to set its time zone
            # (2.8 s of client CPU per million), and these only go back into a COPY, where the instant is all
            # that counts (the session's time zone is UTC either way).
            cursor.cursor.adapters.register_loader("timestamptz", TimestamptzLoader)
        cursor.execute(sql, params)
        return cursor.fetchall()


# Fewer rows than this go into the per-player indexes as they are written (well under a second on SQLite): not
# worth counting a large table to decide.
SET_ASIDE_FROM_ROWS = 20_000


@contextmanager
def _player_indexes_set_aside(adding: int):
    """SQLite, when a rebuild writes at least a quarter of the explanation rows there will be: the indexes by
    player (RatedMatch.PLAYER_INDEXES) are dropped while the rows are written and made again after, in the same
    transaction. Their keys come in no order the rows are written in, so each row cost a search and often a
    page split in both; made again they are one sort. Inserting a million rows (sqlite3 alone, CPU): 7.0 -> 3.0 s
    into an empty table, 10.8 -> 4.1 s beside a million others. SQLite has one writer for the whole
    database anyway and a reader keeps its snapshot, indexes and all, so nobody waits longer. Not PostgreSQL:
    DROP INDEX would lock the table against every reader until the commit. A smaller rebuild (one club's
    history beside a large table) writes into the indexes, since making them again costs the whole table."""
    if connection.vendor != "sqlite" or not connection.in_atomic_block or adding < SET_ASIDE_FROM_ROWS:
        yield
        return
    if adding * 3 < RatedMatch.objects.count():
        yield
        return
    indexes = [index for index in RatedMatch._meta.indexes if index.name in RatedMatch.PLAYER_INDEXES]
    editor = connection.schema_editor()
    with connection.cursor() as cursor:
        for index in indexes:
            cursor.execute(f"DROP INDEX {connection.ops.quote_name(index.name)}")
        yield
        for index in indexes:
            cursor.execute(str(index.create_sql(RatedMatch, editor)))


def _last_played(stream: list[tuple]) -> dict[int, object]:
    """Each player's last `at` in a date-ordered stream of (id, winner, player_a, player_b, length, at): the later
    of their last match as player a and as player b, found by position (dicts built in C keep a key's last
    position) rather than by a dict write per match."""
    at = operator.itemgetter(5)
    as_a = dict(zip(map(operator.itemgetter(2), stream), range(len(stream)), strict=True))
    as_b = dict(zip(map(operator.itemgetter(3), stream), range(len(stream)), strict=True))
    last = as_a
    for player, position in as_b.items():
        if position > last.get(player, -1):
            last[player] = position
    return {player: at(stream[position]) for player, position in last.items()}


def rebuild(*, pool: RatingPool, since: datetime | None = None) -> int:
    """Replay the pool's rated matches from `since` on (all when None) over the state before it; returns the
    number of matches rated. The caller holds the pool (recompute_pool's claim)."""
    state: fibs.State = {}
    last_played: dict[int, object] = {}
    if connection.vendor == "postgresql":
        # Check each written row's references as it is written rather than queueing the deferred checks for the
        # commit: the queue grows in memory, and made a million-match rebuild take ten times a tenth's when the
        # explanation rows still had constraints (the current ratings have theirs).
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            # The rule's subqueries over a million matches are costed far above jit_above_cost, and compiling the
            # stream's query took 1.8 of its 3.1 s on the server (the overall pool); it runs in 1.3 s without.
            cursor.execute("SET LOCAL jit = off")
    if since is not None:
        earlier = (
            RatedMatch.objects.filter(pool=pool, played_at__lt=since)
            .order_by("played_at", "match_id")
            .values_list(
                "winner_id", "loser_id", "length", "winner_rating", "loser_rating", "winner_experience",
                "loser_experience", "winner_change", "loser_change", "played_at",
            )
        )  # fmt: skip
        for w, lo, n, rw, rl, ew, el, cw, cl, at in _raw(earlier):
            won = state.get(w, (0, 0, 0, 0))
            lost = state.get(lo, (0, 0, 0, 0))
            state[w] = [rw + cw, ew + n, won[2] + 1, won[3] + 1]
            state[lo] = [rl + cl, el + n, lost[2] + 1, lost[3]]
            last_played[w] = last_played[lo] = at
        RatedMatch.objects.filter(pool=pool, played_at__gte=since).delete()
    else:
        RatedMatch.objects.filter(pool=pool).delete()
    matches = rateable_matches(pool)
    if since is not None:
        matches = matches.filter(finished_at__gte=since)
    # finished_at goes straight back into played_at and last_played_at. SQLite: as the database's own text, since
    # parsing a million date-times into Python objects and formatting them again would be wasted. PostgreSQL: as
    # the driver's datetime, which its binary COPY writes back in C (base.bulk.BINARY_TYPES).
    at = F("finished_at") if connection.vendor == "postgresql" else Cast("finished_at", output_field=CharField())
    stream = _raw(
        matches.order_by("finished_at", "id")
        .annotate(at=at)
        .values_list("id", "winner_id", "player_a_id", "player_b_id", "length", "at")
    )
    feed = ((match_id, winner, b if winner == a else a, length) for match_id, winner, a, b, length, _at in stream)
    rows = fibs.replay_lazily(feed, state, k_rule())  # rated as they are written
    pool_id = pool.pk
    with _player_indexes_set_aside(len(stream)):
        _insert_rated_rows((pool_id, match[5], *row) for row, match in zip(rows, stream, strict=True))
    last_played.update(_last_played(stream))
    PlayerRating.objects.filter(pool=pool).delete()
    insert_rows(
        PlayerRating,
        ("pool", "player", "rating", "experience", "matches", "wins", "last_played_at"),
        [(pool_id, player, *values, last_played.get(player)) for player, values in state.items()],
    )
    return len(stream)
