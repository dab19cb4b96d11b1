"""Reads for events, flights, brackets and prize lists, scoped to what the asking user may see."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Exists, Min, OuterRef, Q, Sum
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs import selectors as club_selectors
from clubs.models import Membership, Player
from games.matchplay.state import lateness_penalty
from games.models.matches import MatchDispute, MatchStatus
from tournaments.core import calling as calling_rules
from tournaments.core import forecast, payouts
from tournaments.core.draw import bracket_size
from tournaments.core.errors import BracketError
from tournaments.core.layout import G, L, Layout
from tournaments.models import (
    Board,
    Call,
    DrawStatus,
    Entry,
    EntryStatus,
    Event,
    EventStatus,
    Flight,
    FlightKind,
    FlightStatus,
    Slot,
    SlotResult,
)


@dataclass(frozen=True)
class Placement:
    entry_id: int
    player_id: int
    place: int | None  # None while the entry is still alive


def flight_placements(*, flight: Flight) -> list[Placement]:
    """Every entry of the flight with its place (standard competition ranking by elimination round: winner 1,
    finalist 2, losing semi-finalists 3, quarter-finalists 5, ...; None while alive). One query."""
    if flight.kind == FlightKind.SIDE_POOL:
        return _side_pool_placements(flight)
    rows = Entry.objects.filter(flight=flight).order_by("place", "id").values_list("id", "player_id", "place")
    return [Placement(entry_id=e, player_id=p, place=place) for e, p, place in rows]


def _side_pool_placements(flight: Flight) -> list[Placement]:
    """A side pool ranks its members by how far they got in the source flight: 1 + the members who finished
    ahead (or are still alive); None while the member is alive there. Two queries."""
    members = list(Entry.objects.filter(flight=flight).order_by("id").values_list("id", "player_id"))
    best: dict[int, int | None] = {}
    for player_id, place in Entry.objects.filter(
        flight_id=flight.source_id, player_id__in=[p for _e, p in members]
    ).values_list("player_id", "place"):
        # a player with a re-entry is ranked by their better run (alive counts as best)
        if player_id not in best or place is None or (best[player_id] is not None and place < best[player_id]):
            best[player_id] = place
    places = [best.get(p) for _e, p in members]
    out = []
    for (entry_id, player_id), place in zip(members, places, strict=True):
        if place is None:
            out.append(Placement(entry_id=entry_id, player_id=player_id, place=None))
            continue
        ahead = sum(1 for other in places if other is None or other < place)
        out.append(Placement(entry_id=entry_id, player_id=player_id, place=1 + ahead))
    return sorted(out, key=lambda p: (p.place is None, p.place or 0, p.entry_id))


# --- visibility -------------------------------------------------------------------------------------------


def visible_events(*, user):
    """Public events of visible clubs for everyone; private ones to their directors and the club's members."""
    events = Event.objects.select_related("club")
    if getattr(user, "is_superuser", False):
        return events
    visible = events.filter(club__in=club_selectors.visible_clubs(user=user))
    if not getattr(user, "is_authenticated", False):
        return visible.filter(is_public=True)
    member = Membership.objects.filter(club=OuterRef("club"), player__user=user, is_active=True)
    return visible.filter(Q(is_public=True) | Exists(member) | Q(directors=user)).distinct()


def event_or_404(*, user, club_slug: str, slug: str) -> Event:
    """The event the user may see, or 404 (a private club's event is not found for outsiders): the pages' and the
    API's one way to name an event from its URL."""
    event = event_for(user=user, club_slug=club_slug, slug=slug)
    if event is None:
        raise Http404(_("No such event."))
    return event


def event_for(*, user, club_slug: str, slug: str):
    """The event at this club with this short name, if the user may see it (else None)."""
    return visible_events(user=user).filter(club__slug=club_slug, slug=slug).first()


def flight_for(*, event, slug: str) -> Flight | None:
    return event.flights.filter(slug=slug).select_related("event__club", "source").first()


def newest_events(*, user):
    """The events the user may see, latest first (the list page and the API)."""
    return visible_events(user=user).order_by("-starts_on", "name")


def events_with_flights(*, user):
    """The events the user may see with their flights loaded (the API's list)."""
    return visible_events(user=user).prefetch_related("flights__source")


def flights(*, event) -> list[Flight]:
    """The event's flights in the director's order, with the flight each is fed by."""
    return list(event.flights.select_related("source").order_by("order", "id"))


def event_entries(*, event) -> list:
    """Every first entry of the event with its player, by name (the directors' register boxes and their own
    entries, in one query)."""
    entries = Entry.objects.filter(flight__event=event, is_reentry=False).select_related("player")
    return list(entries.order_by("player__name", "id"))


def flight_entries(*, flight: Flight):
    """The flight's entries, placed ones first (the standings under a bracket)."""
    return flight.entries.select_related("player").order_by("place", "draw_position", "id")


def club_member(*, club, player_id: int):
    """The player with this id if they are an active member of the club (whom the register form may name)."""
    membership = club_selectors.club_members(club=club).filter(player_id=player_id).first()
    return None if membership is None else membership.player


def entry_in(*, flight: Flight, pk) -> Entry | None:
    """An entry of this flight (None for another flight's or an unknown id)."""
    return flight.entries.select_related("flight__event__club").filter(pk=pk).first()


def slot_in(*, flight: Flight, pk):
    """A slot of this flight with what the override page and the API show of it (None if it is not there)."""
    return (
        flight.slots.select_related(
            "flight__event__club",
            "entry_a__player",
            "entry_b__player",
            "match",
            "winner__player",
            "loser",
            "call__board",
        )
        .filter(pk=pk)
        .first()
    )


# --- bracket ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BracketRound:
    section: str
    number: int
    title: str
    slots: list


def bracket(*, flight: Flight) -> list[BracketRound]:
    """The flight's slots by section and round, with players and match results: three queries."""
    slots = list(
        Slot.objects.filter(flight=flight)
        .select_related("entry_a__player", "entry_b__player", "match", "winner", "call__board")
        .order_by("section", "round", "position")
    )
    if not slots:
        return []
    sections: dict[str, int] = {}
    for slot in slots:
        sections[slot.section] = max(sections.get(slot.section, 0), slot.round)
    rounds: dict[tuple[str, int], list] = {}
    for slot in slots:
        rounds.setdefault((slot.section, slot.round), []).append(slot)
    _label_open_sides(rounds)
    order = {"w": 0, "c": 0, "l": 1, "g": 2}
    out = []
    for (section, number), members in sorted(rounds.items(), key=lambda kv: (order.get(kv[0][0], 3), kv[0][1])):
        last = sections[section]
        if section == G:
            title = _("Grand final")
        elif number == last and section != L:
            title = _("Final")
        elif number == last - 1 and section != L:
            title = _("Semi-finals")
        elif number == last - 2 and section != L:
            title = _("Quarter-finals")
        else:
            title = _("Round %(n)s") % {"n": number}
        if section == L:
            title = _("Losers' side, %(title)s") % {"title": title}
        out.append(BracketRound(section, number, title, members))
    return out


def _side_name(slot, side: int) -> str | None:
    entry = slot.entry_a if side == 0 else slot.entry_b
    return entry.player.name if entry is not None else None


def _label_open_sides(rounds: dict) -> None:
    """An open place in the winners' tree says who can still fill it: "winner of Elif / Ines" from the match
    that feeds it, further back when that match is open too ("winner of Anna / Bernd / Clara"), and "one of 8
    players" when more than three can still arrive. Sets `label_a` and `label_b` on the slots."""
    at = {(section, number, slot.position): slot for (section, number), members in rounds.items() for slot in members}

    def arriving(section: str, number: int, position: int, side: int) -> list[str]:
        slot = at.get((section, number, position))
        if slot is None:
            return []
        name = _side_name(slot, side)
        if name:
            return [name]
        if (slot.a_empty if side == 0 else slot.b_empty) or number == 1:
            return []
        feeder = position * 2 + side
        return arriving(section, number - 1, feeder, 0) + arriving(section, number - 1, feeder, 1)

    for (section, number), members in rounds.items():
        for slot in members:
            slot.label_a = slot.label_b = None
            if section != "w" or number == 1:
                continue
            for side in (0, 1):
                if _side_name(slot, side) or (slot.a_empty if side == 0 else slot.b_empty):
                    continue
                names = arriving(section, number, slot.position, side)
                if not names:
                    continue
                if len(names) <= 3:
                    label = _("winner of %(names)s") % {"names": " / ".join(names)}
                else:
                    label = _("one of %(n)s players") % {"n": len(names)}
                setattr(slot, "label_a" if side == 0 else "label_b", label)


def draft_pairs(*, flight: Flight) -> list[tuple]:
    """Round-1 pairs of a drawn but not yet released flight (None = bye): one query."""
    line: list = [None] * (flight.size or 0)
    for entry in flight.entries.filter(draw_position__isnull=False).select_related("player"):
        if entry.draw_position < len(line):
            line[entry.draw_position] = entry
    return [(line[i], line[i + 1]) for i in range(0, len(line), 2)]


# --- the director's dashboard and a player's next match ---------------------------------------------------


@dataclass(frozen=True)
class Dashboard:
    ready: list
    in_progress: list
    waiting: list
    disputed: list


def dashboard(*, event) -> Dashboard:
    """Matches ready to play, in progress, slots waiting for a player, and disputed results."""
    slots = list(
        Slot.objects.filter(flight__event=event)
        .exclude(result__in=["played", "bye", "walkover", "double_forfeit", "empty"])
        .select_related("flight__event__club", "entry_a__player", "entry_b__player", "match", "call__board")
        .order_by("flight__order", "section", "round", "position")
    )

    open_dispute = MatchDispute.objects.filter(match=OuterRef("match"), resolved_at__isnull=True)
    disputed_ids = set(
        Slot.objects.filter(flight__event=event).filter(Exists(open_dispute)).values_list("pk", flat=True)
    )
    ready, in_progress, waiting, disputed = [], [], [], []
    for slot in slots:
        if slot.pk in disputed_ids:
            disputed.append(slot)
        elif slot.result == SlotResult.READY and slot.match and slot.match.status == MatchStatus.IN_PROGRESS:
            in_progress.append(slot)
        elif slot.result == SlotResult.READY:
            ready.append(slot)
        elif slot.entry_a_id or slot.entry_b_id:
            waiting.append(slot)
    return Dashboard(ready, in_progress, waiting, disputed)


def next_matches(*, player) -> list:
    """The player's tournament slots that are ready or waiting for an opponent, soonest first."""
    return list(
        Slot.objects.filter(Q(entry_a__player=player) | Q(entry_b__player=player))
        .filter(result__in=[SlotResult.READY, SlotResult.PENDING])
        .select_related("flight__event__club", "entry_a__player", "entry_b__player", "match", "call__board")
        .order_by("flight__event__starts_on", "round")[:5]
    )


# --- money ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FlightPrizes:
    flight: Flight
    entries: int
    payout: object  # tournaments.core.payouts.Payout
    paid_from: tuple = ()  # names of the flights whose templates pay this flight's places


def prize_list(*, event) -> list[FlightPrizes]:
    """Each flight's pool (fees of its entries and re-entries), the house's share and the template's lines
    with who holds each place so far; a flight without a template of its own is listed too, with its pool and the
    flights whose templates pay its places. Three queries, two more per side pool."""
    flights = list(event.flights.annotate(pool=Sum("entries__fee"), n=Count("entries")).order_by("order", "id"))
    by_slug = {f.slug: f for f in flights}
    places: dict[tuple[int, int], list[int]] = {}
    for flight_id, place, player_id in Entry.objects.filter(flight__event=event, place__isnull=False).values_list(
        "flight_id", "place", "player_id"
    ):
        places.setdefault((flight_id, place), []).append(player_id)
    for pool in (f for f in flights if f.kind == "side_pool"):
        for placement in flight_placements(flight=pool):
            if placement.place is not None:
                places.setdefault((pool.pk, placement.place), []).append(placement.player_id)
    names = dict(Player.objects.filter(pk__in={p for ps in places.values() for p in ps}).values_list("pk", "name"))
    out = []
    templates = {f.pk: payouts.validate_template(f.payout_template) if f.payout_template else [] for f in flights}
    for flight in flights:
        paid_from = tuple(
            other.name
            for other in flights
            if other.pk != flight.pk and any(share.flight == flight.slug for share in templates[other.pk])
        )
        shares = templates[flight.pk]
        holders = {}
        for share in shares:
            target = by_slug.get(share.flight, flight) if share.flight else flight
            holders[(share.flight, share.place)] = [names[p] for p in places.get((target.pk, share.place), [])]
        payout = payouts.compute(
            pool=payouts.to_cents(flight.pool or 0), house_percent=event.house_percent, shares=shares, holders=holders
        )
        out.append(FlightPrizes(flight, flight.n, payout, paid_from))
    return out


def my_next_slots(*, user, limit: int = 5) -> list:
    """The signed-in user's bracket places still to play in events not finished, the soonest event first."""
    mine = Q(entry_a__player__user=user) | Q(entry_b__player__user=user)
    return list(
        Slot.objects.filter(mine, result__in=[SlotResult.READY, SlotResult.PENDING])
        .exclude(flight__event__status=EventStatus.FINISHED)
        .select_related("flight__event__club", "entry_a__player", "entry_b__player", "call__board")
        .order_by("flight__event__starts_on", "round")[:limit]
    )


def my_entries(*, user, limit: int = 10) -> list:
    """The signed-in user's entries in events not finished (withdrawn ones left out)."""
    return list(
        Entry.objects.filter(player__user=user)
        .exclude(status=EntryStatus.WITHDRAWN)
        .exclude(flight__event__status=EventStatus.FINISHED)
        .select_related("flight__event__club")
        .order_by("flight__event__starts_on", "flight__event__name")[:limit]
    )


def _directs_the_club(club_ref: str):
    """A director's or admin's active membership of the club named by `club_ref`, for the user of the outer query."""
    return Membership.objects.filter(
        club=OuterRef(club_ref), player__user=OuterRef(OuterRef("pk")), is_active=True, role__in=["director", "admin"]
    )


def directs_open_events_subquery():
    """Whether the user of the outer query directs an event not finished: loaded with the user (accounts.badges),
    so the home page asks for the list only when there is one, and a player's home costs no query for it."""
    return Exists(Event.objects.exclude(status=EventStatus.FINISHED).filter(Exists(_directs_the_club("club"))))


def directed_events(*, user, limit: int = 5) -> list:
    """The events not finished at the clubs the user directs, the soonest first: a director's way from the home
    page to the event page and its dashboard, where the draw and the results are handled."""
    return list(
        Event.objects.filter(club__in=club_selectors.directed_clubs(user=user))
        .exclude(status=EventStatus.FINISHED)
        .select_related("club")
        .order_by("starts_on", "name")[:limit]
    )

# --- boards and match calling -----------------------------------------------------------------------------


def waiting_matches(*, event) -> list:
    """Bracket matches whose two players are known and that are not called yet, in released flights: the
    calling queue, longest-waiting first (the match is made when its second player is known)."""
    return list(
        Slot.objects.filter(
            flight__event=event,
            flight__draw_status=DrawStatus.RELEASED,
            result=SlotResult.READY,
            match__isnull=False,
            call__isnull=True,
        )
        .select_related("flight", "entry_a__player", "entry_b__player", "match")
        .order_by("match__created_at", "id")
    )


def busy_players(*, event) -> set[int]:
    """Players of the event's called matches not decided yet (whether or not their board was freed)."""
    busy: set[int] = set()
    for a, b in Call.objects.filter(slot__flight__event=event, slot__result=SlotResult.READY).values_list(
        "slot__entry_a__player_id", "slot__entry_b__player_id"
    ):
        busy.update(p for p in (a, b) if p is not None)
    return busy


@dataclass(frozen=True)
class BoardLine:
    board: Board
    call: Call | None
    penalty_due: int  # lateness penalty points the rule gives now (0 within the grace period or when applied)


@dataclass(frozen=True)
class Calling:
    """The director's calling page: every board with the match on it, and the queue."""

    event: Event
    boards: list[BoardLine]
    queue: list
    busy: set[int]

    @property
    def free_boards(self) -> list[Board]:
        return [line.board for line in self.boards if line.call is None]


def lateness_due(call: Call, *, now=None) -> int:
    """The penalty points the lateness rule gives now for a player who has not come to the board since the
    call, 0 within the event's grace period (the director sees it, and applies it with `apply_lateness`)."""
    now = now or timezone.now()
    minutes = calling_rules.minutes_since(call.called_at.timestamp(), now.timestamp())
    return calling_rules.penalty_due(
        minutes_waited=minutes, grace_minutes=call.board.event.call_grace_minutes, penalty_for=lateness_penalty
    )


def calling(*, event, now=None) -> Calling:
    """Boards with their open calls (and the lateness penalty due on each), and the waiting matches; four
    queries."""
    calls = {
        c.board_id: c
        for c in Call.objects.filter(board__event=event, freed_at__isnull=True).select_related(
            "board__event", "slot__flight", "slot__entry_a__player", "slot__entry_b__player", "slot__match"
        )
    }
    lines = []
    for board in Board.objects.filter(event=event).order_by("number"):
        call = calls.get(board.pk)
        due = 0
        if call is not None and call.lateness_applied_at is None and call.slot.result == SlotResult.READY:
            due = lateness_due(call, now=now)
        lines.append(BoardLine(board, call, due))
    return Calling(event, lines, waiting_matches(event=event), busy_players(event=event))


def open_calls(*, event) -> list:
    """The calls on boards now, by board: what the call slips print."""
    return list(
        Call.objects.filter(board__event=event, freed_at__isnull=True)
        .select_related("board", "slot__flight", "slot__entry_a__player", "slot__entry_b__player", "slot__match")
        .order_by("board__number")
    )


def call_in(*, event, pk) -> Call | None:
    """A call of this event (None for another event's or an unknown id)."""
    return (
        Call.objects.select_related(
            "board__event__club", "slot__match", "slot__flight", "slot__entry_a__player", "slot__entry_b__player"
        )
        .filter(board__event=event, pk=pk)
        .first()
    )


def board_in(*, event, number) -> Board | None:
    """The event's board with this number (None if there is none)."""
    return Board.objects.select_related("event__club").filter(event=event, number=number).first()


def no_shows(*, flight: Flight) -> list:
    """With a check-in deadline: the entries not checked in and not drawn (the draw left them out; a director's
    check-in draws them in late)."""
    if flight.check_in_deadline is None:
        return []
    entries = flight.entries.filter(status=EntryStatus.REGISTERED, draw_position__isnull=True)
    return list(entries.select_related("player").order_by("player__name"))


def own_entries(*, event, player) -> list:
    """The player's entries in the event (withdrawn ones too), with their flight: which flights they entered and
    the event page's one-tap check-in, in one query."""
    if player is None:
        return []
    entries = player.tournament_entries.filter(flight__event=event)
    return list(entries.select_related("flight").order_by("flight__order", "flight_id"))


def match_flight(*, match) -> Flight | None:
    """The flight a games Match belongs to (None for a match outside a tournament): its clock for the match page."""
    slot = Slot.objects.filter(match=match).select_related("flight__event__club").first()
    return None if slot is None else slot.flight


@dataclass
class FlightTimes:
    flight: Flight
    forecast: forecast.FlightForecast
    late: bool


def club_durations(*, club) -> forecast.Durations:
    """The club's own pace: every finished match of its events with both times (the newest 500)."""
    rows = (
        Slot.objects.filter(flight__event__club=club, match__finished_at__isnull=False, match__started_at__isnull=False)
        .order_by("-match__finished_at")
        .values_list("match__length", "match__started_at", "match__finished_at")[:500]
    )
    return forecast.Durations(
        forecast.Played(length, (finished - started).total_seconds() / 60) for length, started, finished in rows
    )


def _round_lengths(flight: Flight, size: int) -> list[int]:
    layout = Layout.for_flight(
        size=size,
        double=flight.kind == FlightKind.DOUBLE_ELIMINATION,
        feed_rule=flight.feed_rule,
        feed_rounds=flight.feed_rounds,
    )
    count = (
        len(layout.rounds(L)) + 1
        if flight.kind == FlightKind.DOUBLE_ELIMINATION
        else len(layout.rounds(layout.first_section))
    )
    return [flight.length_for(r, is_final=r == count) for r in range(1, count + 1)]


def event_forecast(*, event, now) -> list[FlightTimes]:
    """Expected round starts and end of each bracket flight still to finish, and whether it ends after the
    event's closing time. A flight not released yet is forecast from now (or its check-in deadline, if later),
    sized by its entries; a running one from the actual start of each round begun."""
    durations = club_durations(club=event.club)
    started: dict[int, dict[int, object]] = {}  # flight -> round -> its first match's start (one query)
    for row in (
        Slot.objects.filter(flight__event=event, match__started_at__isnull=False)
        .exclude(section=L)
        .values("flight_id", "round")
        .annotate(first=Min("match__started_at"))
    ):
        started.setdefault(row["flight_id"], {})[row["round"]] = row["first"]
    out = []
    for flight in flights(event=event):
        if flight.kind == FlightKind.SIDE_POOL or flight.status == FlightStatus.FINISHED:
            continue
        size = flight.size
        if size is None:
            count = drawable_entries(flight).count()
            if count < 2 or flight.source_id is not None:
                continue
            size = bracket_size(count)
        try:
            lengths = _round_lengths(flight, size)
        except BracketError:
            continue  # too small to lay out (a fed flight of a tiny source): nothing to forecast
        start = max(now, flight.check_in_deadline) if flight.check_in_deadline else now
        times = forecast.forecast_flight(
            start=start, round_lengths=lengths, durations=durations, started=started.get(flight.pk, {})
        )
        out.append(FlightTimes(flight, times, forecast.ends_late(times, event.closes_at)))
    return out


def drawable_entries(flight: Flight):
    """Who goes into the draw: every entry still in, or with a check-in deadline only the checked-in ones (the
    others are the no-shows)."""
    entries = flight.entries.exclude(status=EntryStatus.WITHDRAWN)
    if flight.check_in_deadline is not None:
        entries = entries.filter(status=EntryStatus.CHECKED_IN)
    return entries
