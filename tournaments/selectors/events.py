"""Events and flights the asking user may see, their entries and placements."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists, Max, OuterRef, Prefetch, Q, Subquery
from django.db.models.expressions import RawSQL
from django.http import Http404
from django.utils.translation import gettext as _

from base.compiled import CompiledRead
from clubs import selectors as club_selectors
from clubs.models import Membership
from games.models.matches import Match
from tournaments.core import consequences
from tournaments.core.layout import P
from tournaments.format_registry import FORMATS
from tournaments.models import (
    Entry,
    EntryMember,
    EntryStatus,
    Event,
    FeedRule,
    Flight,
    FlightChange,
    FlightKind,
    Pairing,
    PairingResult,
    Slot,
    SlotResult,
    TeamBoard,
    TeamKind,
)
from tournaments.selectors.fees import unpaid_left_out


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
    placements = [Placement(entry_id=e, player_id=p, place=place) for e, p, place in rows]
    fed_by_places = FORMATS[flight.format].feeds_cut(flight)  # groups feed their knockout too
    if flight.playoff_second:
        placements = _after_the_playoff(flight, placements)
    return _after_the_cut(flight, placements) if fed_by_places else placements


def _after_the_playoff(flight: Flight, placements: list[Placement]) -> list[Placement]:
    """A knockout with a playoff for 2nd, once the playoff is decided: its winner 2nd, its loser 3rd (the
    consolation's winner keeps the place they went out with in the entry row), everyone else ranked after them
    (`consequences.playoff_places`). One more query."""
    playoff = (
        Slot.objects.filter(flight=flight, section=P)
        .exclude(result__in=[SlotResult.PENDING, SlotResult.READY])
        .values_list("entry_a", "entry_b", "winner")
        .first()
    )
    if playoff is None:
        return placements
    a, b, winner = playoff
    second = winner
    third = None if winner is None else (b if winner == a else a)
    places = consequences.playoff_places({p.entry_id: p.place for p in placements}, second=second, third=third)
    out = [Placement(p.entry_id, p.player_id, places[p.entry_id]) for p in placements]
    return sorted(out, key=lambda p: (p.place is None, p.place or 0, p.entry_id))


def _after_the_cut(flight: Flight, placements: list[Placement]) -> list[Placement]:
    """A flight played in rounds with a cut: the players of the cut take their place in the knockout it feeds
    (None while they are alive there), the others keep their standings place. One more query."""
    cut = dict(
        Entry.objects.filter(flight__source=flight, flight__feed_rule=FeedRule.CUT).values_list("player_id", "place")
    )
    if not cut:
        return placements
    out = [Placement(p.entry_id, p.player_id, cut[p.player_id]) if p.player_id in cut else p for p in placements]
    return sorted(out, key=lambda p: (p.place is None, p.place or 0, p.entry_id))


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
    if not getattr(user, "is_authenticated", False):  # a public event of a public club, on the club already joined
        return events.filter(is_public=True, club__is_public=True)
    visible = events.filter(club__in=club_selectors.visible_clubs(user=user))
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
    """The event at this club with this short name, if the user may see it (else None). Every event's and
    flight's page asks this first; for an anonymous visitor (the public bracket's spectators) the statement is
    compiled once per process (base.compiled), visible_events still being where the rule is written."""
    if not getattr(user, "is_authenticated", False):
        return _EVENT_FOR_ANONYMOUS.first(club_slug, slug)
    return visible_events(user=user).filter(club__slug=club_slug, slug=slug).first()


_EVENT_FOR_ANONYMOUS = CompiledRead(
    lambda club_slug, slug: visible_events(user=None).filter(club__slug=club_slug, slug=slug)[:1], strings=(0, 1)
)


def flight_version() -> RawSQL:
    """The flight's version as an expression to annotate a Flight query with: its FlightChange rows, counted in
    the same query (the bracket cache's key). Written as SQL because the ORM's Coalesce(Subquery(Count)) took
    0.5 ms of Python to compile on every bracket read, a tenth of a cached page; a flight's query never aliases
    its own table, so the outer column is named as it is."""
    changes, flights = FlightChange._meta.db_table, Flight._meta.db_table
    return RawSQL(f'SELECT COUNT(*) FROM "{changes}" WHERE "{changes}"."flight_id" = "{flights}"."id"', ())


def flight_for(*, event, slug: str) -> Flight | None:
    """The event's flight with this short name, carrying the event object given (with its club) instead of
    joining it again. Ordered by id alone: the model's ordering (event, then the event's own ordering) made
    building this one-row query cost more than the cached bracket page it precedes. The flight it is fed by is
    not joined: a cached page never reads it (0.7 ms of the query's building), and a page built anew loads it
    with one query when the flight has one."""
    flight = _FLIGHT_FOR.first(event.pk, slug)
    if flight is not None:
        flight.event = event
    return flight


_FLIGHT_FOR = CompiledRead(
    lambda event_id, slug: (
        Flight.objects.filter(event_id=event_id, slug=slug).annotate(version=flight_version()).order_by("pk")[:1]
    ),
    strings=(1,),
)


def flight_or_404(*, user, club_slug: str, event_slug: str, slug: str) -> Flight:
    """The flight named in a URL, of an event the user may see, with its event and club (404 otherwise): every
    flight page's and flight endpoint's first read. An anonymous visitor's is one statement compiled once per
    process (the public bracket's spectators ask it on every read, and the event's and the flight's statements one
    after the other were most of a cached page's time under load); a miss asks again, to say what is missing."""
    if not getattr(user, "is_authenticated", False):
        found = _PUBLIC_FLIGHT.first(club_slug, event_slug, slug)
        if found is not None:
            return found
    found = flight_for(event=event_or_404(user=user, club_slug=club_slug, slug=event_slug), slug=slug)
    if found is None:
        raise Http404(_("No such flight."))
    return found


_PUBLIC_FLIGHT = CompiledRead(
    lambda club_slug, event_slug, slug: (
        Flight.objects.filter(
            event__in=visible_events(user=None).filter(club__slug=club_slug, slug=event_slug).values("pk")[:1],
            slug=slug,
        )
        .select_related("event__club")
        .annotate(version=flight_version())
        .order_by("pk")[:1]
    ),
    strings=(0, 1, 2),
)


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
    """The flight's entries, placed ones first (the standings under a bracket); a pair flight's with their
    players (one query more, whatever the number of pairs)."""
    entries = flight.entries.select_related("player").order_by("place", "draw_position", "id")
    if flight.is_team_event:
        entries = entries.prefetch_related(Prefetch("members", EntryMember.objects.select_related("player")))
    return entries


def entry_members(*, entry: Entry) -> list[EntryMember]:
    """The players of a pair entry, the captain first (empty for a singles entry)."""
    return list(entry.members.select_related("player").order_by("order"))


@dataclass(frozen=True)
class MatchSides:
    """A pair or team flight's match as the match page shows it: the flight and the players of each side; for
    a team match's board, the board and the two teams."""

    flight: Flight
    side_a: list
    side_b: list
    board: int | None = None
    team_a: str = ""
    team_b: str = ""


def match_sides(*, match) -> MatchSides | None:
    """The pairs of a doubles or consultation match, or the board and teams of a team match's board (None for
    any other match): at most three queries."""
    pairs = ~Q(flight__team_kind=TeamKind.SINGLES)
    slot = Slot.objects.filter(pairs, match=match).select_related("flight").first()
    table = slot or Pairing.objects.filter(pairs, match=match).select_related("flight").first()
    if table is None:
        board = (
            TeamBoard.objects.filter(match=match)
            .select_related(
                "flight",
                "slot__entry_a__player",
                "slot__entry_b__player",
                "pairing__entry_a__player",
                "pairing__entry_b__player",
            )
            .first()
        )
        if board is None:
            return None
        teams = board.slot or board.pairing  # a knockout's team match, or a round's team table
        return MatchSides(board.flight, [], [], board.board, teams.entry_a.name, teams.entry_b.name)
    sides: dict[int, list] = {table.entry_a_id: [], table.entry_b_id: []}
    members = EntryMember.objects.filter(entry_id__in=[e for e in sides if e is not None]).select_related("player")
    for member in members.order_by("order"):
        sides[member.entry_id].append(member.player)
    return MatchSides(table.flight, sides[table.entry_a_id], sides.get(table.entry_b_id, []))


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


def no_shows(*, flight: Flight) -> list:
    """With a check-in deadline: the entries not checked in and not drawn (the draw left them out; a director's
    check-in draws them in late)."""
    if flight.check_in_deadline is None:
        return []
    entries = flight.entries.filter(status=EntryStatus.REGISTERED, draw_position__isnull=True)
    return list(entries.select_related("player").order_by("player__name"))


def check_in_entries(*, flight: Flight) -> list:
    """Before round 1 of a flight played in rounds: every entry with its check-in, by name, so the director finds
    a player at the door and everyone sees who is here (one query, whatever the number of entries)."""
    entries = list(flight.entries.exclude(status=EntryStatus.WITHDRAWN).select_related("player"))
    return sorted(entries, key=lambda e: (e.name.casefold(), e.pk))


def round_one_no_shows(*, flight: Flight) -> list:
    """Who pairing round 1 now would withdraw as no-shows (the entries rounds._leave_out_no_shows takes: with a
    check-in deadline, those still only registered), by name: the director's confirmation page lists them."""
    if not flight.is_round_based or flight.check_in_deadline is None or flight.current_round:
        return []
    entries = list(flight.entries.filter(status=EntryStatus.REGISTERED).select_related("player"))
    return sorted(entries, key=lambda e: (e.name.casefold(), e.pk))


def own_entries(*, event, player) -> list:
    """The player's entries in the event (withdrawn ones too), with their flight: which flights they entered and
    the event page's one-tap check-in, in one query."""
    if player is None:
        return []
    entries = player.tournament_entries.filter(flight__event=event)
    return list(entries.select_related("flight").order_by("flight__order", "flight_id"))


def match_flight(*, match) -> Flight | None:
    """The flight a games Match belongs to (None for a match outside a tournament): its clock for the match page.
    A bracket slot's, a round's table's (Swiss, round robin, groups) or a team match's board's flight."""
    for model in (Slot, Pairing, TeamBoard):
        found = model.objects.filter(match=match).select_related("flight__event__club").first()
        if found is not None:
            return found.flight
    return None


@dataclass(frozen=True)
class MatchSpot:
    """Where a tournament match is played: its event and flight, and its round (`section` and `last` for a
    bracket's round names, `table` for a round's table, `board` for a team match's board)."""

    event_id: int
    event: str
    flight_id: int
    flight: str
    round: int
    section: str = ""
    last: int = 0
    table: int | None = None
    board: int | None = None
    format: str = ""
    group: int = 0

    @property
    def label(self) -> str:
        """The round as the flight's format names it ("Semi-finals", "Round 3, table 2"), and the board of a team
        match."""
        where = FORMATS[self.format].round_label(
            None, self.round, group=self.group, table=self.table, section=self.section, last=self.last
        )
        if self.board is not None:
            where = _("%(round)s, board %(board)s") % {"round": where, "board": self.board}
        return where


_SPOT_FIELDS = ("flight_id", "flight__name", "flight__format", "flight__event_id", "flight__event__name")


def _last_round(prefix: str) -> Subquery:
    """The highest round of the section of the slot at `prefix` (the final's round, for "Semi-finals")."""
    rounds = Slot.objects.filter(flight=OuterRef(f"{prefix}flight"), section=OuterRef(f"{prefix}section"))
    return Subquery(rounds.order_by().values("flight").annotate(last=Max("round")).values("last"))


_SPOT_PREFIXES = ("tournament_slot__", "tournament_pairing__", "team_board__")
_SPOT_COLUMNS = (
    "pk",
    *(_SPOT_PREFIXES[0] + f for f in (*_SPOT_FIELDS, "section", "round")),
    *(_SPOT_PREFIXES[1] + f for f in (*_SPOT_FIELDS, "round", "table", "group")),
    *(_SPOT_PREFIXES[2] + f for f in (*_SPOT_FIELDS, "board", "slot__section", "slot__round", "pairing__round")),
    _SPOT_PREFIXES[2] + "pairing__table",
    _SPOT_PREFIXES[2] + "pairing__group",
    "slot_last",
    "board_last",
)
# Every report, confirmation, dispute and start asks where its match is played, to push it to the flight's and
# the event's pages (games.live): built and compiled, this statement's three joins and two subqueries cost about
# 6 ms of Python a call, more than the rest of a report; compiled once it costs well under one (base.compiled).
_MATCH_SPOTS = CompiledRead(
    lambda *ids: (
        Match.objects.filter(pk__in=ids)
        .annotate(slot_last=_last_round(_SPOT_PREFIXES[0]), board_last=_last_round(f"{_SPOT_PREFIXES[2]}slot__"))
        .order_by()
        .values_list(*_SPOT_COLUMNS)
    )
)


def match_spots(match_ids) -> dict[int, MatchSpot]:
    """{match id: MatchSpot} for those of the matches that belong to a tournament: a bracket slot's, a round's
    table's or a team board's. One query for any number of matches (a result card list names each one's event,
    flight and round), none for no ids."""
    ids = sorted(set(match_ids))
    if not ids:
        return {}
    slot, pairing, board = _SPOT_PREFIXES
    spots = {}
    for values in _MATCH_SPOTS.all(*ids):
        row = dict(zip(_SPOT_COLUMNS, values, strict=True))
        if row[f"{slot}flight_id"] is not None:
            found = _spot(row, slot, row[f"{slot}round"], section=row[f"{slot}section"], last=row["slot_last"])
        elif row[f"{pairing}flight_id"] is not None:
            found = _spot(
                row, pairing, row[f"{pairing}round"], table=row[f"{pairing}table"], group=row[f"{pairing}group"]
            )
        elif row[f"{board}flight_id"] is not None:
            section = row[f"{board}slot__section"]  # a knockout's team match, else a round's team table
            number = row[f"{board}slot__round"] if section else row[f"{board}pairing__round"]
            found = _spot(
                row,
                board,
                number,
                section=section,
                last=row["board_last"],
                board=row[f"{board}board"],
                table=None if section else row[f"{board}pairing__table"],
                group=row[f"{board}pairing__group"] or 0,
            )
        else:
            continue
        spots[row["pk"]] = found
    return spots


def _spot(
    row: dict, prefix: str, number: int, *, section=None, last=None, table=None, board=None, group=0
) -> MatchSpot:
    return MatchSpot(
        event_id=row[f"{prefix}flight__event_id"],
        event=row[f"{prefix}flight__event__name"],
        flight_id=row[f"{prefix}flight_id"],
        flight=row[f"{prefix}flight__name"],
        format=row[f"{prefix}flight__format"],
        group=group or 0,
        round=number,
        section=section or "",
        last=last or number,
        table=table,
        board=board,
    )


def drawable_entries(flight: Flight):
    """Who goes into the draw: every entry still in, or with a check-in deadline only the checked-in ones (the
    others are the no-shows); with "payment required before the draw" only those whose fee is paid or waived."""
    entries = flight.entries.exclude(status=EntryStatus.WITHDRAWN)
    if flight.check_in_deadline is not None:
        entries = entries.filter(status=EntryStatus.CHECKED_IN)
    if flight.payment_required:  # the fee paid or waived (tournaments.selectors.fees)
        entries = entries.exclude(pk__in=[e.pk for e in unpaid_left_out(flight=flight)])
    return entries


def match_tally(*, flight: Flight) -> dict[int, tuple[int, int]]:
    """Entry id -> (matches won, matches lost) in the flight, counting only matches played out (a bye, a
    walkover or a forfeit is no match): the federation's results file. Two queries."""
    tally: dict[int, list[int]] = {}
    slots = Slot.objects.filter(flight=flight, result=SlotResult.PLAYED).values_list("winner_id", "loser_id")
    pairings = Pairing.objects.filter(flight=flight, result=PairingResult.PLAYED, entry_b__isnull=False)
    decided = pairings.values_list("winner_id", "entry_a_id", "entry_b_id")
    for winner, loser in slots:
        tally.setdefault(winner, [0, 0])[0] += 1
        tally.setdefault(loser, [0, 0])[1] += 1
    for winner, a, b in decided:
        if winner is None:
            continue
        tally.setdefault(winner, [0, 0])[0] += 1
        tally.setdefault(b if winner == a else a, [0, 0])[1] += 1
    return {entry: (won, lost) for entry, (won, lost) in tally.items() if entry is not None}
