"""Prize money: a club's own payout tables, which table and house take a flight uses, and the prizes handed over."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from base import numbers, settle_up
from base.errors import Conflict, Invalid, NotAllowed, NotFound
from clubs import access
from clubs.models import Club
from tournaments.core import payout_tables
from tournaments.models import ClubPayoutTable, Flight, PrizePayment
from tournaments.selectors.money import prize_list
from tournaments.services.common import lock_flight

MAX_TABLE_NAME = 80


def _amount(value, field: str):
    """A money amount typed by a director (cents parsed first, refused with the field named)."""
    try:
        cents = numbers.parse_money(value)
    except numbers.NumberError as error:
        raise Invalid(error.message, field=field) from None
    return numbers.format_cents(cents)


@transaction.atomic
def create_payout_table(*, actor, club: Club, name: str, bands) -> ClubPayoutTable:
    """A club's own banded table; refused whole (nothing written) when a band is wrong, saying what would work."""
    access.require(actor, "payout_table.manage", club)
    name = (name or "").strip()
    if not name or len(name) > MAX_TABLE_NAME:
        raise Invalid(_("Give the table a name of 1 to 80 characters."), field="name")
    table = payout_tables.parse_bands(bands)
    if ClubPayoutTable.objects.filter(club=club, name=name).exists():
        raise Invalid(_("The club has a table of this name already: choose another name."), field="name")
    return ClubPayoutTable.objects.create(club=club, name=name, bands=table.as_data(), created_by=actor)


@transaction.atomic
def set_flight_payouts(
    *, actor, flight: Flight, table: str = "", house_percent=None, house_fixed="0", added_money="0"
) -> Flight:
    """Which table shares the flight's pool ("" for none, a preset's key, or "club-<id>" for one of the club's
    own), the house's take (a percentage, empty for the event's, and a fixed amount per entry) and added money."""
    access.require(actor, "event.direct", flight.event)
    table = (table or "").strip()
    own = None
    if table.startswith("club-"):
        table_id = numbers.parse_id(table.removeprefix("club-"))
        own = ClubPayoutTable.objects.filter(pk=table_id, club_id=flight.event.club_id).first() if table_id else None
        if own is None:
            raise NotFound(_("The club has no such payout table."), field="table")
        table = ""
    elif table:
        payout_tables.preset(table)  # refuses an unknown key, naming the known ones
    if house_percent not in (None, ""):
        try:
            house_percent = numbers.parse_decimal(
                str(house_percent).replace(",", "."), max_digits=5, decimal_places=2, min_value=0, max_value=100
            )
        except numbers.NumberError:
            raise Invalid(_("The house percentage is between 0 and 100."), field="house_percent") from None
    else:
        house_percent = None
    fixed = _amount(house_fixed, "house_fixed")
    added = _amount(added_money, "added_money")
    flight = lock_flight(flight)
    flight.payout_table = table
    flight.club_payout_table = own
    flight.house_percent = house_percent
    flight.house_fixed = fixed
    flight.added_money = added
    flight.save(update_fields=["payout_table", "club_payout_table", "house_percent", "house_fixed", "added_money"])
    return flight


def _prize_of(flight: Flight, player_id: int):
    """(place, cents) the player wins in this flight by the table now; refused when they win nothing (yet)."""
    prizes = next((p for p in prize_list(event=flight.event) if p.flight.pk == flight.pk), None)
    if prizes is not None and prizes.table is not None:
        for award in prizes.table.awards:
            for winner in award.winners:
                if winner.player_id == player_id and winner.amount > 0:
                    return award.place, winner.amount
    raise Conflict(_("This player has won no prize in this flight (yet)."), code="no_prize")


@transaction.atomic
def record_prize_paid(*, actor, flight: Flight, player_id: int) -> PrizePayment:
    """The club (a director) marks the player's prize in this flight paid, with the amount the table gives them
    now. Once per player and flight: a second recording (two directors at once) is refused, the first stands."""
    access.require(actor, "event.direct", flight.event)
    flight = lock_flight(flight)
    if PrizePayment.objects.filter(flight=flight, player_id=player_id).exists():
        raise Conflict(_("This prize is recorded as paid already."), code="prize_already_paid")
    place, cents = _prize_of(flight, player_id)
    row = PrizePayment(flight=flight, player_id=player_id, place=place, amount_cents=cents)
    try:
        with transaction.atomic():
            return settle_up.mark_paid(row, actor=actor)  # the shared step: paid now, by the director
    except IntegrityError:
        raise Conflict(_("This prize is recorded as paid already."), code="prize_already_paid") from None


@transaction.atomic
def confirm_prize_received(*, actor, flight: Flight, player_id: int) -> PrizePayment:
    """The winner (or a director for them) confirms the prize arrived; once. A prize nobody marked paid yet is
    recorded paid and received at once (handed over in cash at the desk, say)."""
    own = access.player_of(actor)
    if (own is None or own.pk != player_id) and not access.can(actor, "event.direct", flight.event):
        raise NotAllowed(_("Only the winner or a director of the event confirms a prize received."))
    flight = lock_flight(flight)
    row = PrizePayment.objects.filter(flight=flight, player_id=player_id).first()
    if row is None:
        place, cents = _prize_of(flight, player_id)
        row = PrizePayment(flight=flight, player_id=player_id, place=place, amount_cents=cents)
    return settle_up.confirm_received(row, actor=actor)
