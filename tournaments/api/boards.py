"""REST endpoints for an event's boards and match calling (under /api/v1/events/<club>/<event>/boards/): the
calling state, numbering the boards, the auto-call switch, calling the next match, moving a call, freeing a
board and applying the lateness penalty. Directors only; the services check and decide."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from base import numbers
from base.api import validated
from clubs import access
from tournaments import selectors
from tournaments.models import Board, Call, Event
from tournaments.services import boards as board_services


class BoardSerializer(serializers.ModelSerializer):
    tags = serializers.ListField(child=serializers.CharField(), read_only=True)

    class Meta:
        model = Board
        fields = ["id", "number", "tags"]
        read_only_fields = fields


class CallSerializer(serializers.ModelSerializer):
    """A call with its table (tournaments.selectors.tables): a bracket match, a round's table or a team board."""

    board = serializers.IntegerField(source="board.number", read_only=True)
    slot = serializers.IntegerField(source="table.slot_id", read_only=True, allow_null=True)
    pairing = serializers.IntegerField(source="table.pairing_id", read_only=True, allow_null=True)
    team_board = serializers.IntegerField(source="table.team_board", read_only=True, allow_null=True)
    match = serializers.IntegerField(source="table.match_id", read_only=True, allow_null=True)
    flight = serializers.CharField(source="table.flight.slug", read_only=True)
    label = serializers.CharField(source="table.label", read_only=True)
    player_a = serializers.CharField(source="table.name_a", read_only=True)
    player_b = serializers.CharField(source="table.name_b", read_only=True)

    class Meta:
        model = Call
        fields = [
            "id",
            "board",
            "slot",
            "pairing",
            "team_board",
            "match",
            "flight",
            "label",
            "player_a",
            "player_b",
            "called_at",
            "lateness_applied_at",
        ]
        read_only_fields = fields

    def to_representation(self, instance):
        instance.table = selectors.call_table(instance)
        return super().to_representation(instance)


class BoardLineSerializer(serializers.Serializer):
    board = BoardSerializer()
    call = CallSerializer(allow_null=True)
    penalty_due = serializers.IntegerField(help_text="Lateness penalty points due now (0 within the grace period).")


class QueuedMatchSerializer(serializers.Serializer):
    slot = serializers.IntegerField(source="slot_id", allow_null=True)
    pairing = serializers.IntegerField(source="pairing_id", allow_null=True)
    team_board = serializers.IntegerField(allow_null=True)
    match = serializers.IntegerField(source="match_id")
    flight = serializers.CharField(source="flight.slug")
    round = serializers.IntegerField()
    label = serializers.CharField()
    player_a = serializers.CharField(source="name_a")
    player_b = serializers.CharField(source="name_b")
    waiting_since = serializers.DateTimeField(source="match.created_at")


class CallingSerializer(serializers.Serializer):
    auto_call = serializers.BooleanField(source="event.auto_call")
    grace_minutes = serializers.IntegerField(source="event.call_grace_minutes")
    boards = BoardLineSerializer(many=True)
    queue = QueuedMatchSerializer(many=True)


class BoardsInputSerializer(serializers.Serializer):
    count = serializers.IntegerField(min_value=1, max_value=board_services.MAX_BOARDS)
    tags = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField(max_length=30), max_length=10),
        required=False,
        help_text='Features by board number, e.g. {"1": ["step-free"], "2": ["clock"]}.',
    )
    grace_minutes = serializers.IntegerField(
        min_value=0,
        max_value=board_services.MAX_GRACE_MINUTES,
        required=False,
        help_text="Minutes after a call before the lateness penalty counts.",
    )


class AutoCallInputSerializer(serializers.Serializer):
    on = serializers.BooleanField()


class CallMoveInputSerializer(serializers.Serializer):
    board = serializers.IntegerField(min_value=1, help_text="The number of the free board to move to.")


class CallLatenessInputSerializer(serializers.Serializer):
    late_side = serializers.ChoiceField(choices=[0, 1], help_text="0: player A was late, 1: player B.")


def _directed(request, club: str, slug: str) -> Event:
    event = selectors.event_or_404(user=request.user, club_slug=club, slug=slug)
    access.require(request.user, "event.direct", event)
    return event


def _call(event: Event, pk: int) -> Call:
    found = selectors.call_in(event=event, pk=pk)
    if found is None:
        raise Http404("No such call in this event.")
    return found


def _board(event: Event, number: int) -> Board:
    found = selectors.board_in(event=event, number=number)
    if found is None:
        raise Http404("No board with this number in the event.")
    return found


def _calling(event: Event) -> Response:
    event.refresh_from_db(fields=["auto_call", "call_grace_minutes"])
    return Response(CallingSerializer(selectors.calling(event=event)).data)


class BoardViewSet(viewsets.ViewSet):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=CallingSerializer, description="Every board with the match called to it, and the queue.")
    def calling(self, request, club, slug):
        return _calling(_directed(request, club, slug))

    @extend_schema(request=BoardsInputSerializer, responses=CallingSerializer)
    def set_boards(self, request, club, slug):
        event = _directed(request, club, slug)
        data = validated(BoardsInputSerializer, request)
        # Only boards that exist: "²" passes str.isdigit and then int() refuses it, and every tag costs a query.
        numbered = ((numbers.parse_id(str(n)), v) for n, v in data.get("tags", {}).items())
        tags = {n: v for n, v in numbered if n is not None and n <= data["count"]}
        board_services.set_boards(
            actor=request.user, event=event, count=data["count"], tags=tags, grace_minutes=data.get("grace_minutes")
        )
        return _calling(event)

    @extend_schema(
        request=AutoCallInputSerializer,
        responses=CallingSerializer,
        description="Switch auto-call; switched on, every free board is called at once.",
    )
    def auto_call(self, request, club, slug):
        event = _directed(request, club, slug)
        data = validated(AutoCallInputSerializer, request)
        board_services.set_auto_call(actor=request.user, event=event, on=data["on"])
        return _calling(event)

    @extend_schema(
        request=None,
        responses={201: CallSerializer},
        description="Call the longest-waiting match whose players are free to the next free board.",
    )
    def call_next(self, request, club, slug):
        call = board_services.call_next(actor=request.user, event=_directed(request, club, slug))
        return Response(CallSerializer(call).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses=CallingSerializer, description="Free a board; auto-call fills it.")
    def free(self, request, club, slug, number):
        event = _directed(request, club, slug)
        board_services.free_board(actor=request.user, board=_board(event, number))
        return _calling(event)

    @extend_schema(request=CallMoveInputSerializer, responses=CallSerializer)
    def move(self, request, club, slug, pk):
        event = _directed(request, club, slug)
        data = validated(CallMoveInputSerializer, request)
        call = board_services.move_call(actor=request.user, call=_call(event, pk), board=_board(event, data["board"]))
        return Response(CallSerializer(call).data)

    @extend_schema(
        request=CallLatenessInputSerializer,
        responses=CallSerializer,
        description="Apply the lateness penalty due since the call (after the grace period), once.",
    )
    def lateness(self, request, club, slug, pk):
        event = _directed(request, club, slug)
        data = validated(CallLatenessInputSerializer, request)
        call = _call(event, pk)
        board_services.apply_lateness(actor=request.user, call=call, late_side=data["late_side"])
        return Response(CallSerializer(_call(event, pk)).data)
