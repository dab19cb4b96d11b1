"""Round-based flights (Swiss, triple elimination; the round robin builds on the same rows): pairing a round,
results arriving from match play, the end of a round and of the flight, withdrawals, late entries, a
director's edit of a round's pairings and corrections after later rounds were paired.

Every table's match is an ordinary tournament match (report, confirmation, Crawford as for a bracket); its
confirmed result comes back through the match-play hook (`result_confirmed`), which stores it on the pairing in
a constant number of queries and, when it was the round's last result, pairs the next round (when the flight
pairs automatically) or ends the flight.

Locks: the flight row (6) for the director's writes; the match (7, taken by match play) then the round's first
table and the pairing (both tournaments.Pairing, lowest table first). Every result of a round locks that first
table, so the last two results of a round cannot both miss that the round is complete.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from base.errors import Conflict, Invalid
from base.locks import lock
from clubs import access
from games.matchplay import services as match_services
from games.models.matches import Match, MatchContext, MatchOutcome, MatchStatus, ReportOrigin
from tournaments import hooks
from tournaments.core import standings as core_standings
from tournaments.core import teams as team_core
from tournaments.core.errors import BracketError
from tournaments.formats import format_of
from tournaments.models import (
    BracketChange,
    DrawStatus,
    Entry,
    EntryMember,
    EntryStatus,
    EventStatus,
    Flight,
    FlightStatus,
    Pairing,
    PairingResult,
    RoundSeat,
    TeamBoard,
    TeamKind,
)
from tournaments.selectors import rounds as read
from tournaments.services import stages, waiting
from tournaments.services.common import lock_flight, team_result
from tournaments.services.overrides import director_result
from tournaments.services.progression import BracketStore
from tournaments.services.round_records import record_round_standings

OUTCOME_RESULT = {
    MatchOutcome.PLAYED: PairingResult.PLAYED,
    MatchOutcome.LATENESS: PairingResult.PLAYED,
    MatchOutcome.FORFEIT: PairingResult.PLAYED,
    MatchOutcome.WALKOVER: PairingResult.FORFEIT,
    MatchOutcome.NO_SHOW: PairingResult.FORFEIT,
    MatchOutcome.DOUBLE_FORFEIT: PairingResult.DOUBLE_FORFEIT,
}
MAX_PAIRS = 4096


# --- pairing a round -----------------------------------------------------------------------------------------


def create_pairings(flight: Flight, round_number: int, pairs, *, actor=None, group: int = 0, first_table: int = 1):
    """Store a round's pairs: Pairing and RoundSeat rows and one match per table (a bye is decided at once).
    Bulk writes: a constant number of queries whatever the field size."""
    entries = {e.pk: e for e in Entry.objects.filter(flight=flight).only("pk", "player_id")}
    created_by = _creator(actor)
    teams = flight.team_kind == TeamKind.TEAM  # a team table has boards, not a match of its own
    pairings, matches = [], []
    now = timezone.now()
    for table, (a, b) in enumerate(pairs, start=first_table):
        pairing = Pairing(flight=flight, round=round_number, table=table, group=group, entry_a_id=a, entry_b_id=b)
        if b is None:
            pairing.result, pairing.winner_id, pairing.decided_at = PairingResult.BYE, a, now
        elif not teams:
            pairing.match = _match(flight, round_number, entries[a].player_id, entries[b].player_id, created_by)
            matches.append(pairing.match)
        pairings.append(pairing)
    Match.objects.bulk_create(matches)
    for pairing in pairings:
        pairing.match_id = pairing.match.pk if pairing.match else None
    Pairing.objects.bulk_create(pairings)
    if teams:
        matches = _create_boards(flight, round_number, [p for p in pairings if p.entry_b_id], created_by)
    RoundSeat.objects.bulk_create(
        RoundSeat(flight=flight, round=round_number, entry_id=entry_id, pairing=pairing)
        for pairing in pairings
        for entry_id in (pairing.entry_a_id, pairing.entry_b_id)
        if entry_id is not None
    )
    byes = [p.entry_a_id for p in pairings if p.entry_b_id is None]
    if byes:
        Entry.objects.filter(pk__in=byes).update(had_bye=True)
    for match in matches:
        hooks.match_called(match, None)
    return pairings


def _create_boards(flight: Flight, round_number: int, pairings: list[Pairing], created_by) -> list[Match]:
    """Team tables: one singles match per board, board k between the k-th players of the two lineups
    (tournaments.core.teams.lineup), each a TeamBoard of its pairing. Bulk writes: constant queries."""
    lineups: dict[int, list[int]] = {}
    members = EntryMember.objects.filter(flight=flight).order_by("entry_id", "order")
    for entry_id, player_id in members.values_list("entry_id", "player_id"):
        lineups.setdefault(entry_id, []).append(player_id)
    boards = [
        (pairing, board, _match(flight, round_number, a, b, created_by))
        for pairing in pairings
        for board, a, b in team_core.lineup(lineups[pairing.entry_a_id], lineups[pairing.entry_b_id])
    ]
    Match.objects.bulk_create(match for _pairing, _board, match in boards)
    TeamBoard.objects.bulk_create(
        TeamBoard(flight=flight, pairing=pairing, board=board, match=match) for pairing, board, match in boards
    )
    return [match for _pairing, _board, match in boards]


def _round_anchor(flight_id: int, round_number: int) -> Pairing | None:
    """The round's first table, locked: every write that may complete the round takes it first."""
    return lock(Pairing.objects, of=("self",)).filter(flight_id=flight_id, round=round_number).order_by("table").first()


def _pair_next(flight: Flight, *, actor) -> list[Pairing]:
    number = flight.current_round + 1
    if flight.random_seed is None:
        flight.random_seed = random.SystemRandom().randrange(2**53)
    pairs = format_of(flight).pairs(flight, number)
    record_round_standings(flight, number)  # before the byes of this round count as wins
    pairings: list[Pairing] = []
    for group, group_pairs in pairs.items():
        first = len(pairings) + 1
        pairings += create_pairings(flight, number, group_pairs, actor=actor, group=group, first_table=first)
    flight.current_round = number
    flight.status, flight.draw_status = FlightStatus.RUNNING, DrawStatus.RELEASED
    if flight.released_at is None:
        flight.released_at = timezone.now()
    flight.save(update_fields=["current_round", "status", "draw_status", "random_seed", "released_at"])
    event = flight.event
    if event.status == EventStatus.PLANNED:
        event.status = EventStatus.RUNNING
        event.save(update_fields=["status"])
    return pairings


def _check_can_pair(flight: Flight) -> None:
    if not flight.is_round_based:
        raise Conflict(_("This flight is a knockout: it is drawn, not paired in rounds."), code="not_round_based")
    if flight.status == FlightStatus.FINISHED:
        raise Conflict(_("This flight is finished."), code="flight_finished")
    if flight.current_round == 0:
        format_of(flight).check_field(flight, flight.entries.exclude(status=EntryStatus.WITHDRAWN).count())
    if flight.current_round and read.pending_in_round(flight_id=flight.pk, round_number=flight.current_round):
        raise Conflict(
            _("Round %(round)s is still being played: pair the next round when its last result is in.")
            % {"round": flight.current_round},
            code="round_unfinished",
        )


@transaction.atomic
def start_round(*, actor, flight: Flight, confirm_no_shows: bool = False) -> list[Pairing]:
    """The director pairs the next round (the first, or the next of a flight that does not pair itself); after
    the last round it ends the flight instead and returns no pairings. Round 1 withdraws the players not checked
    in by a deadline only with `confirm_no_shows` (else 409 `no_shows_need_confirmation` naming them, nothing
    changed): a withdrawal the director did not see coming is hard to undo once the round is paired.

    No race with the automatic pairing: that happens inside the transaction of a round's last result, so once
    it has committed the round is paired, and until then the round is not complete."""
    access.require(actor, "event.direct", flight.event)
    flight = lock_flight(flight)
    if flight.current_round == 0 and flight.status != FlightStatus.FINISHED:
        _leave_out_no_shows(flight, actor=actor, confirmed=confirm_no_shows)
    _check_can_pair(flight)
    if flight.current_round and _is_over(flight):  # a flight paired by hand ends when the director asks on
        _finish(flight, actor=actor)
        hooks.flight_results_changed(flight)
        return []
    pairings = _pair_next(flight, actor=actor)
    hooks.flight_results_changed(flight)
    return pairings


def _leave_out_no_shows(flight: Flight, *, actor, confirmed: bool) -> None:
    """With a check-in deadline round 1 pairs only the checked-in players, as a knockout's draw takes only them:
    the others are withdrawn as no-shows (never paired, their round robin games not scored) and a change record
    names them, so the director sees who was left out and why. A director's check-in of a no-show later brings
    the player back into a Swiss or a triple elimination from the next round (tournaments.services.entries)."""
    if flight.check_in_deadline is None:
        return
    absent = list(flight.entries.filter(status=EntryStatus.REGISTERED).select_related("player").order_by("pk"))
    if not absent:
        return
    if not confirmed:
        names = ", ".join(sorted(e.name for e in absent))
        raise Conflict(
            _("Not checked in, withdrawn as no-shows if you pair round 1 now: %(names)s. Confirm to go on.")
            % {"names": names},
            code="no_shows_need_confirmation",
            no_shows=[{"id": e.pk, "name": e.name} for e in absent],
        )
    now = timezone.now()
    for entry in absent:
        entry.status, entry.withdrawn_at, entry.out_round, entry.remaining_scored = (
            EntryStatus.WITHDRAWN, now, 0, False
        )  # fmt: skip
    Entry.objects.bulk_update(absent, ["status", "withdrawn_at", "out_round", "remaining_scored"])
    names = ", ".join(sorted(e.player.name for e in absent))
    BracketChange.objects.create(
        flight=flight,
        actor=_creator(actor),
        kind="no_show",
        comment=_("Not checked in by the deadline, left out of round 1: %(names)s.") % {"names": names},
    )


def is_no_show(flight: Flight, entry: Entry) -> bool:
    """Left out of round 1 for not checking in (withdrawn before any round, never seated)."""
    return (
        flight.is_round_based
        and flight.check_in_deadline is not None
        and entry.status == EntryStatus.WITHDRAWN
        and entry.out_round == 0
        and not RoundSeat.objects.filter(entry=entry).exists()
    )


def bring_back_no_show(flight: Flight, entry: Entry) -> Entry:
    """A director checks in a no-show who arrived after round 1 was paired: a Swiss or a triple elimination
    pairs the player from the next round on, as a late entry (a round robin's schedule is fixed: refused)."""
    check_late_entry(flight)
    entry.status, entry.checked_in_at, entry.withdrawn_at = EntryStatus.CHECKED_IN, timezone.now(), None
    entry.out_round, entry.remaining_scored, entry.is_late = None, True, True
    entry.save(update_fields=["status", "checked_in_at", "withdrawn_at", "out_round", "remaining_scored", "is_late"])
    return entry


# --- results ---------------------------------------------------------------------------------------------------


def result_confirmed(match, report) -> bool:
    """games hook: a confirmed, corrected, overridden or annulled result of a round's match. Constant queries
    for a result that does not end the round. False when the match is no round's table (a team match's board:
    tournaments.receivers then hands it to the team matches)."""
    if match.context != MatchContext.TOURNAMENT:
        return True
    pairing = Pairing.objects.filter(match=match).values_list("pk", "flight_id", "round").first()
    if pairing is None:
        return False
    pk, flight_id, round_number = pairing
    _round_anchor(flight_id, round_number)
    pairing = lock(Pairing.objects, of=("self",)).select_related("flight__event", "entry_a", "entry_b").get(pk=pk)
    flight = pairing.flight
    if report.outcome == MatchOutcome.ANNULLED:
        if pairing.result == PairingResult.NOT_SCORED:
            return True
        if pairing.result != PairingResult.PENDING and flight.current_round > pairing.round:
            _refuse_silent_change(report)
        pairing.result, pairing.winner, pairing.score_a, pairing.score_b = PairingResult.PENDING, None, 0, 0
        pairing.match = create_pairings_match(flight, pairing, actor=report.confirmed_by or report.submitted_by)
        pairing.save(update_fields=["result", "winner", "score_a", "score_b", "match"])
        hooks.flight_results_changed(flight)
        return True
    result = OUTCOME_RESULT[report.outcome]
    a_won = match.winner_id is not None and match.winner_id == pairing.entry_a.player_id
    winner = None if result == PairingResult.DOUBLE_FORFEIT else (pairing.entry_a if a_won else pairing.entry_b)
    played = result == PairingResult.PLAYED
    scores = ((match.score_a or 0), (match.score_b or 0)) if played else (0, 0)
    apply_result(pairing, result, winner, scores, report=report)
    return True


def apply_result(pairing: Pairing, result: str, winner: Entry | None, scores: tuple[int, int], *, report) -> None:
    """Store a table's result (the pairing row locked, after the round's anchor) and pair on when it was the
    round's last: a singles table's match, or a team table's boards (tournaments.services.teams). A change after
    the next round was paired is only a director's correction's."""
    flight = pairing.flight
    changes = pairing.result != PairingResult.PENDING and (
        pairing.result != result or pairing.winner_id != (winner.pk if winner else None)
    )
    if changes and flight.current_round > pairing.round:
        _refuse_silent_change(report)
    was_pending = pairing.result == PairingResult.PENDING
    pairing.result, pairing.winner = result, winner
    pairing.score_a, pairing.score_b = scores
    pairing.decided_at = None if result == PairingResult.PENDING else timezone.now()
    pairing.save(update_fields=["result", "winner", "score_a", "score_b", "decided_at"])
    if changes and flight.status == FlightStatus.FINISHED:
        _store_places(flight)
    # The table's two players; a round's end pairs the next one and tells everyone (round_done).
    hooks.notify_flight(flight, [e.player_id for e in (pairing.entry_a, pairing.entry_b) if e is not None])
    if was_pending and result != PairingResult.PENDING and pairing.round == flight.current_round:
        round_done(flight, actor=report.confirmed_by or report.submitted_by)


def team_table_confirmed(pairing_id: int, match, report) -> None:
    """A board of a team table: an annulled board is played again; the table is scored as soon as the boards
    decide it (its score the boards each team won, for the standings' points for and against), and it goes
    back to pending when a corrected board undoes that. Constant queries while the round goes on."""
    flight_id, round_number = Pairing.objects.filter(pk=pairing_id).values_list("flight_id", "round").get()
    _round_anchor(flight_id, round_number)
    pairing = (
        lock(Pairing.objects, of=("self",)).select_related("flight__event", "entry_a", "entry_b").get(pk=pairing_id)
    )
    if pairing.result == PairingResult.NOT_SCORED:
        return
    if report.outcome == MatchOutcome.ANNULLED:
        board = TeamBoard.objects.get(match=match)
        board.match = _match(
            pairing.flight, pairing.round, match.player_a_id, match.player_b_id, _creator(report.confirmed_by)
        )
        board.match.save()
        board.save(update_fields=["match"])
    boards = list(TeamBoard.objects.filter(pairing=pairing).select_related("match").order_by("board"))
    team = team_result(boards)
    if team.winner is None:
        result, winner = PairingResult.PENDING, None
    else:
        result, winner = PairingResult.PLAYED, (pairing.entry_a, pairing.entry_b)[team.winner]
    apply_result(pairing, result, winner, (team.boards_a, team.boards_b), report=report)


def create_pairings_match(flight: Flight, pairing: Pairing, *, actor) -> Match:
    """A new match for a table whose match was annulled: the pair plays again."""
    match = _match(flight, pairing.round, pairing.entry_a.player_id, pairing.entry_b.player_id, _creator(actor))
    match.save()
    return match


def _creator(actor):
    return actor if getattr(actor, "is_authenticated", False) else None


def _match(flight: Flight, round_number: int, player_a_id: int, player_b_id: int, created_by) -> Match:
    """A table's match (unsaved), made as the bracket makes its matches: a tournament match of the event's club."""
    return Match(
        player_a_id=player_a_id,
        player_b_id=player_b_id,
        length=flight.length_for(round_number, is_final=False),
        context=MatchContext.TOURNAMENT,
        club_id=flight.event.club_id,
        is_public=flight.event.is_public,
        created_by=created_by,
        **flight.game_form,  # the flight's game, as the bracket's matches take it
    )


def _refuse_silent_change(report) -> None:
    """A result that changes after the next round was paired changes the standings that round was paired on:
    only the director's correction (which previews the change first) may do it."""
    if report.origin not in (ReportOrigin.OVERRIDE, ReportOrigin.SYSTEM):
        raise Conflict(
            _(
                "The next round is paired already: only a director's correction changes this result, and it "
                "shows first what the standings would become."
            ),
            code="later_round_paired",
        )


def round_done(flight: Flight, *, actor) -> None:
    """After a result of the current round: when it was the last, end the flight or pair the next round (when
    the flight pairs itself). One query while tables are still playing."""
    if read.pending_in_round(flight_id=flight.pk, round_number=flight.current_round):
        return
    if _is_over(flight):
        _finish(flight, actor=actor)
    elif flight.auto_pair:
        _pair_next(flight, actor=actor)
        if not read.pending_in_round(flight_id=flight.pk, round_number=flight.current_round):
            round_done(flight, actor=actor)  # a round robin's round left with no game by withdrawals
            return
    hooks.flight_results_changed(flight)


def _is_over(flight: Flight) -> bool:
    return format_of(flight).is_over(flight)


def _store_places(flight: Flight) -> None:
    """Final places as the format gives them (the standings; a triple elimination by the round a player went
    out; groups by rank in the group)."""
    places = format_of(flight).places(flight)
    entries = list(Entry.objects.filter(flight=flight))
    for entry in entries:
        # Withdrawn before round 1 (a no-show left out at the check-in deadline, or a player who withdrew and
        # was kept for the fee they paid): never played, so no place.
        absent = entry.withdrew_before_draw or (entry.status == EntryStatus.WITHDRAWN and entry.out_round == 0)
        entry.place = None if absent else places.get(entry.pk)
    Entry.objects.bulk_update(entries, ["place"])


def _finish(flight: Flight, *, actor) -> None:
    _store_places(flight)
    BracketStore(flight.event, actor=actor).finish(flight)
    if format_of(flight).feeds_cut(flight):
        stages.fill_cut(flight, actor=actor)


# --- changes during play -------------------------------------------------------------------------------------


def check_late_entry(flight: Flight) -> None:
    """A late entry joins a Swiss or a triple elimination before its next round; a round robin's schedule is
    fixed once it starts, and a finished flight takes nobody."""
    if flight.status == FlightStatus.FINISHED:
        raise Conflict(_("This flight is finished."), code="flight_finished")
    if flight.current_round and not format_of(flight).late_entries_while_running:
        raise Conflict(
            _("This flight's rounds have started: only a Swiss or a triple elimination takes a late entry."),
            code="rounds_started",
        )


@transaction.atomic
def drop(*, actor, entry: Entry, score_remaining: bool, comment: str = "") -> Entry:
    """A player withdraws (or is dropped) from a round-based flight: never paired again. Their unplayed
    tables are forfeited to the opponent (`score_remaining`) or not scored at all, as the director chooses."""
    access.require(actor, "entry.withdraw", entry)  # before the lock, which counts a new version of the flight
    flight = lock_flight(entry.flight)
    entry = flight.entries.get(pk=entry.pk)
    if not flight.is_round_based:
        raise Conflict(_("This flight is not played in rounds."), code="not_round_based")
    if entry.status == EntryStatus.WITHDRAWN:
        raise BracketError("already_withdrawn", "This player is out of the flight already.", "entry")
    if flight.status == FlightStatus.FINISHED:
        raise Conflict(_("This flight is finished."), code="flight_finished")
    entry.status, entry.withdrawn_at, entry.out_round = EntryStatus.WITHDRAWN, timezone.now(), flight.current_round
    entry.remaining_scored = score_remaining  # a round robin's later rounds score the games left the same way
    entry.save(update_fields=["status", "withdrawn_at", "out_round", "remaining_scored"])
    open_tables = list(
        Pairing.objects.filter(flight=flight, result=PairingResult.PENDING, seats__entry=entry)
        .select_related("match")
        .order_by("round", "table")
    )
    for pairing in open_tables:
        match = pairing.match
        if match is None or match.status not in (MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS):
            continue
        if score_remaining:
            match_services.record_consequence(
                actor=actor,
                match=match,
                origin=ReportOrigin.SYSTEM,
                outcome=MatchOutcome.WALKOVER,
                winner_side=1 if pairing.entry_a_id == entry.pk else 0,
                comment=comment or _("Withdrawn from the event."),
            )
        else:
            Pairing.objects.filter(pk=pairing.pk).update(result=PairingResult.NOT_SCORED, decided_at=timezone.now())
            match_services.record_consequence(
                actor=actor,
                match=match,
                origin=ReportOrigin.SYSTEM,
                outcome=MatchOutcome.ANNULLED,
                comment=comment or _("Withdrawn from the event: not scored."),
            )
            if pairing.round == flight.current_round:
                round_done(flight, actor=actor)
    hooks.flight_results_changed(flight)
    waiting.place_freed(flight)  # a capped flight offers the place to its waiting list, as a withdrawal does
    return entry


@dataclass
class PairingEdit:
    """What a director's new pairing of a round would be: the pairs, and the ones that are rematches."""

    pairs: list[tuple[Entry, Entry | None]]
    rematches: list[tuple[Entry, Entry]]
    replaced: int


def _edit(flight: Flight, pairs: list) -> PairingEdit:
    if not isinstance(pairs, list) or not pairs or len(pairs) > MAX_PAIRS:
        raise Invalid(_("Give the round's pairs as a list of [player, player or null]."), field="pairs")
    current = read.round_pairings(flight=flight)
    if not current:
        raise Conflict(_("No round is paired yet."), code="no_round")
    if any(p.result != PairingResult.PENDING and p.result != PairingResult.BYE for p in current) or any(
        p.match is not None and p.match.status != MatchStatus.SCHEDULED for p in current
    ):
        raise Conflict(
            _("A match of this round has started or finished: only a round nobody has begun can be re-paired."),
            code="round_started",
        )
    seated = {e for p in current for e in (p.entry_a_id, p.entry_b_id) if e is not None}
    entries = {e.pk: e for e in Entry.objects.filter(flight=flight).select_related("player")}
    new: list[tuple[Entry, Entry | None]] = []
    seen: list[int] = []
    for pair in pairs:
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            raise Invalid(_("Each pair is [player, player or null for a bye]."), field="pairs")
        a, b = pair
        if (
            not isinstance(a, int)
            or not (b is None or isinstance(b, int))
            or a not in seated
            or (b is not None and b not in seated)
        ):
            raise Invalid(_("Pair only the entries of this round, by their numbers."), field="pairs")
        seen.extend(x for x in (a, b) if x is not None)
        new.append((entries[a], None if b is None else entries[b]))
    if sorted(seen) != sorted(seated):
        raise Invalid(_("Seat every player of the round exactly once."), field="pairs")
    if sum(1 for _a, b in new if b is None) > len(seated) % 2:
        raise Invalid(_("Only an odd field has a bye, and only one."), field="pairs")
    met = read.opponents_met(flight=flight, before_round=flight.current_round)
    rematches = [(a, b) for a, b in new if b is not None and b.pk in met.get(a.pk, set())]
    return PairingEdit(pairs=new, rematches=rematches, replaced=len(current))


def edit_pairings_preview(*, actor, flight: Flight, pairs: list) -> PairingEdit:
    access.require(actor, "event.direct", flight.event)
    return _edit(flight, pairs)


@transaction.atomic
def edit_pairings(*, actor, flight: Flight, pairs: list, confirm: bool = False) -> PairingEdit:
    """Replace the current round's pairings (nobody has started): the old matches are annulled and new ones
    made. Rematches are shown by the preview and need `confirm`."""
    access.require(actor, "event.direct", flight.event)
    flight = lock_flight(flight)
    if flight.team_kind == TeamKind.TEAM:
        message = _("A team round's boards are made already: correct a board's result instead of re-pairing.")
        raise Conflict(message, code="team_round_paired")
    edit = _edit(flight, pairs)
    if edit.rematches and not confirm:
        raise Conflict(
            _("These pairs met before: %(pairs)s. Confirm to pair them again anyway.")
            % {"pairs": ", ".join(f"{a.player} – {b.player}" for a, b in edit.rematches)},
            code="rematch_needs_confirmation",
        )
    old = read.round_pairings(flight=flight)
    # Race: a result reported while the round is re-paired; the matches are locked (before the pairings, in
    # the lock order) and must still be unplayed.
    matches = list(
        lock(Match.objects, of=("self",)).filter(pk__in=[p.match_id for p in old if p.match_id]).order_by("pk")
    )
    if any(m.status != MatchStatus.SCHEDULED for m in matches):
        raise Conflict(_("A match of this round has just started: reload the round."), code="round_started")
    Pairing.objects.filter(pk__in=[p.pk for p in old]).delete()
    for match in matches:
        match_services.record_consequence(
            actor=actor,
            match=match,
            origin=ReportOrigin.SYSTEM,
            outcome=MatchOutcome.ANNULLED,
            comment=_("The round was paired again by the director."),
        )
    create_pairings(flight, flight.current_round, [(a.pk, b.pk if b else None) for a, b in edit.pairs], actor=actor)
    # Whoever lost the bye by the re-pairing keeps had_bye only for a bye of an earlier round.
    earlier_bye = Pairing.objects.filter(flight=flight, entry_a=OuterRef("pk"), entry_b__isnull=True)
    Entry.objects.filter(pk__in=[p.entry_a_id for p in old if p.entry_b_id is None]).update(had_bye=Exists(earlier_bye))
    BracketChange.objects.create(
        flight=flight,
        actor=actor,
        kind="repair",
        voided=[m.pk for m in matches],
        comment=", ".join(f"{a.player} – {b.player if b else _('bye')}" for a, b in edit.pairs)[:2000],
    )
    hooks.flight_results_changed(flight)
    return edit


@dataclass
class CorrectionPreview:
    """A changed result of an earlier round: the standings now and after, and the rounds paired since (which
    stay as they are: nothing is re-paired)."""

    pairing: Pairing
    before: list
    after: list
    later_rounds: list[int]


def correction_preview(*, actor, pairing: Pairing, winner_side: int | None) -> CorrectionPreview:
    flight = pairing.flight
    access.require(actor, "event.direct", flight.event)
    if pairing.match_id is None:  # as correct_result: no preview of a change that cannot be made
        raise Conflict(_("A bye has no match to correct."), code="no_match")
    before = read.flight_standings(flight=flight)
    winner = None if winner_side is None else (pairing.entry_a_id if winner_side == 0 else pairing.entry_b_id)
    pairings = list(Pairing.objects.filter(flight=flight))
    for p in pairings:
        if p.pk == pairing.pk:
            p.winner_id = winner
            p.result = PairingResult.DOUBLE_FORFEIT if winner is None else PairingResult.PLAYED
    games = read.games_of(pairings)
    table = core_standings.standings([r.entry.pk for r in before], games, read.tiebreak_order(flight))
    by_id = {r.entry.pk: r.entry for r in before}
    after = [read.StandingRow(entry=by_id[line.key], line=line) for line in table]
    return CorrectionPreview(
        pairing=pairing,
        before=before,
        after=after,
        later_rounds=list(range(pairing.round + 1, flight.current_round + 1)),
    )


@transaction.atomic
def correct_result(
    *,
    actor,
    pairing: Pairing,
    winner_side: int | None,
    outcome: str = MatchOutcome.PLAYED,
    scores=None,
    comment: str = "",
) -> Pairing:
    """The director changes a round's result after later rounds were paired (after seeing correction_preview):
    the standings change, the rounds already paired stay."""
    access.require(actor, "event.direct", pairing.flight.event)
    if pairing.match_id is None:
        raise Conflict(_("A bye has no match to correct."), code="no_match")
    if not comment.strip():
        raise Invalid(_("Say why the result is corrected."), field="comment")
    director_result(
        actor=actor, match=pairing.match, winner_side=winner_side, outcome=outcome, scores=scores, comment=comment
    )
    BracketChange.objects.create(flight=pairing.flight, actor=actor, kind="correction", comment=comment)
    pairing.refresh_from_db()
    return pairing
