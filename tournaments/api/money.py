"""REST endpoints of prize money: a club's own payout tables (/api/v1/payout-tables/<club>/), the table and house
take a flight uses (…/flights/<flight>/payout-table/) and a prize recorded as handed over
(…/flights/<flight>/prizes/<player>/paid/). The services check who may."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from base.api import validated
from base.idempotency import idempotent
from clubs import access
from clubs import selectors as club_selectors
from tournaments import selectors, services
from tournaments.api.events import flight_in


class PayoutTableSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    key = serializers.SerializerMethodField(help_text='What a flight names it by: "club-<id>".')
    name = serializers.CharField()
    bands = serializers.JSONField()

    def get_key(self, table) -> str:
        return f"club-{table.pk}"


class PayoutTableInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    bands = serializers.JSONField(
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
    house_percent = serializers.DecimalField(max_digits=5, decimal_places=2, allow_null=True)
    house_fixed = serializers.DecimalField(max_digits=9, decimal_places=2)
    added_money = serializers.DecimalField(max_digits=9, decimal_places=2)

    def get_table(self, flight) -> str:
        return f"club-{flight.club_payout_table_id}" if flight.club_payout_table_id else flight.payout_table


class PrizePaidSerializer(serializers.Serializer):
    flight = serializers.CharField(source="flight.slug")
    player = serializers.IntegerField(source="player_id")
    place = serializers.IntegerField()
    amount_cents = serializers.IntegerField()
    paid_at = serializers.DateTimeField()


class PayoutTableViewSet(viewsets.ViewSet):
    permission_classes = [IsAuthenticated]

    def _club(self, request, club):
        found = club_selectors.visible_club(user=request.user, slug=club)
        if found is None:
            raise Http404("No such club.")
        access.require(request.user, "event.create", found)
        return found

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
