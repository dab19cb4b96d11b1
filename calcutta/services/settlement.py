"""Settlement from the bracket as it stands, again whenever a result of the event changes."""

from __future__ import annotations

import logging
from collections.abc import Mapping

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from base.compiled import CompiledRead
from base.errors import Conflict, Invalid
from calcutta import core
from calcutta.models import Calcutta, CalcuttaStatus, Lot, OwnerLine, Payout, Settlement
from calcutta.services.common import lock, refusal_message
from calcutta.services.settling import sync_transfers
from calcutta.services.state import State, load, replay_ownership
from clubs import access
from tournaments import selectors as tournament_selectors
from tournaments.models import FeedRule, FlightStatus, SlotResult

logger = logging.getLogger(__name__)


def _results(calcutta: Calcutta, entrants: set[int]) -> core.Results:
    """Main-flight places (entries still alive have none) and, when the table pays one, the consolation winner.

    A flight played in rounds is settled by its final places the same way: the standings' rank (a groups
    flight: the rank in the group), and for a flight with a cut the cut's knockout for the players who reached
    it (`flight_placements`); until those are known the places have a gap at the top and the Calcutta waits."""
    placements = tournament_selectors.flight_placements(flight=calcutta.flight)
    places = {p.entry_id: p.place for p in placements if p.place is not None and p.entry_id in entrants}
    winner = None
    if calcutta.consolation_percent > 0:
        entry_of_player = {p.player_id: p.entry_id for p in placements}
        for flight in calcutta.flight.event.flights.filter(kind="consolation").order_by("pk"):
            for placement in tournament_selectors.flight_placements(flight=flight):
                if placement.place == 1 and placement.player_id in entry_of_player:
                    winner = entry_of_player[placement.player_id]
    return core.Results(places=places, consolation_winner=winner)


def _update_finishes(state: State, places: Mapping[int, int]) -> None:
    changed = []
    for lot in state.lots.values():
        entrants = state.auction.lot(lot.core_id).entrants
        known = [places[e] for e in entrants if e in places]
        finish = min(known) if known else None
        if lot.finish != finish:
            lot.finish = finish
            changed.append(lot)
    if changed:
        Lot.objects.bulk_update(changed, ["finish"])


def _same(current: Settlement | None, outcome: core.Settlement, places: Mapping) -> bool:
    if current is None:
        return False
    stored = {(p.lot.core_id, p.bidder_id): p.amount for p in current.payouts.select_related("lot")}
    return (
        current.pool == outcome.pool
        and current.house_take == outcome.house_take
        and current.unclaimed == outcome.unclaimed
        and stored == {key: amount for key, amount in outcome.payouts.items() if amount}
        and current.places == {str(k): v for k, v in places.items()}
    )


def resettle(*, actor, calcutta: Calcutta) -> Settlement | None:
    """A director settles again from the bracket now (the settlement page's button and the API's settle)."""
    access.require(actor, "calcutta.direct", calcutta)
    return settle_calcutta(calcutta=calcutta)


def _match_names(slot) -> str:
    names = [entry.player.name if entry is not None else "…" for entry in (slot.entry_a, slot.entry_b)]
    return " – ".join(names)


def _unsettled_reason(calcutta: Calcutta, settings: core.CalcuttaSettings, exc: core.CalcuttaError) -> str:
    """Why the Calcutta cannot pay out yet, concretely: how many bracket matches are still to be played and which
    are ready now, or the consolation final; other refusals as the core words them."""
    if exc.code not in ("unfilled_place", "bad_places"):  # the places of a bracket still being played
        return refusal_message(exc)
    flight = calcutta.flight
    if flight.is_round_based:
        if flight.status != FlightStatus.FINISHED:
            return _("%(flight)s is in round %(round)s: the paid places are known when its last round is played.") % {
                "flight": flight.name, "round": flight.current_round,
            }  # fmt: skip
        # Finished in rounds: what is left is the knockout of its cut, which places the players who reached it.
        cut = flight.fed_flights.filter(feed_rule=FeedRule.CUT).order_by("order", "pk").first()
        if cut is not None and cut.status != FlightStatus.FINISHED:
            flight = cut
    slots = list(
        flight.slots.filter(section="w")
        .select_related("entry_a__player", "entry_b__player")
        .order_by("round", "position")
    )
    # Every open match of a knockout feeds the final, so each one stands between the Calcutta and its payout.
    open_slots = [slot for slot in slots if slot.result in (SlotResult.PENDING, SlotResult.READY)]
    if open_slots:
        ready = [_match_names(slot) for slot in open_slots if slot.result == SlotResult.READY][:4]
        message = ngettext(
            "%(flight)s has %(n)s match to play before the paid places are known",
            "%(flight)s has %(n)s matches to play before the paid places are known",
            len(open_slots),
        ) % {"flight": flight.name, "n": len(open_slots)}
        if ready:
            message += _("; ready to play: %(matches)s.") % {"matches": ", ".join(ready)}
        else:
            message += "."
        return message
    if settings.payout.consolation_winner > 0:
        return _("Waiting for the consolation final: its winner is paid %(percent)s%%.") % {
            "percent": settings.payout.consolation_winner
        }
    return refusal_message(exc)


@transaction.atomic
def settle_calcutta(*, calcutta: Calcutta) -> Settlement | None:
    """Settle (again) from the bracket as it stands. A new version replaces the current one when anything
    changed; while a paid place is still open the Calcutta stays closed and says why. Never raises for the
    bracket's sake: a result confirmation must not fail because its Calcutta cannot be settled yet."""
    calcutta = lock(calcutta)
    if calcutta.status not in (CalcuttaStatus.CLOSED, CalcuttaStatus.SETTLED):
        return None
    state = load(calcutta)
    ownership = replay_ownership(state)
    results = _results(calcutta, {entry.pk for entry in state.entries})
    _update_finishes(state, results.places)
    current = calcutta.settlements.filter(is_current=True).first()
    try:
        outcome = core.settle(settings=state.settings, ownership=ownership, results=results)
    except core.CalcuttaError as exc:
        if current is not None:
            current.is_current = False
            current.save(update_fields=["is_current"])
        calcutta.status = CalcuttaStatus.CLOSED
        calcutta.settlement_note = _unsettled_reason(calcutta, state.settings, exc)[:300]
        calcutta.save(update_fields=["status", "settlement_note", "updated_at"])
        sync_transfers(calcutta)
        return None
    if _same(current, outcome, results.places):
        return current
    if current is not None:
        current.is_current = False
        current.save(update_fields=["is_current"])
    settlement = Settlement.objects.create(
        calcutta=calcutta,
        version=(current.version + 1) if current else calcutta.settlements.count() + 1,
        pool=outcome.pool,
        house_take=outcome.house_take,
        net_pool=outcome.net_pool,
        unclaimed=outcome.unclaimed,
        places={str(entry): place for entry, place in results.places.items()},
        consolation_winner=results.consolation_winner,
        lot_prizes={str(state.lot(lot_id).number): prize for lot_id, prize in outcome.lot_prizes.items()},
    )
    OwnerLine.objects.bulk_create(
        OwnerLine(settlement=settlement, bidder_id=line.owner, paid_in=line.paid_in, won=line.won)
        for line in outcome.owners
    )
    Payout.objects.bulk_create(
        Payout(settlement=settlement, lot=state.lot(lot_id), bidder_id=owner, amount=amount)
        for (lot_id, owner), amount in outcome.payouts.items()
        if amount
    )
    calcutta.status = CalcuttaStatus.SETTLED
    calcutta.settlement_note = ""
    calcutta.save(update_fields=["status", "settlement_note", "updated_at"])
    sync_transfers(calcutta)
    return settlement


# The event's Calcuttas a result may settle again: every result in a flight asks (base.compiled).
_SETTLED_OR_CLOSED_OF_EVENT = CompiledRead(
    lambda event_id: Calcutta.objects.filter(
        flight__event_id=event_id, status__in=[CalcuttaStatus.CLOSED, CalcuttaStatus.SETTLED]
    ).order_by("pk")
)


def on_flight_results_changed(flight) -> None:
    """Registered with tournaments.hooks: a result in this flight (or in its event's consolation) changed.

    Each Calcutta settles inside its own savepoint: if its stored auction cannot be rebuilt any more, the bracket's
    change still goes through and the Calcutta says why it is not settled."""
    for calcutta in _SETTLED_OR_CLOSED_OF_EVENT.all(flight.event_id):
        try:
            with transaction.atomic():
                settle_calcutta(calcutta=calcutta)
        except (core.CalcuttaError, Invalid, Conflict) as exc:
            note = (
                exc.message if isinstance(exc, core.CalcuttaError) else " ".join(getattr(exc, "messages", [str(exc)]))
            )
            logger.warning("Calcutta %s not settled after a result changed: %s", calcutta.pk, note)
            Calcutta.objects.filter(pk=calcutta.pk).update(settlement_note=note[:300])
