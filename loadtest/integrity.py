"""Read what a run left in the database and hand it to the pure checkers in `loadtest.core`: the Calcutta's bids
against a replay of its auction, the chouette ledger against a replay of the table's events, the brackets, the
overridden results and the uploaded records' verdicts."""

from __future__ import annotations

from collections import defaultdict

from calcutta.models import Bid, Calcutta
from calcutta.services.state import load
from chouette import entries
from chouette.core import session as chouette_core
from chouette.models import ChouetteSession, SessionEvent
from chouette.services.common import session_rules
from games.models import GameRecord, Match
from games.models.records import RecordStatus
from loadtest import core
from tournaments.models import Slot


def calcutta(calcutta_id: int, *, accepted: int) -> list[str]:
    auction_row = Calcutta.objects.get(pk=calcutta_id)
    rows = [
        core.BidRow(step=b["step"], lot=b["lot__number"], bidder=b["bidder_id"], amount=b["amount"])
        for b in Bid.objects.filter(calcutta_id=calcutta_id).values("step", "lot__number", "bidder_id", "amount")
    ]
    state = load(auction_row)  # the auction replayed from its stored steps, as every bid does under the lock
    high = {}
    for lot in {row.lot for row in rows}:
        bid = state.auction.high_bid(lot)
        high[lot] = None if bid is None else (bid.bidder, bid.amount)
    return core.check_auction(rows, high=high, accepted=accepted)


def chouette(session_id: int, *, accepted: int) -> list[str]:
    session = ChouetteSession.objects.get(pk=session_id)
    games: dict[int, dict[int, int]] = defaultdict(dict)
    for line in session.ledger.values("game_number", "player_id", "cents"):
        games[line["game_number"]][line["player_id"]] = line["cents"]
    state = chouette_core.SessionState()
    stakes = dict(session.seats.values_list("player_id", "stake_cents"))
    rules = session_rules(session)
    for event in session.events.filter(is_current=True).order_by("seq"):
        chouette_core.apply(state, entries.core_event(event), rules=rules, stakes=stakes)
    replayed = {game.number: dict(game.money) for game in state.games}
    return core.check_ledger(games, accepted=accepted, replayed=replayed)


def _slots(flight_id: int) -> list[core.SlotRow]:
    fields = ("round", "position", "entry_a_id", "entry_b_id", "winner_id", "match_id")
    return [core.SlotRow(*row) for row in Slot.objects.filter(flight_id=flight_id, section="w").values_list(*fields)]


def bracket(flight_id: int, *, confirmed: list[int]) -> list[str]:
    """The flight's bracket; `confirmed` may name matches of other flights too (one queue serves several)."""
    slots = _slots(flight_id)
    mine = set(Match.objects.filter(tournament_slot__flight_id=flight_id).values_list("pk", flat=True))
    return core.check_bracket(slots, confirmed=[m for m in confirmed if m in mine])


def override(flight_id: int) -> list[str]:
    """The first match of the flight was overridden by two directors at once, again and again."""
    slots = {(s.round, s.position): s for s in _slots(flight_id)}
    first, later = slots[(1, 0)], slots[(2, 0)]
    candidates = [e for e in (first.entry_a, first.entry_b) if e is not None]
    return core.check_override(first.winner, candidates, later.entry_a) + core.check_bracket(slots.values())


def verdicts(record_ids: list[int], *, uploaded: int) -> list[str]:
    statuses = dict(GameRecord.objects.filter(pk__in=record_ids).values_list("pk", "status"))
    return core.check_verdicts(statuses, uploaded=uploaded, finished=RecordStatus.finished())


def records_waiting(record_ids: list[int]) -> int:
    return GameRecord.objects.filter(pk__in=record_ids).exclude(status__in=RecordStatus.finished()).count()


def idempotency_keys(calcutta_id: int, chouette_id: int) -> tuple[set[str], set[str]]:
    """The idempotency keys of the bids and chouette games stored: what a node that died may not have lost."""
    bids = set(
        Bid.objects.filter(calcutta_id=calcutta_id)
        .exclude(idempotency_key="")
        .values_list("idempotency_key", flat=True)
    )
    games = SessionEvent.objects.filter(session_id=chouette_id).exclude(idempotency_key="")
    return bids, set(games.values_list("idempotency_key", flat=True))
