"""REST endpoints of the data app: a club's event templates (/api/v1/clubs/<club>/event-templates/), saved from
an event, renamed, deleted, and an event started from one. The services check who may."""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status, viewsets
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from base.api import validated
from base.errors import Invalid
from base.idempotency import idempotent
from clubs import access
from data import selectors, services
from tournaments import selectors as tournament_selectors


class TemplateFlightSerializer(serializers.Serializer):
    name = serializers.CharField()
    slug = serializers.CharField()
    kind = serializers.CharField()
    format = serializers.CharField()
    length = serializers.IntegerField()
    entry_fee = serializers.CharField(help_text="E.g. 20.00.")
    source = serializers.CharField(allow_null=True, help_text="The short name of the flight that feeds it.")


class EventTemplateSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    name = serializers.CharField()
    made_from = serializers.CharField(help_text="The name of the event it was saved from.")
    created_at = serializers.DateTimeField()
    days = serializers.SerializerMethodField(help_text="How many days an event started from it lasts.")
    flights = serializers.SerializerMethodField()

    def get_days(self, template) -> int:
        return int(template.setup.get("event", {}).get("days", 0)) + 1

    @extend_schema_field(TemplateFlightSerializer(many=True))
    def get_flights(self, template) -> list[dict]:
        fields = TemplateFlightSerializer().fields
        return [{name: row.get(name) for name in fields} for row in template.setup.get("flights", [])]


class SaveTemplateInputSerializer(serializers.Serializer):
    event = serializers.SlugField(max_length=60, help_text="The short name of the club's event to save.")
    name = serializers.CharField(max_length=80, help_text="1 to 80 characters, no control characters.")


class RenameTemplateInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80, help_text="1 to 80 characters, no control characters.")


class StartEventInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, help_text="The new event's name.")
    starts_on = serializers.DateField(help_text="Its first day.")
    slug = serializers.SlugField(max_length=60, required=False, allow_blank=True, default="",
                                 help_text="Its short name; empty: made from the name.")  # fmt: skip


class StartedEventSerializer(serializers.Serializer):
    club = serializers.CharField(source="club.slug")
    slug = serializers.CharField()
    name = serializers.CharField()
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()
    flights = serializers.SerializerMethodField()

    def get_flights(self, event) -> list[str]:
        return [flight.slug for flight in tournament_selectors.flights(event=event)]


class EventTemplateViewSet(viewsets.ViewSet):
    permission_classes = [IsAuthenticated]

    def _club(self, request, club):
        return access.club_for(request.user, club, "event.create")

    def _template(self, request, club, pk):
        found = selectors.event_template(club=self._club(request, club), pk=pk)
        if found is None:
            raise Http404("The club has no such template.")
        return found

    @extend_schema(responses=EventTemplateSerializer(many=True), description="The club's event templates.")
    def list(self, request, club):
        templates = selectors.club_event_templates(club=self._club(request, club))
        return Response(EventTemplateSerializer(templates, many=True).data)

    @idempotent
    @extend_schema(
        request=SaveTemplateInputSerializer,
        responses={201: EventTemplateSerializer},
        description="Save one of the club's events (its flights, formats, settings, fees, payouts) as a template.",
    )
    def create(self, request, club):
        found = self._club(request, club)
        data = validated(SaveTemplateInputSerializer, request)
        event = tournament_selectors.event_for(user=request.user, club_slug=found.slug, slug=data["event"])
        if event is None:
            raise Invalid(_("The club has no such event."), field="event")
        template = services.save_event_template(actor=request.user, event=event, name=data["name"])
        return Response(EventTemplateSerializer(template).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses=EventTemplateSerializer, description="One template.")
    def retrieve(self, request, club, pk):
        return Response(EventTemplateSerializer(self._template(request, club, pk)).data)

    @idempotent
    @extend_schema(request=RenameTemplateInputSerializer, responses=EventTemplateSerializer)
    def partial_update(self, request, club, pk):
        found = self._template(request, club, pk)
        data = validated(RenameTemplateInputSerializer, request)
        return Response(EventTemplateSerializer(
            services.rename_event_template(actor=request.user, template=found, name=data["name"])
        ).data)  # fmt: skip

    @idempotent
    @extend_schema(request=None, responses={204: None}, description="Delete the template (events stay).")
    def destroy(self, request, club, pk):
        services.delete_event_template(actor=request.user, template=self._template(request, club, pk))
        return Response(status=status.HTTP_204_NO_CONTENT)

    @idempotent
    @extend_schema(
        request=StartEventInputSerializer,
        responses={201: StartedEventSerializer},
        description="Start a new event of the club from the template in one step: a name and a first day, "
        "everything else (flights, formats, settings, fees, payouts) the template's.",
    )
    def start(self, request, club, pk):
        found = self._template(request, club, pk)
        data = validated(StartEventInputSerializer, request)
        event = services.start_event_from_template(
            actor=request.user, template=found, name=data["name"], starts_on=data["starts_on"], slug=data["slug"]
        )
        return Response(StartedEventSerializer(event).data, status=status.HTTP_201_CREATED)
