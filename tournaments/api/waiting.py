"""REST endpoints of a capped flight's waiting list (…/flights/<flight>/waiting-list/): the list (all of it for a
director, one's own place for a player), joining it, answering an offered place, a director's move-up, closing
it, the flight's cap (…/flights/<flight>/cap/) and the event's cap across its flights (…/<event>/cap/). The
services check who may."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status, viewsets
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from base.api import refusal_body, validated
from base.errors import Conflict
from base.idempotency import idempotent
from clubs import access
from clubs import selectors as club_selectors
from clubs.models import Player
from tournaments import selectors, services
from tournaments.api.events import EntrySerializer, PlayerInputSerializer, event_in, flight_in


class SpotSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    player = serializers.CharField(source="player.name")
    place = serializers.IntegerField(help_text="1: the next to be offered a place.")
    status = serializers.CharField(help_text="waiting or offered (open spots); later accepted, declined, expired, ….")
    offer_expires_at = serializers.DateTimeField(allow_null=True, help_text="An offer's deadline to accept.")
    team_name = serializers.CharField(help_text="A pair's or team's name (empty for a single player).")
    members = serializers.SerializerMethodField(help_text="A pair's or team's players, the captain first.")

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_members(self, spot) -> list[str]:
        return [m.player.name for m in spot.members.all()]


class WaitingJoinInputSerializer(PlayerInputSerializer):
    """A single player (`player`, default yourself) or, on a pair or team flight, the pair or team (`players`,
    the captain first, and `team_name`), as a team entry is made."""

    players = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(),
        many=True,
        required=False,
        help_text="A pair's or team's players, the captain first (a team: board order). Empty: a single player.",
    )
    team_name = serializers.CharField(
        max_length=120, required=False, allow_blank=True, default="", help_text='Default: "Anna & Ben".'
    )


class EventPlacesSerializer(serializers.Serializer):
    cap = serializers.IntegerField(
        allow_null=True, help_text="At most this many entries across the event's counted flights (null: no cap)."
    )
    entered = serializers.IntegerField(help_text="Entries holding a place across the event's counted flights.")
    offered = serializers.IntegerField(help_text="Places offered to waiting players across the event.")
    full = serializers.BooleanField(help_text="No place of the event is free: a sign-up waits.")


class WaitingListSerializer(serializers.Serializer):
    cap = serializers.IntegerField(source="places.cap", allow_null=True)
    entered = serializers.IntegerField(source="places.entered")
    offered = serializers.IntegerField(source="places.offered")
    closed = serializers.BooleanField(source="flight.waiting_closed")
    offer_hours = serializers.IntegerField(source="flight.offer_hours")
    spots = SpotSerializer(many=True, help_text="A director sees everyone; a player only their own place.")
    event = EventPlacesSerializer(
        source="event_places",
        allow_null=True,
        help_text="The event's places when it has a cap this flight counts against (null otherwise).",
    )


class CapInputSerializer(serializers.Serializer):
    cap = serializers.IntegerField(allow_null=True, min_value=1, max_value=100_000, help_text="null: no cap.")
    offer_hours = serializers.IntegerField(required=False, min_value=1, max_value=336)


class CapSerializer(serializers.Serializer):
    cap = serializers.IntegerField(allow_null=True)
    offer_hours = serializers.IntegerField()
    waiting_closed = serializers.BooleanField()


class MoveInputSerializer(serializers.Serializer):
    to_place = serializers.IntegerField(min_value=1, max_value=100_000, help_text="1: first of the list.")
    reason = serializers.CharField(max_length=200, help_text="Recorded with the move.")


def _spot(flight, pk: int):
    spot = selectors.spot_in(flight=flight, pk=pk)
    if spot is None:
        raise Http404("No such place on this waiting list.")
    return spot


class WaitingListViewSet(viewsets.ViewSet):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=WaitingListSerializer, description="The flight's places and its waiting list.")
    def show(self, request, club, slug, flight):
        found = flight_in(request, club, slug, flight)
        data = selectors.waiting_list(flight=found)
        if not access.can(request.user, "event.direct", found.event):
            own = club_selectors.player_for_user(request.user)
            data.spots[:] = [s for s in data.spots if own is not None and s.player_id == own.pk]
        return Response(WaitingListSerializer(data).data)

    @idempotent
    @extend_schema(request=WaitingJoinInputSerializer, responses={201: SpotSerializer})
    def join(self, request, club, slug, flight):
        """Join the list of a full flight (yourself; a director: a player of the club, or a pair or team given as
        `players`, the captain first, each one the caller may enter)."""
        found = flight_in(request, club, slug, flight)
        data = validated(WaitingJoinInputSerializer, request)
        spot = services.join_waiting_list(
            actor=request.user,
            flight=found,
            player=data.get("player"),
            players=data.get("players") or None,
            team_name=data.get("team_name", ""),
        )
        own = selectors.own_spot(flight=found, player=spot.player)
        return Response(SpotSerializer(own or spot).data, status=status.HTTP_201_CREATED)

    @idempotent
    @extend_schema(request=None, responses={201: EntrySerializer}, description="Take the place offered.")
    def accept(self, request, club, slug, flight, pk):
        spot = _spot(flight_in(request, club, slug, flight), pk)
        try:
            entry = services.accept_place(actor=request.user, spot=spot)
        except Conflict as refused:
            if refused.code != "offer_expired":
                raise
            # Answered, not raised: the offer was passed on before the refusal, and raising it through the
            # idempotency key's transaction (base.idempotency.run) would undo that.
            return Response(refusal_body(refused), status=refused.status_code)
        return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)

    @idempotent
    @extend_schema(request=None, responses=SpotSerializer, description="Decline the offer, or leave the list.")
    def decline(self, request, club, slug, flight, pk):
        spot = services.decline_place(actor=request.user, spot=_spot(flight_in(request, club, slug, flight), pk))
        spot.place = 0
        return Response(SpotSerializer(spot).data)

    @idempotent
    @extend_schema(request=MoveInputSerializer, responses=SpotSerializer, description="Move a player up (director).")
    def move(self, request, club, slug, flight, pk):
        found = flight_in(request, club, slug, flight)
        data = validated(MoveInputSerializer, request)
        spot = services.move_up(
            actor=request.user, spot=_spot(found, pk), to_place=data["to_place"], reason=data["reason"]
        )
        return Response(SpotSerializer(selectors.own_spot(flight=found, player=spot.player) or spot).data)

    @idempotent
    @extend_schema(request=None, responses=CapSerializer, description="Close the list (director).")
    def close(self, request, club, slug, flight):
        updated = services.close_waiting_list(actor=request.user, flight=flight_in(request, club, slug, flight))
        return Response(CapSerializer(updated).data)

    @idempotent
    @extend_schema(request=CapInputSerializer, responses=CapSerializer, description="The flight's cap (director).")
    def cap(self, request, club, slug, flight):
        found = flight_in(request, club, slug, flight)
        data = validated(CapInputSerializer, request)
        updated = services.set_cap(
            actor=request.user, flight=found, cap=data["cap"], offer_hours=data.get("offer_hours")
        )
        return Response(CapSerializer(updated).data)


class EventCapInputSerializer(serializers.Serializer):
    cap = serializers.IntegerField(allow_null=True, min_value=1, max_value=100_000, help_text="null: no cap.")


class EventCapSerializer(serializers.Serializer):
    cap = serializers.IntegerField(allow_null=True, help_text="At most this many entries across the event's flights.")
    places = EventPlacesSerializer(help_text="The event's places now.")


class EventCapViewSet(viewsets.ViewSet):
    permission_classes = [IsAuthenticated]

    @idempotent
    @extend_schema(
        request=EventCapInputSerializer,
        responses=EventCapSerializer,
        description="The event's cap across its flights (director); a sign-up past it joins its flight's list.",
    )
    def cap(self, request, club, slug):
        event = event_in(request, club, slug)
        data = validated(EventCapInputSerializer, request)
        updated = services.set_event_cap(actor=request.user, event=event, cap=data["cap"])
        places = selectors.event_places(event=updated)
        return Response(EventCapSerializer({"cap": updated.cap, "places": places}).data)
