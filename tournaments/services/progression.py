"""The bracket's progression: the one place that asks the core what a decided slot leads to
(`consequences.consequences`) and stores it. Bracket writes take the slot's row lock, so two confirmations of one
match (or of the two matches feeding one slot) are serialised and the winner moves on exactly once.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from base.compiled import CompiledRead
from base.errors import Conflict
from base.locks import lock
from games.matchplay import services as match_services
from games.models.matches import Match, MatchContext, MatchOutcome, MatchStatus, ReportOrigin
from tournaments import hooks
from tournaments.core import consequences, teams
from tournaments.core.layout import Key, Layout, P, Target
from tournaments.models import (
    BracketChange,
    DrawStatus,
    Entry,
    EntryMember,
    EntryStatus,
    Event,
    EventStatus,
    FeedRule,
    Flight,
    FlightKind,
    FlightStatus,
    Slot,
    SlotResult,
    TeamBoard,
    TeamKind,
)
from tournaments.services.common import DECIDED, SLOT_RESULT

# A match outcome -> what it means for the bracket.
OUTCOME_RESULT = {
    MatchOutcome.PLAYED: consequences.PLAYED,
    MatchOutcome.LATENESS: consequences.PLAYED,
    MatchOutcome.FORFEIT: consequences.PLAYED,
    MatchOutcome.WALKOVER: consequences.WALKOVER,
    MatchOutcome.NO_SHOW: consequences.WALKOVER,
    MatchOutcome.DOUBLE_FORFEIT: consequences.DOUBLE_FORFEIT,
}
CORE_RESULT = {v: k for k, v in SLOT_RESULT.items()}
PLAYOFF = Target(Key(P, 1, 0), 1)  # the consolation winner's side of the main's playoff for 2nd
BRACKET_KINDS = (FlightKind.MAIN, FlightKind.CONSOLATION, FlightKind.LAST_CHANCE, FlightKind.DOUBLE_ELIMINATION)


@dataclass
class Step:
    """One slot a correction would void, for the director to see before applying it."""

    slot: Slot
    started: bool


class BracketStore:
    """Applies the core's actions to slot rows. Layouts and fed flights are cached per request."""

    def __init__(self, event: Event, *, actor=None):
        self.event = event
        self.actor = actor
        self._layouts: dict[int, Layout] = {}
        self._fed: dict[int, Flight | None] = {}
        self._playoff: dict[int, Flight | None] = {}  # source flight id -> the main whose playoff it feeds
        self.touched: dict[int, Flight] = {}  # flights whose bracket changed, for the hooks
        # Per touched flight, the players whose own pages changed (None: every entrant's), for the live pushes.
        self.players: dict[int, set[int] | None] = {}

    def touch(self, flight: Flight, *entries: Entry | None) -> None:
        """This change moves these entries' players in `flight` (their next match, their place)."""
        self.touched.setdefault(flight.pk, flight)
        players = self.players.setdefault(flight.pk, set())
        if players is not None:
            players.update(e.player_id for e in entries if e is not None)

    def touch_all(self, flight: Flight) -> None:
        """This change concerns every entrant of `flight` (its slots made, its end)."""
        self.touched.setdefault(flight.pk, flight)
        self.players[flight.pk] = None

    def notify(self, first: Flight) -> None:
        """Tell the on_flight_results_changed callbacks about every flight this change touched, each with the
        players whose own pages changed (`hooks.changed_players`)."""
        for flight in [first, *(f for f in self.touched.values() if f.pk != first.pk)]:
            hooks.notify_flight(flight, self.players.get(flight.pk))

    # --- shape -----------------------------------------------------------------------------------------------

    def layout(self, flight: Flight) -> Layout:
        if flight.pk not in self._layouts:
            self._layouts[flight.pk] = Layout.for_flight(
                size=flight.size,
                double=flight.kind == FlightKind.DOUBLE_ELIMINATION,
                feed_rule=flight.feed_rule,
                feed_rounds=flight.feed_rounds,
                reset=flight.grand_final_reset,
                third_place=flight.third_place,
                playoff_second=flight.playoff_second,
            )
        return self._layouts[flight.pk]

    def fed_flight(self, flight: Flight) -> Flight | None:
        if flight.pk not in self._fed:
            # The flights a flight feeds are in its event, so the model's default order (the event's date and
            # name first, which joins the event to sort on) comes down to theirs.
            self._fed[flight.pk] = _FED_FLIGHT.first(flight.pk)
        return self._fed[flight.pk]

    def playoff_main(self, flight: Flight) -> Flight | None:
        """The main flight whose playoff for 2nd this flight's winner plays (None: it feeds no playoff): the
        consolation a knockout main with `playoff_second` feeds."""
        if flight.kind != FlightKind.CONSOLATION or flight.source_id is None:
            return None
        if flight.source_id not in self._playoff:
            source = Flight.objects.filter(pk=flight.source_id, playoff_second=True).select_related("event").first()
            fed = self.fed_flight(source) if source is not None else None
            self._playoff[flight.source_id] = source if fed is not None and fed.pk == flight.pk else None
        return self._playoff[flight.source_id]

    def _is_final(self, flight: Flight, slot: Slot) -> bool:
        return Key(slot.section, slot.round, slot.position) == self.layout(flight).terminal_keys()[0]

    def _fill_playoff(self, consolation: Flight) -> None:
        """The consolation is over: its winner (their entry in the main flight) takes side 1 of the main's
        playoff for 2nd; with no winner (nobody reached or played its final, or it got no players) the side is
        empty and the main's finalist takes 2nd without a match."""
        main = self.playoff_main(consolation)
        if main is None:
            return
        slot = Slot.objects.filter(flight=main, section=PLAYOFF.key.section).only("entry_b", "b_empty").first()
        if slot is None or slot.entry_b_id is not None or slot.b_empty:
            return
        winner = consolation.entries.filter(place=1).only("player_id").first()
        entry = None
        if winner is not None:
            entry = main.entries.filter(player_id=winner.player_id).order_by("-reentry_number", "-pk").first()
        self.set_side(main, PLAYOFF, entry)

    def feed(self, flight: Flight) -> consequences.Feed | None:
        fed = self.fed_flight(flight)
        if fed is None or (fed.size is None and fed.feed_rule != FeedRule.FRESH_DRAW):
            return None
        layout = None if fed.feed_rule == FeedRule.FRESH_DRAW or fed.size is None else self.layout(fed)
        return consequences.Feed(fed.feed_rule, layout, fed.feed_rounds)

    def create_slots(self, flight: Flight, layout: Layout) -> None:
        self.touch_all(flight)
        Slot.objects.bulk_create(
            Slot(flight=flight, section=k.section, round=k.round, position=k.position) for k in layout.slot_keys()
        )

    def _slot(self, flight: Flight, key: Key) -> Slot:
        # Race: two results filling the two sides of this slot at once would each write their side over a row
        # read before the other's write (one winner lost, or two matches created). The row lock serialises
        # them; the entries are read after it (a join in the locking query can come back empty on PostgreSQL
        # when the row changed while we waited).
        at = lock(Slot.objects).filter(flight_id=flight.pk, section=key.section, round=key.round, position=key.position)
        slot = next(iter(at.order_by()[:1]), None)  # unsorted: the default order joins the flight and its event
        if slot is None:
            raise Slot.DoesNotExist(f"No slot {key} in flight {flight.pk}.")
        ids = [i for i in (slot.entry_a_id, slot.entry_b_id) if i is not None]
        entries = {e.pk: e for e in _ENTRIES_WITH_PLAYERS.all(*ids)} if ids else {}
        slot.entry_a = entries.get(slot.entry_a_id)
        slot.entry_b = entries.get(slot.entry_b_id)
        return slot

    # --- moving players --------------------------------------------------------------------------------------

    def set_side(self, flight: Flight, target: Target, entry: Entry | None) -> None:
        slot = self._slot(flight, target.key)
        self.touch(flight, entry, slot.entry_a, slot.entry_b)  # the one who moves in and who waits there
        slot.flight = flight
        taken = (
            (slot.entry_a_id is not None or slot.a_empty)
            if target.side == 0
            else (slot.entry_b_id is not None or slot.b_empty)
        )
        if taken:
            raise Conflict(_("The bracket moved on at the same time; reload and try again."), code="concurrent_change")
        if target.side == 0:
            slot.entry_a, slot.a_empty = entry, entry is None
        else:
            slot.entry_b, slot.b_empty = entry, entry is None
        state, side = consequences.resolve(self._side(slot, 0), self._side(slot, 1))
        if state == "ready":
            a, b = slot.entry_a, slot.entry_b
            if a.status == EntryStatus.WITHDRAWN or b.status == EntryStatus.WITHDRAWN:
                slot.save(update_fields=["entry_a", "entry_b", "a_empty", "b_empty"])
                self._withdrawn_meet(slot)
                return
            slot.result = SlotResult.READY
            if flight.team_kind == TeamKind.TEAM:
                slot.save(update_fields=["entry_a", "entry_b", "a_empty", "b_empty", "result"])
                for match in self.create_boards(flight, slot):
                    hooks.match_called(match, None)
                return
            slot.match = self._create_match(flight, slot)
            slot.save(update_fields=["entry_a", "entry_b", "a_empty", "b_empty", "result", "match"])
            hooks.match_called(slot.match, None)
            return
        slot.save(update_fields=["entry_a", "entry_b", "a_empty", "b_empty"])
        if state == consequences.BYE:
            winner = slot.entry_a if side == 0 else slot.entry_b
            if winner.status == EntryStatus.WITHDRAWN:  # nobody to give the bye to: the place stays empty
                self.decide(slot, consequences.DOUBLE_FORFEIT, None, (winner,))
                return
            if Layout.counts_as_bye(target.key):
                winner.had_bye = True
                winner.save(update_fields=["had_bye"])
            self.decide(slot, consequences.BYE, winner, ())
        elif state == consequences.EMPTY:
            self.decide(slot, consequences.EMPTY, None, ())

    @staticmethod
    def _side(slot: Slot, side: int):
        entry_id, empty = (slot.entry_a_id, slot.a_empty) if side == 0 else (slot.entry_b_id, slot.b_empty)
        if empty:
            return consequences.EMPTY_SIDE
        return consequences.PENDING_SIDE if entry_id is None else entry_id

    def _withdrawn_meet(self, slot: Slot) -> None:
        a, b = slot.entry_a, slot.entry_b
        if a.status == EntryStatus.WITHDRAWN and b.status == EntryStatus.WITHDRAWN:
            self.decide(slot, consequences.DOUBLE_FORFEIT, None, (a, b))
        elif a.status == EntryStatus.WITHDRAWN:
            self.decide(slot, consequences.WALKOVER, b, (a,))
        else:
            self.decide(slot, consequences.WALKOVER, a, (b,))

    def create_boards(self, flight: Flight, slot: Slot) -> list[Match]:
        """A team match: one singles match per board, board k between the k-th players of the two lineups
        (tournaments.core.teams.lineup), each a TeamBoard of the slot. The slot itself has no match."""
        lineups: dict[int, list[int]] = {slot.entry_a_id: [], slot.entry_b_id: []}
        members = EntryMember.objects.filter(entry_id__in=list(lineups)).order_by("order")
        for entry_id, player_id in members.values_list("entry_id", "player_id"):
            lineups[entry_id].append(player_id)
        boards = teams.lineup(lineups[slot.entry_a_id], lineups[slot.entry_b_id])
        matches = Match.objects.bulk_create(
            self._create_match(flight, slot, players=(a, b), save=False) for _board, a, b in boards
        )
        TeamBoard.objects.bulk_create(
            TeamBoard(flight=flight, slot=slot, board=board, match=match)
            for (board, _a, _b), match in zip(boards, matches, strict=True)
        )
        return matches

    def _create_match(self, flight: Flight, slot: Slot, *, players=None, save: bool = True) -> Match:
        key = Key(slot.section, slot.round, slot.position)
        layout = self.layout(flight)
        player_a_id, player_b_id = players or (slot.entry_a.player_id, slot.entry_b.player_id)
        match = Match(
            player_a_id=player_a_id,
            player_b_id=player_b_id,
            length=flight.length_for(layout.length_round(key), is_final=layout.is_final(key)),
            context=MatchContext.TOURNAMENT,
            **flight.game_form,  # the one place a bracket match takes the flight's variant, stakes and settings
            club_id=self.event.club_id,
            is_public=self.event.is_public,
            created_by=self.actor if getattr(self.actor, "is_authenticated", False) else None,
        )
        sides = (slot.entry_a, slot.entry_b)
        if players is None and all(Entry.player.is_cached(e) for e in sides):
            # The match carries its players' rows on (the ready notification names them without a query).
            match.player_a, match.player_b = (e.player for e in sides)
        if save:
            match.save()
        return match

    @staticmethod
    def _facts(entry: Entry, slot: Slot) -> consequences.EntryFacts:
        has_played = entry.first_played_slot_id is not None and entry.first_played_slot_id != slot.pk
        return consequences.EntryFacts(entry.pk, entry.draw_position, has_played)

    def _actions(self, slot: Slot, result: str, winner: Entry | None, losers) -> list:
        winner_side = None if winner is None else (0 if winner.pk == slot.entry_a_id else 1)
        return consequences.consequences(
            winner_side=winner_side,
            layout=self.layout(slot.flight),
            key=Key(slot.section, slot.round, slot.position),
            result=result,
            winner=None if winner is None else self._facts(winner, slot),
            losers=tuple(self._facts(e, slot) for e in losers),
            feed=self.feed(slot.flight),
        )

    def decide(self, slot: Slot, result: str, winner: Entry | None, losers: tuple[Entry, ...]) -> None:
        flight = slot.flight
        self.touch(flight, slot.entry_a, slot.entry_b, winner, *losers)
        slot.result = SLOT_RESULT[result]
        slot.winner = winner
        slot.loser = losers[0] if len(losers) == 1 else None
        slot.decided_at = timezone.now()
        slot.save(update_fields=["result", "winner", "loser", "decided_at"])
        entries = {e.pk: e for e in (winner, *losers) if e is not None}
        actions = self._actions(slot, result, winner, losers)
        # The first played matches (the first actions) in one query, not one per player.
        first = [a.entry for a in actions if isinstance(a, consequences.FirstPlayed)]
        if first:
            Entry.objects.filter(pk__in=first).update(first_played_slot=slot)
            for pk in first:
                entries[pk].first_played_slot_id = slot.pk  # the winner object moves on with it
        for action in actions:
            if not isinstance(action, consequences.FirstPlayed):
                self._apply(flight, slot, entries, action)
        key = Key(slot.section, slot.round, slot.position)
        if self.layout(flight).is_terminal(key) and self._terminals_decided(flight, key):
            # The final is decided (by the last action: a loss there may still feed another flight first);
            # a final nobody reached (everyone withdrew) still ends the flight. With a third-place match
            # the flight ends when both are decided.
            self._finish(flight)

    def _terminals_decided(self, flight: Flight, key: Key) -> bool:
        others = [k for k in self.layout(flight).terminal_keys() if k != key]
        if not others:
            return True
        where = Q()
        for k in others:
            where |= Q(section=k.section, round=k.round, position=k.position)
        return flight.slots.filter(where, result__in=DECIDED).count() == len(others)

    def _apply(self, flight: Flight, slot: Slot, entries: dict[int, Entry], action) -> None:
        if isinstance(action, consequences.Out):
            Entry.objects.filter(pk=action.entry).update(place=action.place, out_round=slot.round)
        elif isinstance(action, consequences.Champion):
            Entry.objects.filter(pk=action.entry).update(place=1)
            if flight.awards_entry_to_id is not None:
                self._award_entry(flight, entries[action.entry])
        elif isinstance(action, consequences.Move):
            self.set_side(flight, action.target, None if action.entry is None else entries[action.entry])
        elif isinstance(action, consequences.FeedTo):
            fed = self.fed_flight(flight)
            self.touch(fed)  # a fresh draw's pool grows without a slot
            entry = None
            if action.entry is not None:
                source = entries[action.entry]
                line = None
                if action.target is not None and action.target.key.round == 1:
                    line = action.target.key.position * 2 + action.target.side
                entry = Entry.objects.create(
                    flight=fed,
                    player_id=source.player_id,
                    draw_position=line,
                    had_bye=source.had_bye,
                    is_reentry=source.is_reentry,
                    reentry_number=source.reentry_number,
                )
                self.touch(fed, entry)
            if action.target is not None:
                self.set_side(fed, action.target, entry)

    def finish(self, flight: Flight) -> None:
        """End a flight that is not a bracket (a round-based flight after its last round) like a bracket's."""
        self._finish(flight)

    def _finish(self, flight: Flight) -> None:
        self.touch_all(flight)  # every entrant's final place is known now
        Flight.objects.filter(pk=flight.pk).update(status=FlightStatus.FINISHED)
        flight.status = FlightStatus.FINISHED
        self._fill_playoff(flight)
        fed = self.fed_flight(flight)
        if fed is not None and fed.feed_rule == FeedRule.FRESH_DRAW and fed.draw_status == DrawStatus.NONE:
            # Its pool is complete now; with fewer than two players there is nothing to draw: the one player
            # (if any) wins it, and the flight does not hold the event open.
            pool = list(fed.entries.exclude(status=EntryStatus.WITHDRAWN))
            if len(pool) < 2:
                Entry.objects.filter(pk__in=[e.pk for e in pool]).update(place=1)
                self.finish_unfed(fed)
        if flight.kind == FlightKind.JACKPOT:
            return  # a pod ends itself only: the jackpot keeps filling pods while the event runs
        unfinished = (
            self.event.flights.filter(kind__in=BRACKET_KINDS)
            .exclude(pk=flight.pk)
            .exclude(status=FlightStatus.FINISHED)
            .exists()
        )
        if not unfinished:
            # A finished event takes no more entries: registration closes with it.
            Event.objects.filter(pk=self.event.pk).update(status=EventStatus.FINISHED, registration_open=False)
            self.event.status, self.event.registration_open = EventStatus.FINISHED, False

    def _award_entry(self, flight: Flight, winner: Entry) -> None:
        """A satellite's winner gets a free entry to the flight it awards (recorded as a satellite entry), while
        that flight is not drawn yet and the player is not in it already; after its draw the director enters
        the player as a late entry."""
        target = Flight.objects.filter(pk=flight.awards_entry_to_id, draw_status=DrawStatus.NONE).first()
        if target is None or target.entries.filter(player_id=winner.player_id).exists():
            return
        Entry.objects.create(flight=target, player_id=winner.player_id, fee=0, is_satellite=True)
        self.touch(target, winner)

    @staticmethod
    def _take_back_award(flight: Flight, winner: Entry | None) -> None:
        """The satellite's result changed: the entry it awarded goes too, while its flight is not drawn."""
        if winner is not None:
            Entry.objects.filter(
                flight_id=flight.awards_entry_to_id,
                flight__draw_status=DrawStatus.NONE,
                player_id=winner.player_id,
                is_satellite=True,
            ).delete()

    def finish_unfed(self, flight: Flight) -> None:
        """A flight that gets no bracket (one round-1 match cannot feed one, a fresh draw of fewer than two)
        finishes, and so does every flight it would feed: left open, they would hold the event open for ever."""
        empty: Flight | None = flight
        while empty is not None:
            Flight.objects.filter(pk=empty.pk).update(status=FlightStatus.FINISHED)
            empty.status = FlightStatus.FINISHED
            self.touch_all(empty)
            self._fill_playoff(empty)
            empty = self.fed_flight(empty)

    # --- undoing ---------------------------------------------------------------------------------------------

    def targets(self, slot: Slot) -> list[tuple[Flight, Target]]:
        """The slots a decided slot moved players to (same flight and the fed one)."""
        winner = slot.winner
        losers = (slot.loser,) if slot.loser_id else ()
        if slot.result == SlotResult.DOUBLE_FORFEIT:
            losers = tuple(e for e in (slot.entry_a, slot.entry_b) if e is not None)
        out = []
        for action in self._actions(slot, CORE_RESULT[slot.result], winner, losers):
            if isinstance(action, consequences.Move):
                out.append((slot.flight, action.target))
            elif isinstance(action, consequences.FeedTo) and action.target is not None:
                out.append((self.fed_flight(slot.flight), action.target))
        main = self.playoff_main(slot.flight)
        if main is not None and self._is_final(slot.flight, slot):
            out.append((main, PLAYOFF))  # the consolation's final decides who plays the playoff for 2nd
        return out

    def cascade(self, slot: Slot, *, include_self: bool = True, started_only: bool = False) -> list[Step]:
        """Every later slot whose match would be voided if `slot`'s result changed, in bracket order."""
        steps: list[Step] = []
        seen: set[int] = set()

        def visit(current: Slot, own: bool):
            if current.pk in seen:
                return
            seen.add(current.pk)
            if own:
                matches = [current.match] if current.match_id is not None else []
                if current.flight.team_kind == TeamKind.TEAM:  # a team match has started when a board has
                    matches += [b.match for b in TeamBoard.objects.filter(slot=current).select_related("match")]
                if matches:
                    started = any(m.status != MatchStatus.SCHEDULED or m.started_at is not None for m in matches)
                    steps.append(Step(current, started))
            if current.result in DECIDED:
                for flight, target in self.targets(current):
                    nxt = (
                        Slot.objects.select_related("flight", "match", "entry_a", "entry_b", "winner", "loser")
                        .filter(flight=flight, section=target.key.section, round=target.key.round)
                        .get(position=target.key.position)
                    )
                    visit(nxt, True)

        visit(slot, include_self)
        if started_only:
            return [s for s in steps if s.started]
        return steps

    def undo(self, slot: Slot, *, actor, voided: list | None = None) -> None:
        """Take back what a decided slot did: later slots it filled are emptied again (their results undone
        first, their matches voided), fed entries removed, places cleared."""
        if slot.result not in DECIDED:
            return
        flight = slot.flight
        self.touch(flight, slot.entry_a, slot.entry_b, slot.winner, slot.loser)
        winner = slot.winner
        losers = (slot.loser,) if slot.loser_id else ()
        if slot.result == SlotResult.DOUBLE_FORFEIT:
            losers = tuple(e for e in (slot.entry_a, slot.entry_b) if e is not None)
        for action in self._actions(slot, CORE_RESULT[slot.result], winner, losers):
            if isinstance(action, (consequences.Move, consequences.FeedTo)):
                target_flight = flight if isinstance(action, consequences.Move) else self.fed_flight(flight)
                if action.target is None:
                    Entry.objects.filter(flight=target_flight, player_id=self._player(losers, action.entry)).filter(
                        first_played_slot__isnull=True
                    ).delete()
                    continue
                self._clear(target_flight, action.target, actor=actor, voided=voided)
                if isinstance(action, consequences.FeedTo) and action.entry is not None:
                    Entry.objects.filter(
                        flight=target_flight, player_id=self._player(losers, action.entry), place__isnull=True
                    ).delete()
            elif isinstance(action, consequences.FirstPlayed):
                Entry.objects.filter(pk=action.entry, first_played_slot=slot).update(first_played_slot=None)
            elif isinstance(action, (consequences.Out, consequences.Champion)):
                Entry.objects.filter(pk=action.entry).update(place=None, out_round=None)
                if isinstance(action, consequences.Champion) and flight.awards_entry_to_id is not None:
                    self._take_back_award(flight, winner)
                if isinstance(action, consequences.Champion):
                    # Kept in step in memory too: the hooks told of this change get these objects.
                    Flight.objects.filter(pk=flight.pk).update(status=FlightStatus.RUNNING)
                    Event.objects.filter(pk=self.event.pk).update(status=EventStatus.RUNNING)
                    flight.status, self.event.status = FlightStatus.RUNNING, EventStatus.RUNNING
        main = self.playoff_main(flight)
        if main is not None and self._is_final(flight, slot):
            # The consolation's final changed: its winner's place in the playoff for 2nd is open again (the
            # playoff's result, if any, is undone and its match voided first, as for any later match).
            self._clear(main, PLAYOFF, actor=actor, voided=voided)
        if slot.result == SlotResult.BYE and winner is not None and Layout.counts_as_bye(Key(slot.section, 0, 0)):
            Entry.objects.filter(pk=winner.pk).update(had_bye=False)
        if self.layout(flight).is_terminal(Key(slot.section, slot.round, slot.position)):
            # A terminal slot taken back (a third-place match, a second grand final not needed) reopens it.
            Flight.objects.filter(pk=flight.pk).update(status=FlightStatus.RUNNING)
            flight.status = FlightStatus.RUNNING
        boards = flight.team_kind == TeamKind.TEAM and TeamBoard.objects.filter(slot=slot).exists()
        slot.result = SlotResult.READY if slot.match_id or boards else SlotResult.PENDING
        slot.winner = slot.loser = None
        slot.decided_at = None
        slot.save(update_fields=["result", "winner", "loser", "decided_at"])

    @staticmethod
    def _player(entries, entry_id):
        return next(e.player_id for e in entries if e is not None and e.pk == entry_id)

    def _clear(self, flight: Flight, target: Target, *, actor, voided) -> None:
        slot = self._slot(flight, target.key)
        slot.flight = flight
        self.touch(flight, slot.entry_a, slot.entry_b)  # both lose the match they were waiting for
        if slot.result in DECIDED:
            self.undo(slot, actor=actor, voided=voided)
            slot.refresh_from_db()
        matches = []
        if slot.match_id is not None:
            matches.append(slot.match)
            slot.match = None
            slot.save(update_fields=["match"])
        if flight.team_kind == TeamKind.TEAM:
            boards = list(TeamBoard.objects.filter(slot=slot).select_related("match").order_by("board"))
            TeamBoard.objects.filter(pk__in=[b.pk for b in boards]).delete()  # their voiding moves no team match
            matches += [b.match for b in boards]
        for match in matches:
            if voided is not None:
                voided.append({"slot": str(slot), "match": match.pk})
            if match.status != MatchStatus.ABANDONED:
                match_services.record_consequence(
                    actor=actor,
                    match=match,
                    origin=ReportOrigin.BRACKET,
                    outcome=MatchOutcome.ANNULLED,
                    comment=_("Voided: an earlier result in the bracket changed."),
                )
        if target.side == 0:
            slot.entry_a, slot.a_empty = None, False
        else:
            slot.entry_b, slot.b_empty = None, False
        slot.result = SlotResult.PENDING
        slot.save(update_fields=["entry_a", "entry_b", "a_empty", "b_empty", "result"])


# The flight this flight feeds, side pools aside, first in the event's order of flights.
_FED_FLIGHT = CompiledRead(
    lambda flight_id: (
        Flight.objects.filter(source_id=flight_id)
        .exclude(kind=FlightKind.SIDE_POOL)
        .select_related("event")
        .order_by("order", "pk")[:1]
    )
)
# A slot's entries by id, unsorted (the model's default order, flight then its event, joins both tables to sort on).
_ENTRIES_WITH_PLAYERS = CompiledRead(lambda *ids: Entry.objects.filter(pk__in=ids).select_related("player").order_by())
# The confirmation's slot lock with its flight, event, club and both entries' players: compiled once per process
# (base.compiled), as building its joins cost more of a confirmation's CPU than any other statement.
_LOCKED_SLOT_OF_MATCH = CompiledRead(
    lambda match_id: (
        lock(Slot.objects, of=("self",))
        .select_related("flight__event__club", "entry_a__player", "entry_b__player")
        .filter(match_id=match_id)
        .order_by("pk")[:1]
    )
)


def result_confirmed(match, report) -> bool:
    """games hook: a confirmed, corrected, overridden or annulled result moves the bracket. Runs inside the
    confirmation's transaction; raising aborts the confirmation. False when the match is a tournament match
    without a bracket slot (a round's table: tournaments.receivers then hands it to the rounds)."""
    if match.context != MatchContext.TOURNAMENT:
        return True
    # Race: two confirmations of this match, or of the two matches feeding one later slot, must move each
    # winner once; the slot rows are locked in bracket order (this one, then the ones it fills).
    # A match has one slot, so the order is the key's (the model's default joins the flight and the event to sort
    # on, and building that cost a confirmation more CPU than any other statement). The winner and the loser
    # are read only by a correction, which loads them when it needs them.
    slot = _LOCKED_SLOT_OF_MATCH.first(match.pk)
    if slot is None:
        return False
    flight = slot.flight
    store = BracketStore(flight.event, actor=report.confirmed_by or report.submitted_by)
    if report.outcome == MatchOutcome.ANNULLED:
        if slot.result in DECIDED:
            correct(store, slot, report)
        slot.refresh_from_db()
        slot.flight = flight
        slot.match = None
        slot.result = SlotResult.PENDING
        slot.save(update_fields=["match", "result"])
        slot.entry_a.refresh_from_db()
        slot.entry_b.refresh_from_db()
        slot.match = store._create_match(flight, slot)  # the pair plays again
        slot.result = SlotResult.READY
        slot.save(update_fields=["match", "result"])
        store.notify(flight)
        return True
    result = OUTCOME_RESULT[report.outcome]
    if result == consequences.DOUBLE_FORFEIT:
        winner, losers = None, (slot.entry_a, slot.entry_b)
    else:
        winner, loser = (
            (slot.entry_a, slot.entry_b)
            if match.winner_id == slot.entry_a.player_id
            else (
                slot.entry_b,
                slot.entry_a,
            )
        )
        losers = (loser,)
    if slot.result in DECIDED:
        if slot.winner_id == (winner.pk if winner else None) and slot.result == SLOT_RESULT[result]:
            # the score changed, the bracket did not
            hooks.notify_flight(flight, [slot.entry_a.player_id, slot.entry_b.player_id])
            return True
        correct(store, slot, report)
        for entry in (slot.entry_a, slot.entry_b):
            entry.refresh_from_db()
    store.decide(slot, result, winner, losers)
    store.notify(flight)
    return True


def correct(store: BracketStore, slot: Slot, report) -> None:
    """Re-route before later matches have started; afterwards only through override_result or a rule acting on
    someone's behalf (the report's origin says which: a result typed on the match itself is MANUAL)."""
    steps = store.cascade(slot, include_self=False)
    if any(step.started for step in steps) and report.origin == ReportOrigin.MANUAL:
        raise Conflict(
            _(
                "A later match in the bracket has started: a director overrides this result from the event's "
                "dashboard, which shows the matches that will be voided."
            ),
            code="later_match_started",
        )
    voided: list = []
    store.undo(slot, actor=store.actor, voided=voided)
    BracketChange.objects.create(
        flight=slot.flight,
        slot=slot,
        actor=store.actor if getattr(store.actor, "pk", None) else None,
        kind="reroute",
        voided=voided,
    )
