"""REST endpoints of prize money: a club's own payout tables (/api/v1/payout-tables/<club>/), the table and house
take a flight uses (…/flights/<flight>/payout-table/) and a prize recorded as handed over
(…/flights/<flight>/prizes/<player>/paid/). The services check who may."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status, viewsets
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from base import fields
from base.api import validated
from base.idempotency import idempotent
from clubs import access
from clubs import selectors as club_selectors
from tournaments import selectors, services
from tournaments.api.events import flight_in

BAND_SCHEMA = {
    "type": "object",
    "properties": {
        "from": {"type": "integer", "minimum": 2, "description": "The smallest field the band pays."},
        "to": {"type": "integer", "nullable": True, "description": "The largest; null: no end."},
        "percents": {"type": "array", "minItems": 1, "items": {"type": "string"}, "description": "Per place."},
    },
    "required": ["from", "percents"],
}


@extend_schema_field({"type": "array", "minItems": 1, "items": BAND_SCHEMA})
class BandsField(serializers.JSONField):
    """A table's bands: a list of objects (the schema says their shape; the service checks that each totals 100 %,
    that none overlaps another and that they cover from 2 players up, and says what would work)."""


class PayoutTableSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    key = serializers.SerializerMethodField(help_text='What a flight names it by: "club-<id>".')
    name = serializers.CharField()
    bands = BandsField()

    def get_key(self, table) -> str:
        return f"club-{table.pk}"


class PayoutTableInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    bands = BandsField(
        help_text='[{"from": 2, "to": 8, "percents": ["65", "35"]}, …, {"from": 33, "to": null, "percents": […]}]'
    )


class FlightPayoutsInputSerializer(serializers.Serializer):
    table = serializers.CharField(
        max_length=40,
        allow_blank=True,
        help_text='A preset (winner, club, top10, top25), "club-<id>" for one of the club\'s own, or "" for none.',
    )
    house_percent = serializers.CharField(
        max_length=40, allow_blank=True, required=False, help_text="0 to 100; empty: the event's percentage."
    )
    house_fixed = serializers.CharField(max_length=40, required=False, default="0", help_text="Per entry, e.g. 2.00.")
    added_money = serializers.CharField(max_length=40, required=False, default="0", help_text="E.g. 100.00.")


class FlightPayoutsSerializer(serializers.Serializer):
    table = serializers.SerializerMethodField()
    house_percent = fields.DecimalField(max_digits=5, decimal_places=2, allow_null=True)
    house_fixed = fields.DecimalField(max_digits=9, decimal_places=2)
    added_money = fields.DecimalField(max_digits=9, decimal_places=2)

    def get_table(self, flight) -> str:
        return f"club-{flight.club_payout_table_id}" if flight.club_payout_table_id else flight.payout_table


class PrizePaidSerializer(serializers.Serializer):
    flight = serializers.CharField(source="flight.slug")
    player = serializers.IntegerField(source="player_id")
    place = serializers.IntegerField()
    amount_cents = serializers.IntegerField()
    paid_at = serializers.DateTimeField()
    confirmed_at = serializers.DateTimeField(allow_null=True)


class PayoutTableViewSet(viewsets.ViewSet):
    permission_classes = [IsAuthenticated]

    def _club(self, request, club):
        return access.club_for(request.user, club, "payout_table.manage")

    @extend_schema(responses=PayoutTableSerializer(many=True), description="The club's own payout tables.")
    def list(self, request, club):
        return Response(
            PayoutTableSerializer(selectors.club_payout_tables(club=self._club(request, club)), many=True).data
        )

    @idempotent
    @extend_schema(request=PayoutTableInputSerializer, responses={201: PayoutTableSerializer})
    def create(self, request, club):
        found = self._club(request, club)
        data = validated(PayoutTableInputSerializer, request)
        table = services.create_payout_table(actor=request.user, club=found, name=data["name"], bands=data["bands"])
        return Response(PayoutTableSerializer(table).data, status=status.HTTP_201_CREATED)


class FlightMoneyViewSet(viewsets.ViewSet):
    permission_classes = [IsAuthenticated]

    @idempotent
    @extend_schema(
        request=FlightPayoutsInputSerializer,
        responses=FlightPayoutsSerializer,
        description="The payout table that shares the flight's pool, the house's take and added money.",
    )
    def set_table(self, request, club, slug, flight):
        found = flight_in(request, club, slug, flight)
        data = validated(FlightPayoutsInputSerializer, request)
        flight_obj = services.set_flight_payouts(
            actor=request.user,
            flight=found,
            table=data["table"],
            house_percent=data.get("house_percent"),
            house_fixed=data["house_fixed"],
            added_money=data["added_money"],
        )
        return Response(FlightPayoutsSerializer(flight_obj).data)

    @idempotent
    @extend_schema(request=None, responses={201: PrizePaidSerializer}, description="Record a prize handed over.")
    def paid(self, request, club, slug, flight, player):
        found = flight_in(request, club, slug, flight)
        row = services.record_prize_paid(actor=request.user, flight=found, player_id=player)
        return Response(PrizePaidSerializer(row).data, status=status.HTTP_201_CREATED)

    @idempotent
    @extend_schema(
        request=None,
        responses=PrizePaidSerializer,
        description="The winner (or a director) confirms the prize received; not yet marked paid: paid now too.",
    )
    def received(self, request, club, slug, flight, player):
        found = flight_in(request, club, slug, flight)
        row = services.confirm_prize_received(actor=request.user, flight=found, player_id=player)
        return Response(PrizePaidSerializer(row).data)


# --- entry fees ---------------------------------------------------------------------------------------------------


def _entry(flight, pk: int):
    entry = selectors.entry_in(flight=flight, pk=pk)
    if entry is None:
        raise Http404("No such entry in this flight.")
    return entry


class PaymentLineSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    method = serializers.CharField(help_text="cash, transfer, online or waived.")
    amount = fields.DecimalField(max_digits=9, decimal_places=2, help_text="Negative for a refund.")
    reference = serializers.CharField()
    note = serializers.CharField()
    recorded_by = serializers.CharField(source="recorded_by.username", default="")
    recorded_at = serializers.DateTimeField()


class EntryAccountSerializer(serializers.Serializer):
    entry = serializers.IntegerField(source="entry.pk")
    player = serializers.CharField(source="entry.real_name")
    status = serializers.CharField(source="entry.status")
    fee_category = serializers.CharField(source="entry.fee_category")
    due_cents = serializers.IntegerField(source="account.due")
    paid_cents = serializers.IntegerField(source="account.paid")
    outstanding_cents = serializers.IntegerField(source="account.outstanding")
    waived = serializers.BooleanField(source="account.waived")
    withdrawn_before_draw = serializers.BooleanField(source="entry.withdrew_before_draw")
    to_refund_cents = serializers.IntegerField(
        source="account.overpaid", help_text="Paid above what is due (after a withdrawal before the draw: to refund)."
    )
    seen = serializers.IntegerField(help_text="Lines so far: send it back as `seen` when recording the next one.")
    lines = PaymentLineSerializer(many=True)


class FlightFeesSerializer(serializers.Serializer):
    entries = EntryAccountSerializer(many=True, source="rows")
    totals_cents = serializers.DictField(child=serializers.IntegerField(), source="totals")
    waived = serializers.IntegerField()
    due_cents = serializers.IntegerField(source="due")
    paid_cents = serializers.IntegerField(source="paid")
    outstanding_cents = serializers.IntegerField(source="outstanding")
    left_out = serializers.SerializerMethodField(help_text="Who the draw would leave out unpaid.")

    def get_left_out(self, _data) -> list[str]:
        return list(self.context.get("left_out", []))


class PaymentInputSerializer(serializers.Serializer):
    kind = serializers.CharField(max_length=20, default="payment", help_text="One of: payment, refund, waiver.")
    method = serializers.CharField(max_length=20, default="cash", help_text="One of: cash, transfer, online.")
    amount = serializers.CharField(max_length=40, required=False, default="0", help_text="E.g. 20.00.")
    reference = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    note = serializers.CharField(max_length=400, required=False, allow_blank=True, default="")
    seen = serializers.IntegerField(
        required=False, min_value=0, max_value=10_000, help_text="Lines the director saw; refused 409 if changed."
    )
    idempotency_key = serializers.CharField(max_length=80, required=False, allow_blank=True, default="")


class FeeSettingsInputSerializer(serializers.Serializer):
    member_fee = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")
    junior_fee = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")
    payment_required = serializers.BooleanField(required=False, default=False)


class FeeSettingsSerializer(serializers.Serializer):
    entry_fee = fields.DecimalField(max_digits=9, decimal_places=2)
    member_fee = fields.DecimalField(max_digits=9, decimal_places=2, allow_null=True)
    junior_fee = fields.DecimalField(max_digits=9, decimal_places=2, allow_null=True)
    payment_required = serializers.BooleanField()


class FeeCategoryInputSerializer(serializers.Serializer):
    category = serializers.CharField(max_length=20, help_text="One of: standard, member, junior.")


class MyFeeSerializer(serializers.Serializer):
    event = serializers.CharField(source="entry.flight.event.name")
    flight = serializers.CharField(source="entry.flight.name")
    due_cents = serializers.IntegerField(source="account.due")
    paid_cents = serializers.IntegerField(source="account.paid")
    outstanding_cents = serializers.IntegerField(source="account.outstanding")
    waived = serializers.BooleanField(source="account.waived")
    to_refund_cents = serializers.IntegerField(
        source="account.overpaid", help_text="Paid above what is due (after a withdrawal before the draw: to refund)."
    )


class FeesViewSet(viewsets.ViewSet):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=FlightFeesSerializer, description="Every entry's fee, payments and what is owed.")
    def flight(self, request, club, slug, flight):
        found = flight_in(request, club, slug, flight)
        access.require(request.user, "event.direct", found.event)
        data = selectors.flight_fees(flight=found)
        left_out = [e.name for e in selectors.unpaid_left_out(flight=found)]
        return Response(FlightFeesSerializer(data, context={"left_out": left_out}).data)

    @idempotent
    @extend_schema(request=PaymentInputSerializer, responses={201: PaymentLineSerializer})
    def record(self, request, club, slug, flight, pk):
        """A payment, a refund or a waiver (append-only); `seen` and `idempotency_key` make it happen once."""
        entry = _entry(flight_in(request, club, slug, flight), pk)
        data = validated(PaymentInputSerializer, request)
        line = services.record_payment(
            actor=request.user,
            entry=entry,
            kind=data["kind"],
            method=data["method"],
            amount=data["amount"],
            reference=data["reference"],
            note=data["note"],
            seen=data.get("seen"),
            key=data["idempotency_key"],
        )
        return Response(PaymentLineSerializer(line).data, status=status.HTTP_201_CREATED)

    @idempotent
    @extend_schema(request=FeeSettingsInputSerializer, responses=FeeSettingsSerializer)
    def fee_settings(self, request, club, slug, flight):
        found = flight_in(request, club, slug, flight)
        data = validated(FeeSettingsInputSerializer, request)
        updated = services.set_fee_settings(actor=request.user, flight=found, **data)
        return Response(FeeSettingsSerializer(updated).data)

    @idempotent
    @extend_schema(request=FeeCategoryInputSerializer, responses=EntryAccountSerializer)
    def category(self, request, club, slug, flight, pk):
        entry = _entry(flight_in(request, club, slug, flight), pk)
        data = validated(FeeCategoryInputSerializer, request)
        entry = services.set_fee_category(actor=request.user, entry=entry, category=data["category"])
        row = selectors.flight_fees(flight=entry.flight)
        return Response(EntryAccountSerializer(next(r for r in row.rows if r.entry.pk == entry.pk)).data)

    @extend_schema(responses=MyFeeSerializer(many=True), description="The caller's own entry fees.")
    def mine(self, request):
        player = club_selectors.player_for_user(request.user)
        rows = [] if player is None else selectors.player_fees(player=player)
        return Response(MyFeeSerializer(rows, many=True).data)
