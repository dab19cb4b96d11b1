"""REST endpoints of chained stages (under /api/v1/events/<club>/<event>/flights/<flight>/): the knockout a stage
feeds and the ties at its qualifying line, and the director's lot that decides one (tournaments.services.stages).
Reads are public with the event; the service checks the write."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, viewsets
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response

from base.api import validated
from tournaments import selectors, services
from tournaments.api.events import flight_in
from tournaments.models import QualifyingTies


class TiedEntrySerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    player = serializers.CharField()


class TieSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="row.pk")
    group = serializers.IntegerField(source="row.group", help_text="0: the whole field; else the group's number.")
    places = serializers.IntegerField(source="row.places", help_text="How many of the tied players go on.")
    decided_by = serializers.ChoiceField(
        choices=QualifyingTies.choices, source="row.method", help_text="How the tie is (to be) decided."
    )
    tied = serializers.SerializerMethodField(help_text="The tied players, in standings order.")
    qualified = serializers.SerializerMethodField(help_text="Who went on; empty while undecided.")
    playoff_match = serializers.IntegerField(source="row.match_id", allow_null=True)
    decided_at = serializers.DateTimeField(source="row.decided_at", allow_null=True)

    def get_tied(self, tie) -> list[dict]:
        return [{"entry": pk, "player": name} for pk, name in tie.entries]

    def get_qualified(self, tie) -> list[int]:
        return list(tie.row.order[: tie.row.places]) if tie.row.order else []


class NextStageSerializer(serializers.Serializer):
    cut = serializers.CharField(source="cut.slug", default=None, allow_null=True, help_text="The knockout's slug.")
    over = serializers.BooleanField(help_text="The stage has ended.")
    ties = TieSerializer(many=True)


class LotInputSerializer(serializers.Serializer):
    qualified = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**62),
        max_length=256,
        required=False,
        help_text="The tied entries who go on (a lot drawn at the club); left out, the server draws the lot.",
    )


class StageViewSet(viewsets.ViewSet):
    def get_permissions(self):
        return [AllowAny()] if self.action == "next_stage" else [IsAuthenticated()]

    @extend_schema(responses=NextStageSerializer, description="The knockout this stage feeds and its ties.")
    def next_stage(self, request, club, slug, flight):
        found = flight_in(request, club, slug, flight)
        return Response(NextStageSerializer(selectors.next_stage(flight=found)).data)

    @extend_schema(
        request=LotInputSerializer,
        responses=TieSerializer,
        description="The director decides a tie at the qualifying line by lot; then the knockout is drawn.",
    )
    def lot(self, request, club, slug, flight, pk):
        data = validated(LotInputSerializer, request)
        found = flight_in(request, club, slug, flight)
        tie = selectors.qualifying_tie_in(flight=found, pk=pk)
        if tie is None:
            raise Http404("No such tie in this flight.")
        services.decide_by_lot(actor=request.user, tie=tie, qualified=data.get("qualified"))
        stage = selectors.next_stage(flight=found)
        return Response(TieSerializer(next(t for t in stage.ties if t.row.pk == tie.pk)).data)
