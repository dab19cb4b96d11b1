"""Entries: registration, side pools, late entries into a bye, check-in, withdrawal and re-entry."""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from base import numbers
from base.errors import Conflict, Invalid
from clubs import access
from clubs import selectors as club_selectors
from clubs.models import Player
from games.matchplay import services as match_services
from games.models.matches import MatchOutcome, MatchStatus, ReportOrigin
from tournaments.core import fees
from tournaments.core.draw import late_entry_position
from tournaments.core.layout import Key, Target
from tournaments.core.payouts import to_cents
from tournaments.models import (
    DrawStatus,
    Entry,
    EntryMember,
    EntryStatus,
    FeedRule,
    Flight,
    FlightKind,
    FlightStatus,
    SlotResult,
    TeamKind,
)
from tournaments.permissions import EntryDraft
from tournaments.services import jackpots, rounds, waiting
from tournaments.services.common import DECIDED, lock_flight, lock_places
from tournaments.services.progression import BracketStore


@transaction.atomic
def register(*, actor, flight: Flight, player: Player | None = None) -> Entry:
    """A player registers themself while registration is open; a director enters the club's players (accepted
    members and walk-ins) at any time — anyone else enters by their own registration (consent). After the draw the
    entry is a late entry and goes into a bye (see core.draw.late_entry_position)."""
    if player is None:
        player = club_selectors.player_for_user(actor)
    if player is None:
        raise Invalid(_("Choose the player to register."), field="player")
    access.require(actor, "event.enter", EntryDraft(event=flight.event, player=player))  # before the lock
    flight = lock_places(flight)
    if flight.is_team_event:
        message = _("%(flight)s is played by pairs or teams: enter all its players together, the captain first.")
        raise Invalid(message % {"flight": flight.name}, field="player")
    return _enter(actor=actor, flight=flight, player=player)


@transaction.atomic
def register_team(*, actor, flight: Flight, players: list[Player], team_name: str = "") -> Entry:
    """A pair (doubles, consultation) or a team: the first player is the captain (Entry.player, who plays a
    pair's match and reports it), the players' order is a team's lineup (board 1 first). Each player must be one
    the actor may enter (event.enter): a director enters the club's players, a player only themself — so no
    player is put on another's pair or team without their say; pairs and teams are entered by a director at the
    desk. The name is the one given, else "Anna & Ben" (not "/": the bracket's open places read "winner of
    Anna / Ben")."""
    players = check_team(players)
    for player in players:
        access.require(actor, "event.enter", EntryDraft(event=flight.event, player=player))  # before the lock
    flight = lock_places(flight)
    return _enter_team(actor=actor, flight=flight, players=players, team_name=team_name)


def check_team(players: list[Player]) -> list[Player]:
    """The players of a pair or team as given (the captain first), each once."""
    players = list(players)
    if len({p.pk for p in players}) != len(players):
        raise Invalid(_("A pair or team is made of different players."), field="players")
    return players


def check_team_fits(flight: Flight, players: list[Player]) -> None:
    """The flight (locked) is played by pairs or teams of exactly this many players."""
    if not flight.is_team_event:
        message = _("%(flight)s is played by single players: register each player on their own.")
        raise Invalid(message % {"flight": flight.name}, field="players")
    if len(players) != flight.team_size:
        message = _("A %(kind)s entry is %(size)s players: give %(size)s, the captain first.")
        size = {"kind": flight.get_team_kind_display(), "size": flight.team_size}
        raise Invalid(message % size, field="players")


def refuse_if_member_elsewhere(flight: Flight, players: list[Player]) -> None:
    """A player plays for one pair or team per flight (the database says so too: EntryMember)."""
    taken = EntryMember.objects.filter(flight=flight, player__in=players).select_related("player").first()
    if taken is not None:
        message = _("%(player)s already plays for another entry of %(flight)s: withdraw that entry first.")
        raise Conflict(message % {"player": taken.player, "flight": flight.name}, code="already_entered")


def team_label(players: list[Player], team_name: str) -> str:
    """The name given, else "Anna & Ben" (not "/": the bracket's open places read "winner of Anna / Ben")."""
    return (team_name or "").strip()[:120] or " & ".join(p.name for p in players)[:120]


def _enter_team(*, actor, flight: Flight, players: list[Player], team_name: str, by_offer: bool = False) -> Entry:
    """The pair or team entry once each player may be entered and the flight is locked."""
    check_team_fits(flight, players)
    refuse_if_member_elsewhere(flight, players)
    entry = _enter(
        actor=actor, flight=flight, player=players[0], by_offer=by_offer, team_name=team_label(players, team_name)
    )
    EntryMember.objects.bulk_create(
        EntryMember(entry=entry, flight=flight, player=player, order=order)
        for order, player in enumerate(players, start=1)
    )
    return entry


@transaction.atomic
def set_lineup(*, actor, entry: Entry, players: list[Player]) -> list[EntryMember]:
    """A team's board order, set by its captain or a director: the same players in a new order, board 1 first.
    It is played from the team's next match on (the boards of a match already made keep their players). The
    captain stays the entry's player whatever board they play."""
    access.require(actor, "entry.lineup", entry)  # before the lock, which counts a new version of the flight
    flight = lock_flight(entry.flight)
    if flight.team_kind != TeamKind.TEAM:
        raise Invalid(_("Only a team has a lineup: a pair plays one match together."), field="players")
    members = {m.player_id: m for m in EntryMember.objects.filter(entry=entry)}
    if len(players) != len(members) or {p.pk for p in players} != set(members):
        message = _("A lineup names each of the team's %(n)s players once, board 1 first.")
        raise Invalid(message % {"n": len(members)}, field="players")
    # (entry, order) is unique: move every member out of the way first, then into its board.
    EntryMember.objects.filter(entry=entry).update(order=F("order") + 100)
    for order, player in enumerate(players, start=1):
        EntryMember.objects.filter(pk=members[player.pk].pk).update(order=order)
    return list(entry.members.select_related("player").order_by("order"))


def enter_offered(
    *, actor, flight: Flight, player: Player, team: list[Player] | None = None, team_name: str = ""
) -> Entry:
    """The entry of a player (or the pair or team `team`, the captain first) who accepted a place their flight's
    waiting list offered them (services.waiting; the flight is locked): the offer holds the place, so neither the
    cap nor closed registration refuses it."""
    if team:
        return _enter_team(actor=actor, flight=flight, players=team, team_name=team_name, by_offer=True)
    return _enter(actor=actor, flight=flight, player=player, by_offer=True)


def _enter(*, actor, flight: Flight, player: Player, by_offer: bool = False, **fields) -> Entry:
    """The registration itself once the actor may enter the player and the flight is locked."""
    event = flight.event
    is_director = access.can(actor, "event.direct", event)
    if not is_director and not event.registration_open and not by_offer:
        raise Conflict(_("Registration is closed: ask a director to enter you."), code="registration_closed")
    if flight.kind == FlightKind.SIDE_POOL:
        return _join_side_pool(actor=actor, flight=flight, player=player)
    if flight.kind == FlightKind.JACKPOT and flight.feed_rule == FeedRule.DRAW:
        return jackpots.join_waiting_list(actor=actor, jackpot=flight, player=player)
    if flight.feed_rule == FeedRule.POD:
        message = _("A pod is filled from its jackpot's waiting list: sign up for %(source)s.")
        raise Conflict(message % {"source": flight.source}, code="linked_flight")
    if flight.feed_rule != FeedRule.DRAW:
        message = _("This flight takes the losers of %(source)s; nobody registers for it.")
        raise Conflict(message % {"source": flight.source}, code="linked_flight")
    earlier = flight.entries.filter(player=player, is_reentry=False).first()
    if earlier is not None and not earlier.withdrew_before_draw:
        raise Conflict(
            _("%(player)s is already entered in %(flight)s.") % {"player": player, "flight": flight.name},
            code="already_entered",
        )
    if flight.status == FlightStatus.FINISHED:
        raise Conflict(_("This flight is finished."), code="flight_finished")
    if not by_offer:
        waiting.refuse_if_full(flight)
    if flight.is_round_based:
        # A Swiss takes a late entry before any round: it is paired from the next round on, with no wins.
        rounds.check_late_entry(flight)
        if earlier is not None:
            return _enter_again(earlier, actor=actor, is_late=flight.current_round > 0, **fields)
        return Entry.objects.create(
            flight=flight,
            player=player,
            fee=flight.entry_fee,
            registered_by=actor,
            is_late=flight.current_round > 0,
            **fields,
        )
    is_late = flight.draw_status != DrawStatus.NONE
    if earlier is not None:
        entry = _enter_again(earlier, actor=actor, is_late=is_late, **fields)
    else:
        entry = Entry.objects.create(
            flight=flight, player=player, fee=flight.entry_fee, registered_by=actor, is_late=is_late, **fields
        )
    if entry.is_late:
        _place_late(flight, entry, actor=actor)
    return entry


@transaction.atomic
def register_all(*, actor, flight: Flight, players: list[Player]) -> list[Entry]:
    """A director enters several players at once (ticked or pasted, after the preview): all of them or none.
    Each goes through `register`, so fees, the rules, the side pool's and the late entry's placing apply as
    for one; if any is refused (already entered, not a member, the draw has no bye left) nobody is entered and
    the refusal names every player refused, so the director fixes the list once and sends it again."""
    entered, refused = [], []
    for player in players:
        try:
            with transaction.atomic():
                entered.append(register(actor=actor, flight=flight, player=player))
        except Invalid as exc:
            refused.append(f"{player.name}: {' '.join(exc.messages)}")
        except Conflict as exc:
            refused.append(f"{player.name}: {exc.detail}")
    if refused:
        message = _("Nobody was entered. %(refusals)s") % {"refusals": " ".join(refused)}
        raise Conflict(message, code="entry_refused")  # raised inside the atomic block: the entries made go too
    return entered


def late_entry_preview(*, flight: Flight, count: int = 1) -> list[dict]:
    """What `count` late entries would do to a drawn flight, for the director to confirm first: each takes a
    bye's place; in a released bracket the bye holder's walk-through is taken back, so the matches it filled
    (a quarter-final ready to play, say) are cancelled. Each row: the bye's slot, who held the bye, and the
    later matches that would be voided. Nothing is changed."""
    if flight.draw_status == DrawStatus.NONE or flight.kind == FlightKind.SIDE_POOL:
        return []
    if flight.draw_status != DrawStatus.RELEASED:
        line = _line(flight)
        free = sum(1 for taken in line if taken is None)
        return [{"slot": None, "holder": None, "voided": []} for _ in range(min(count, free))]
    store = BracketStore(flight.event)
    rows = []
    byes = flight.slots.filter(section=store.layout(flight).first_section, round=1, result=SlotResult.BYE)
    for slot in byes.select_related("entry_a__player", "entry_b__player").order_by("position"):
        if len(rows) == count:
            break
        if store.cascade(slot, include_self=False, started_only=True):
            continue
        holder = slot.entry_a or slot.entry_b
        voided = store.cascade(slot, include_self=False)
        rows.append({"slot": slot, "holder": holder.player if holder else None, "voided": voided})
    return rows


def withdraw_preview(*, entry: Entry) -> list[dict]:
    """What withdrawing `entry` from a released bracket does, for the confirmation page: the open match it leaves
    (its round and the opponent, None while nobody has arrived), who then wins by walkover. Nothing changes."""
    flight = entry.flight
    if flight.draw_status != DrawStatus.RELEASED or flight.kind == FlightKind.SIDE_POOL or entry.place is not None:
        return []
    slot = (
        flight.slots.filter(Q(entry_a=entry) | Q(entry_b=entry))
        .exclude(result__in=DECIDED)
        .select_related("entry_a__player", "entry_b__player")
        .order_by("-round")
        .first()
    )
    if slot is None:
        return []
    other = slot.entry_b if slot.entry_a_id == entry.pk else slot.entry_a
    return [{"round": slot.round, "opponent": other.player if other is not None else None}]


def reentry_preview(*, flight: Flight, player: Player) -> dict:
    """What a re-entry does, for the confirmation page: the bye it takes (and the matches that cancels) and the
    fed flights the player leaves, each leaving a walkover for whoever they would have met."""
    fed = Entry.objects.filter(flight__source=flight, player=player, place__isnull=True).exclude(
        flight__kind=FlightKind.SIDE_POOL
    )
    return {
        "byes": late_entry_preview(flight=flight, count=1),
        "leaves": [{"flight": e.flight, "walkover": withdraw_preview(entry=e)} for e in fed.select_related("flight")],
    }


def _join_side_pool(*, actor, flight: Flight, player: Player) -> Entry:
    source_entry = flight.source.entries.filter(player=player).order_by("-reentry_number").first()
    if source_entry is None:
        message = _("Only players of %(flight)s join this side pool.") % {"flight": flight.source.name}
        raise Invalid(message, field="player")
    if source_entry.place is not None and (source_entry.out_round or 0) < flight.entry_round:
        raise Conflict(
            _("This player is out of %(flight)s already.") % {"flight": flight.source.name}, code="already_out"
        )
    started = flight.source.slots.filter(round=flight.entry_round, match__started_at__isnull=False).exists()
    if started or flight.source.slots.filter(round__gt=flight.entry_round).exclude(result=SlotResult.PENDING).exists():
        raise Conflict(
            _("Round %(r)s has started: the side pool is closed.") % {"r": flight.entry_round}, code="side_pool_closed"
        )
    earlier = flight.entries.filter(player=player).first()
    if earlier is not None and earlier.withdrew_before_draw:
        return _enter_again(earlier, actor=actor, is_late=False)
    if earlier is not None:
        raise Conflict(_("%(player)s is in this side pool already.") % {"player": player}, code="already_in_side_pool")
    return Entry.objects.create(flight=flight, player=player, fee=flight.entry_fee, registered_by=actor)


def _place_late(flight: Flight, entry: Entry, *, actor) -> None:
    """A late entrant takes a bye's place: in the drawn line before release, in the bracket after it."""
    if flight.draw_status in (DrawStatus.DRAFT, DrawStatus.CONFIRMED):
        line = _line(flight, exclude=entry.pk)
        entry.draw_position = late_entry_position(line)
        entry.save(update_fields=["draw_position"])
        return
    store = BracketStore(flight.event, actor=actor)
    byes = flight.slots.filter(section=store.layout(flight).first_section, round=1, result=SlotResult.BYE)
    for slot in byes.order_by("position"):
        if store.cascade(slot, include_self=False, started_only=True):
            continue  # the bye holder has started playing on: this bye cannot be taken back
        store.undo(slot, actor=actor)  # a match it voids names who entered the player
        slot.refresh_from_db()
        side = 0 if slot.a_empty else 1
        entry.draw_position = slot.position * 2 + side
        entry.save(update_fields=["draw_position"])
        if side == 0:
            slot.a_empty, slot.entry_a = False, None
        else:
            slot.b_empty, slot.entry_b = False, None
        slot.save(update_fields=["a_empty", "b_empty", "entry_a", "entry_b"])
        store.set_side(flight, Target(Key(slot.section, 1, slot.position), side), entry)
        return
    raise Conflict(
        _("No bye is left whose player has not played on: a late entry cannot be placed."), code="no_bye_left"
    )


def _line(flight: Flight, *, exclude: int | None = None) -> list:
    line: list = [None] * (flight.size or 0)
    for entry_id, position in (
        flight.entries.exclude(pk=exclude).filter(draw_position__isnull=False).values_list("id", "draw_position")
    ):
        line[position] = entry_id
    return line


@transaction.atomic
def check_in(*, actor, entry: Entry) -> Entry:
    """One tap: the player (or a director for them) is here. With a check-in deadline a player taps until it
    passes; after it only a director checks in, and a late arrival left out of the draw is drawn in as a late
    entry (into a bye's place, as core.draw.late_entry_position allows)."""
    access.require(actor, "entry.check_in", entry)  # before the lock, which counts a new version of the flight
    flight = lock_flight(entry.flight)
    entry = flight.entries.select_related("player").get(pk=entry.pk)
    is_director = access.can(actor, "event.direct", flight.event)
    if entry.status == EntryStatus.WITHDRAWN:
        if not (is_director and rounds.is_no_show(flight, entry)):
            raise Conflict(_("This entry was withdrawn."), code="entry_withdrawn")
        return rounds.bring_back_no_show(flight, entry)
    deadline = flight.check_in_deadline
    if deadline is not None and timezone.now() > deadline and not is_director:
        raise Conflict(_("Check-in has closed: ask a director to check you in."), code="check_in_closed")
    late = deadline is not None and flight.draw_status != DrawStatus.NONE and entry.draw_position is None
    late = late and not flight.is_round_based  # a round joins a late entry by pairing it, not into a bye's place
    if late and not is_director:
        raise Conflict(_("The draw is made: ask a director to draw you in late."), code="drawn_without_you")
    entry.status, entry.checked_in_at = EntryStatus.CHECKED_IN, timezone.now()
    entry.is_late = entry.is_late or late
    entry.save(update_fields=["status", "checked_in_at", "is_late"])
    if late:
        _place_late(flight, entry, actor=actor)
    return entry


@transaction.atomic
def undo_check_in(*, actor, entry: Entry) -> Entry:
    """A director's tick undone (the wrong player ticked): back to registered, while the check-in still decides
    nothing, i.e. before a knockout's draw or a round flight's round 1. After that the draw or round 1 has read
    it, so taking the player out is a withdrawal instead (409 `check_in_used`)."""
    access.require(actor, "event.direct", entry.flight.event)  # before the lock, as check_in
    flight = lock_flight(entry.flight)
    entry = flight.entries.select_related("player").get(pk=entry.pk)
    if flight.draw_status != DrawStatus.NONE or flight.current_round or flight.status == FlightStatus.FINISHED:
        raise Conflict(
            _("The draw or round 1 has taken this check-in: withdraw the player instead."), code="check_in_used"
        )
    if entry.status == EntryStatus.CHECKED_IN:
        entry.status, entry.checked_in_at = EntryStatus.REGISTERED, None
        entry.save(update_fields=["status", "checked_in_at"])
    return entry


@transaction.atomic
def withdraw(*, actor, entry: Entry, comment: str = "") -> Entry | None:
    """Before the draw the entry is removed (kept withdrawn if it has payment lines, see _withdraw_before_draw);
    after it the opponent wins by walkover (now, or as soon as one
    arrives). Returns None when the entry was removed. A capped flight offers the freed place to its waiting
    list (services.waiting)."""
    access.require(actor, "entry.withdraw", entry)  # before the lock, which counts a new version of the flight
    flight = lock_places(entry.flight)
    entry = flight.entries.get(pk=entry.pk)
    if entry.status == EntryStatus.WITHDRAWN:
        return entry
    withdrawn = _withdraw_locked(actor=actor, flight=flight, entry=entry, comment=comment)
    waiting.place_freed(flight, event_locked=True)
    return withdrawn


def _withdraw_locked(*, actor, flight: Flight, entry: Entry, comment: str) -> Entry | None:
    if flight.is_round_based and flight.current_round:
        return rounds.drop(actor=actor, entry=entry, score_remaining=True, comment=comment)
    if flight.draw_status == DrawStatus.NONE or flight.kind == FlightKind.SIDE_POOL:
        return _withdraw_before_draw(flight, entry)
    if entry.place is not None:
        raise Conflict(_("This player is out of the flight already."), code="already_withdrawn")
    entry.status, entry.withdrawn_at = EntryStatus.WITHDRAWN, timezone.now()
    entry.save(update_fields=["status", "withdrawn_at"])
    if flight.draw_status != DrawStatus.RELEASED:
        return entry  # the walkover follows at release
    slot = (
        flight.slots.filter(Q(entry_a=entry) | Q(entry_b=entry)).exclude(result__in=DECIDED).order_by("-round").first()
    )
    if slot is not None and slot.match_id is not None:
        match = slot.match
        if match.status not in (MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS):
            return entry

        winner_side = 1 if slot.entry_a_id == entry.pk else 0
        match_services.record_consequence(
            actor=actor,
            match=match,
            origin=ReportOrigin.SYSTEM,
            outcome=MatchOutcome.WALKOVER,
            winner_side=winner_side,
            comment=comment or _("Withdrawn from the event."),
        )
    return entry


def _withdraw_before_draw(flight: Flight, entry: Entry) -> Entry | None:
    """An entry without payment lines is removed. One with lines (paid, refunded or waived) is kept withdrawn with
    them, so the club's books still show the money it holds: the club keeps what the event's refund percent
    leaves of the fee (Entry.kept_fee, core.fees.kept_on_withdrawal) and the rest of what was paid is to refund
    (the director records the refund when the money goes back). A pair's or team's players are free again."""
    if not entry.payments.exists():
        entry.delete()
        return None
    kept = fees.kept_on_withdrawal(to_cents(entry.fee), flight.event.withdrawal_refund_percent)
    entry.status, entry.withdrawn_at = EntryStatus.WITHDRAWN, timezone.now()
    entry.kept_fee, entry.draw_position = Decimal(numbers.format_cents(kept)), None
    entry.save(update_fields=["status", "withdrawn_at", "kept_fee", "draw_position"])
    EntryMember.objects.filter(entry=entry).delete()
    return entry


def _enter_again(entry: Entry, *, actor, is_late: bool, team_name: str = "") -> Entry:
    """A player who withdrew before the draw enters again: their withdrawn entry comes back with its payment
    lines (what they paid counts again), owing the fee once more."""
    entry.status, entry.withdrawn_at, entry.kept_fee, entry.checked_in_at = EntryStatus.REGISTERED, None, None, None
    entry.registered_by, entry.is_late, entry.team_name = actor, is_late, team_name
    entry.save(
        update_fields=["status", "withdrawn_at", "kept_fee", "checked_in_at", "registered_by", "is_late", "team_name"]
    )
    return entry


@transaction.atomic
def reenter(*, actor, flight: Flight, player: Player) -> Entry:
    """Buy back in after a loss: for the flight's re-entry fee, until its deadline and until a match of its
    `reentry_until_round` has started, at most `max_reentries` times per player, into a bye's place."""
    access.require(actor, "event.direct", flight.event)
    flight = lock_places(flight)  # its event too: a re-entry may withdraw the player's fed entry
    if flight.reentry_fee is None or flight.is_team_event:
        raise Conflict(_("This flight does not allow re-entry."), code="no_reentry")
    if flight.reentry_deadline and timezone.now() > flight.reentry_deadline:
        raise Conflict(_("The re-entry deadline has passed."), code="reentry_closed")
    latest = flight.entries.filter(player=player).order_by("-reentry_number").first()
    if latest is None or latest.place is None:
        raise Conflict(_("Only a player who has lost in this flight can re-enter it."), code="reentry_needs_loss")
    if latest.reentry_number >= flight.max_reentries:
        message = _("This player has re-entered %(count)s times: the flight allows %(max)s.")
        raise Conflict(
            message % {"count": latest.reentry_number, "max": flight.max_reentries}, code="already_reentered"
        )
    until = flight.reentry_until_round
    if until is not None and (
        flight.slots.filter(round__gte=until)
        .filter(Q(match__started_at__isnull=False) | Q(result=SlotResult.PLAYED))
        .exists()
    ):
        message = _("Round %(round)s has started: re-entry is closed.")
        raise Conflict(message % {"round": until}, code="reentry_closed")
    entry = Entry.objects.create(
        flight=flight,
        player=player,
        fee=flight.reentry_fee,
        registered_by=actor,
        is_late=True,
        is_reentry=True,
        reentry_number=latest.reentry_number + 1,
    )
    _place_late(flight, entry, actor=actor)
    # The player leaves the flights their loss fed: a walkover there for whoever they would have met.
    for fed in Entry.objects.filter(flight__source=flight, player=player, place__isnull=True).exclude(
        flight__kind=FlightKind.SIDE_POOL
    ):
        withdraw(actor=actor, entry=fed, comment=_("Re-entered %(flight)s.") % {"flight": flight.name})
    return entry
