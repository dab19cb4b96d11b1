"""REST endpoint for an event's points (under /api/v1/ratings/, beside the standings that sum them)."""

from django.shortcuts import get_object_or_404
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, viewsets
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response

from base.api import validated
from clubs import selectors as club_selectors
from clubs.api import ShownNameField
from points import selectors, services
from ratings import selectors as ratings_selectors
from ratings.models import EventPoints, PointsAward


class WeightField(serializers.FloatField):
    """A weight as the service takes it: above 0 and at most MAX_WEIGHT (the service's own check answers with its
    message); the schema said any number (WeightFieldSchema)."""


class WeightFieldSchema(OpenApiSerializerFieldExtension):
    """A weight's bounds in the request schema. OpenAPI 3.0's `exclusiveMinimum` is a flag, which JSON Schema
    validators of later drafts read as the number 1: it is left out of the answer's schema, which bounds nothing."""

    target_class = WeightField

    def map_serializer_field(self, auto_schema, direction):
        schema = {"type": "number", "format": "double"}
        if direction == "request":
            schema.update(minimum=0, exclusiveMinimum=True, maximum=services.MAX_WEIGHT)
        return schema


class EventPointsSerializer(serializers.ModelSerializer):
    event_weight = WeightField(required=False)
    division_weight = WeightField(required=False)
    division_factor = WeightField(required=False)

    class Meta:
        model = EventPoints
        fields = [
            "scheme",
            "event_weight",
            "division_weight",
            "split_ties",
            "division_factor",
            "strength_of_field",
            "awarded_at",
        ]
        read_only_fields = ["strength_of_field", "awarded_at"]


class PointsAwardSerializer(serializers.ModelSerializer):
    player_name = ShownNameField(source="player", club="club")

    class Meta:
        model = PointsAward
        fields = ["player", "player_name", "place", "points", "scheme", "awarded_on", "explanation"]


class EventPointsPageSerializer(serializers.Serializer):
    scheme = EventPointsSerializer(allow_null=True)
    awards = PointsAwardSerializer(many=True)


class EventPointsViewSet(viewsets.ViewSet):
    permission_classes = [IsAuthenticatedOrReadOnly]

    def _event(self, request, slug, event):
        club = get_object_or_404(club_selectors.visible_clubs(user=request.user), slug=slug)
        return get_object_or_404(selectors.club_events(club=club, user=request.user), slug=event)

    def _page(self, event):
        scheme, awards = ratings_selectors.event_points(event=event)
        return EventPointsPageSerializer({"scheme": scheme, "awards": awards}).data

    @extend_schema(responses=EventPointsPageSerializer, summary="An event's points scheme and awards")
    def retrieve(self, request, slug, event):
        return Response(self._page(self._event(request, slug, event)))

    @extend_schema(
        request=EventPointsSerializer, responses=EventPointsPageSerializer, summary="Choose the points scheme"
    )
    def update(self, request, slug, event):
        event = self._event(request, slug, event)
        data = validated(EventPointsSerializer, request)
        services.set_event_scheme(actor=request.user, event=event, **data)
        return Response(self._page(event))
