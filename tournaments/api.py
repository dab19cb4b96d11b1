"""REST endpoints for events (under /api/v1/events/): events, flights, entries, draws, brackets, placements,
prizes, the director's dashboard, overrides, and a player's next matches. Results themselves are reported and
confirmed through /api/v1/matches/ (each bracket slot names its match)."""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from base.api import validated
from base.fields import DecimalField
from clubs import access
from clubs import selectors as club_selectors
from clubs.models import Club, Player
from games.models.matches import MatchOutcome
from tournaments import selectors, services
from tournaments.models import (
    DrawStatus,
    Entry,
    EntryStatus,
    Event,
    EventStatus,
    FeedRule,
    Flight,
    FlightKind,
    FlightStatus,
    Seeding,
    Slot,
    SlotResult,
)


def one_of(choices, **kwargs) -> serializers.CharField:
    """A string field naming its values in the schema's description instead of as a named enum, so fields
    called "kind" or "status" do not collide with other apps' enums of the same name."""
    values = ", ".join(value for value, _label in choices)
    return serializers.CharField(help_text=f"One of: {values}.", **kwargs)


# --- serializers ------------------------------------------------------------------------------------------


class FlightSerializer(serializers.ModelSerializer):
    source = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True)
    kind = one_of(FlightKind.choices, read_only=True)
    draw_status = one_of(DrawStatus.choices, read_only=True)
    status = one_of(FlightStatus.choices, read_only=True)

    class Meta:
        model = Flight
        fields = [
            "id",
            "slug",
            "name",
            "kind",
            "source",
            "feed_rule",
            "feed_rounds",
            "entry_round",
            "entry_fee",
            "reentry_fee",
            "reentry_deadline",
            "length",
            "final_length",
            "round_lengths",
            "seeding",
            "separate_clubs",
            "draw_status",
            "random_seed",
            "size",
            "status",
            "payout_template",
        ]
        read_only_fields = fields


class EventSerializer(serializers.ModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    status = one_of(EventStatus.choices, read_only=True)
    flights = FlightSerializer(many=True, read_only=True)

    class Meta:
        model = Event
        fields = [
            "id",
            "club",
            "slug",
            "name",
            "starts_on",
            "ends_on",
            "is_public",
            "registration_open",
            "status",
            "house_percent",
            "currency",
            "flights",
        ]
        read_only_fields = fields


class EventInputSerializer(serializers.Serializer):
    club = serializers.SlugRelatedField(slug_field="slug", queryset=Club.objects.all())
    name = serializers.CharField(max_length=120)
    slug = serializers.SlugField(max_length=60, required=False, default="")
    starts_on = serializers.DateField()
    ends_on = serializers.DateField(required=False, allow_null=True, default=None)
    is_public = serializers.BooleanField(default=True)
    registration_open = serializers.BooleanField(default=True)
    house_percent = DecimalField(max_digits=5, decimal_places=2, min_value=0, max_value=100, default=0)
    currency = serializers.CharField(max_length=3, default="EUR")


class EventUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    is_public = serializers.BooleanField(required=False)
    registration_open = serializers.BooleanField(required=False)
    house_percent = DecimalField(max_digits=5, decimal_places=2, min_value=0, max_value=100, required=False)


class FlightInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    slug = serializers.SlugField(max_length=40, required=False, default="")
    kind = one_of(FlightKind.choices, default=FlightKind.MAIN, max_length=20)
    source = serializers.SlugField(
        required=False, allow_null=True, default=None, help_text="Slug of the feeding flight."
    )
    feed_rule = serializers.ChoiceField(choices=FeedRule.choices, required=False, allow_null=True, default=None)
    feed_rounds = serializers.IntegerField(min_value=1, max_value=12, default=1)
    entry_round = serializers.IntegerField(min_value=1, max_value=20, default=1)
    entry_fee = DecimalField(max_digits=9, decimal_places=2, min_value=0, default=0)
    reentry_fee = DecimalField(max_digits=9, decimal_places=2, min_value=0, required=False, allow_null=True)
    reentry_deadline = serializers.DateTimeField(required=False, allow_null=True)
    length = serializers.IntegerField(min_value=1, max_value=99, default=7)
    final_length = serializers.IntegerField(min_value=1, max_value=99, required=False, allow_null=True)
    round_lengths = serializers.DictField(child=serializers.IntegerField(min_value=1, max_value=99), required=False)
    seeding = serializers.ChoiceField(choices=Seeding.choices, default=Seeding.RANDOM)
    separate_clubs = serializers.BooleanField(default=False)
    payout_template = serializers.ListField(child=serializers.DictField(), required=False)


class EntrySerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name", read_only=True)
    status = one_of(EntryStatus.choices, read_only=True)

    class Meta:
        model = Entry
        fields = [
            "id",
            "player",
            "player_name",
            "status",
            "is_late",
            "is_reentry",
            "fee",
            "seed",
            "rating",
            "draw_position",
            "had_bye",
            "place",
        ]
        read_only_fields = fields


class PlayerInputSerializer(serializers.Serializer):
    player = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), required=False, allow_null=True, help_text="Default: yourself."
    )


class WithdrawInputSerializer(serializers.Serializer):
    comment = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class DrawInputSerializer(serializers.Serializer):
    seed = serializers.IntegerField(
        min_value=0, max_value=2**62, required=False, allow_null=True, help_text="Reproduce a draw with its seed."
    )


class SlotSerializer(serializers.ModelSerializer):
    result = one_of(SlotResult.choices, read_only=True)
    player_a = serializers.SerializerMethodField()
    player_b = serializers.SerializerMethodField()
    winner_player = serializers.SerializerMethodField()
    match_status = serializers.CharField(source="match.status", read_only=True, default=None, allow_null=True)
    score_a = serializers.IntegerField(source="match.score_a", read_only=True, default=None, allow_null=True)
    score_b = serializers.IntegerField(source="match.score_b", read_only=True, default=None, allow_null=True)

    class Meta:
        model = Slot
        fields = [
            "id",
            "section",
            "round",
            "position",
            "entry_a",
            "entry_b",
            "player_a",
            "player_b",
            "a_empty",
            "b_empty",
            "result",
            "winner",
            "winner_player",
            "match",
            "match_status",
            "score_a",
            "score_b",
        ]
        read_only_fields = fields

    def _name(self, entry) -> str | None:
        return None if entry is None else entry.player.name

    def get_player_a(self, slot) -> str | None:
        return self._name(slot.entry_a)

    def get_player_b(self, slot) -> str | None:
        return self._name(slot.entry_b)

    def get_winner_player(self, slot) -> int | None:
        return None if slot.winner is None else slot.winner.player_id


class RoundSerializer(serializers.Serializer):
    section = serializers.CharField()
    number = serializers.IntegerField()
    title = serializers.CharField()
    slots = SlotSerializer(many=True)


class FlightDetailSerializer(serializers.Serializer):
    flight = FlightSerializer()
    entries = EntrySerializer(many=True)
    rounds = RoundSerializer(many=True)


class PlacementSerializer(serializers.Serializer):
    entry_id = serializers.IntegerField()
    player_id = serializers.IntegerField()
    place = serializers.IntegerField(allow_null=True)


class PaidLineSerializer(serializers.Serializer):
    flight = serializers.CharField(source="share.flight")
    place = serializers.IntegerField(source="share.place")
    percent = DecimalField(source="share.percent", max_digits=6, decimal_places=2)
    amount_cents = serializers.IntegerField(source="amount")
    holders = serializers.ListField(child=serializers.CharField())
    each_cents = serializers.ListField(child=serializers.IntegerField(), source="each")


class PrizeSerializer(serializers.Serializer):
    flight = serializers.CharField(source="flight.slug")
    entries = serializers.IntegerField()
    pool_cents = serializers.IntegerField(source="payout.pool")
    house_cents = serializers.IntegerField(source="payout.house")
    net_cents = serializers.IntegerField(source="payout.net")
    lines = PaidLineSerializer(many=True, source="payout.lines")


class PayoutInputSerializer(serializers.Serializer):
    payout_template = serializers.ListField(child=serializers.DictField())


class DashboardSerializer(serializers.Serializer):
    ready = SlotSerializer(many=True)
    in_progress = SlotSerializer(many=True)
    waiting = SlotSerializer(many=True)
    disputed = SlotSerializer(many=True)


class CascadeSerializer(serializers.Serializer):
    slot = serializers.IntegerField(source="slot.pk")
    label = serializers.CharField(source="slot")
    match = serializers.IntegerField(source="slot.match_id", allow_null=True)
    started = serializers.BooleanField()


class OverrideInputSerializer(serializers.Serializer):
    winner_side = serializers.ChoiceField(choices=[0, 1], required=False, allow_null=True)
    outcome = serializers.ChoiceField(choices=MatchOutcome.choices, default=MatchOutcome.FORFEIT)
    score_a = serializers.IntegerField(min_value=0, max_value=99, required=False)
    score_b = serializers.IntegerField(min_value=0, max_value=99, required=False)
    comment = serializers.CharField(max_length=2000)


class NextMatchSerializer(SlotSerializer):
    event = serializers.CharField(source="flight.event.name", read_only=True)
    flight = serializers.CharField(source="flight.name", read_only=True)

    class Meta(SlotSerializer.Meta):
        fields = [*SlotSerializer.Meta.fields, "event", "flight"]
        read_only_fields = fields


# --- views ------------------------------------------------------------------------------------------------


def _event(request, club: str, slug: str) -> Event:
    event = selectors.event_for(user=request.user, club_slug=club, slug=slug)
    if event is None:
        raise Http404("No such event.")
    return event


def _flight(request, club: str, slug: str, flight: str) -> Flight:
    found = selectors.flight_for(event=_event(request, club, slug), slug=flight)
    if found is None:
        raise Http404("No such flight.")
    return found


def _entry(flight: Flight, pk: int) -> Entry:
    entry = selectors.entry_in(flight=flight, pk=pk)
    if entry is None:
        raise Http404("No such entry in this flight.")
    return entry


class EventListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=EventSerializer(many=True))
    def get(self, request):
        events = selectors.events_with_flights(user=request.user)[:200]
        return Response(EventSerializer(events, many=True).data)

    @extend_schema(request=EventInputSerializer, responses={201: EventSerializer})
    def post(self, request):
        if not request.user.is_authenticated:
            raise PermissionDenied("Sign in to create an event.")
        data = validated(EventInputSerializer, request)
        event = services.create_event(actor=request.user, **data)
        return Response(EventSerializer(event).data, status=status.HTTP_201_CREATED)


class EventDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=EventSerializer)
    def get(self, request, club, slug):
        return Response(EventSerializer(_event(request, club, slug)).data)

    @extend_schema(request=EventUpdateSerializer, responses=EventSerializer)
    def patch(self, request, club, slug):
        event = _event(request, club, slug)
        data = validated(EventUpdateSerializer, request)
        return Response(EventSerializer(services.update_event(actor=request.user, event=event, **data)).data)


class FlightListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(request=FlightInputSerializer, responses={201: FlightSerializer})
    def post(self, request, club, slug):
        event = _event(request, club, slug)
        data = validated(FlightInputSerializer, request)
        source, source_slug = None, data.pop("source")
        if source_slug:
            source = selectors.flight_for(event=event, slug=source_slug)
            if source is None:
                raise DjangoValidationError({"source": ["No flight with this short name in the event."]})
        flight = services.add_flight(actor=request.user, event=event, source=source, **data)
        return Response(FlightSerializer(flight).data, status=status.HTTP_201_CREATED)


class FlightDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=FlightDetailSerializer)
    def get(self, request, club, slug, flight):
        found = _flight(request, club, slug, flight)
        entries = selectors.flight_entries(flight=found)
        data = {"flight": found, "entries": entries, "rounds": selectors.bracket(flight=found)}
        return Response(FlightDetailSerializer(data).data)


class EntryListView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=PlayerInputSerializer, responses={201: EntrySerializer})
    def post(self, request, club, slug, flight):
        found = _flight(request, club, slug, flight)
        data = validated(PlayerInputSerializer, request)
        entry = services.register(actor=request.user, flight=found, player=data.get("player"))
        return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class ReentryView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=PlayerInputSerializer, responses={201: EntrySerializer})
    def post(self, request, club, slug, flight):
        found = _flight(request, club, slug, flight)
        data = validated(PlayerInputSerializer, request)
        player = data.get("player") or club_selectors.player_for_user(request.user)
        if player is None:
            raise DjangoValidationError({"player": ["Choose the player who re-enters."]})
        entry = services.reenter(actor=request.user, flight=found, player=player)
        return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class CheckInView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=EntrySerializer)
    def post(self, request, club, slug, flight, pk):
        entry = _entry(_flight(request, club, slug, flight), pk)
        return Response(EntrySerializer(services.check_in(actor=request.user, entry=entry)).data)


class WithdrawView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=WithdrawInputSerializer, responses={200: EntrySerializer, 204: None})
    def post(self, request, club, slug, flight, pk):
        entry = _entry(_flight(request, club, slug, flight), pk)
        data = validated(WithdrawInputSerializer, request)
        kept = services.withdraw(actor=request.user, entry=entry, comment=data["comment"])
        if kept is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(EntrySerializer(kept).data)


class DrawView(APIView):
    """Draw round 1 (again, while the draw is a draft)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=DrawInputSerializer, responses=FlightSerializer)
    def post(self, request, club, slug, flight):
        found = _flight(request, club, slug, flight)
        data = validated(DrawInputSerializer, request)
        found = services.draw_flight(actor=request.user, flight=found, seed=data.get("seed"))
        return Response(FlightSerializer(found).data)


class _DrawStepView(APIView):
    permission_classes = [IsAuthenticated]
    step = staticmethod(services.confirm_draw)

    @extend_schema(request=None, responses=FlightSerializer)
    def post(self, request, club, slug, flight):
        found = self.step(actor=request.user, flight=_flight(request, club, slug, flight))
        return Response(FlightSerializer(found).data)


class ConfirmDrawView(_DrawStepView):
    """Confirm a draft draw: no redraw after this."""

    step = staticmethod(services.confirm_draw)


class ReleaseDrawView(_DrawStepView):
    """Publish a confirmed draw: the bracket is laid out and round-1 matches are created."""

    step = staticmethod(services.release_draw)


class PlacementsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=PlacementSerializer(many=True))
    def get(self, request, club, slug, flight):
        found = _flight(request, club, slug, flight)
        return Response(PlacementSerializer(selectors.flight_placements(flight=found), many=True).data)


class PayoutTemplateView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=PayoutInputSerializer, responses=FlightSerializer)
    def put(self, request, club, slug, flight):
        found = _flight(request, club, slug, flight)
        data = validated(PayoutInputSerializer, request)
        flight_obj = services.set_payout_template(actor=request.user, flight=found, template=data["payout_template"])
        return Response(FlightSerializer(flight_obj).data)


class PrizeListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=PrizeSerializer(many=True))
    def get(self, request, club, slug):
        event = _event(request, club, slug)
        return Response(PrizeSerializer(selectors.prize_list(event=event), many=True).data)


class DashboardView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=DashboardSerializer)
    def get(self, request, club, slug):
        event = _event(request, club, slug)
        access.require(request.user, "event.direct", event)
        return Response(DashboardSerializer(selectors.dashboard(event=event)).data)


class OverrideView(APIView):
    """GET shows which later matches an override would void; POST applies it."""

    permission_classes = [IsAuthenticated]

    def _slot(self, request, club, slug, flight, pk) -> Slot:
        found = _flight(request, club, slug, flight)
        slot = selectors.slot_in(flight=found, pk=pk)
        if slot is None:
            raise Http404("No such slot in this flight.")
        return slot

    @extend_schema(responses=CascadeSerializer(many=True))
    def get(self, request, club, slug, flight, pk):
        slot = self._slot(request, club, slug, flight, pk)
        return Response(CascadeSerializer(services.override_preview(actor=request.user, slot=slot), many=True).data)

    @extend_schema(request=OverrideInputSerializer, responses=SlotSerializer)
    def post(self, request, club, slug, flight, pk):
        slot = self._slot(request, club, slug, flight, pk)
        data = validated(OverrideInputSerializer, request)
        scores = (data["score_a"], data["score_b"]) if "score_a" in data and "score_b" in data else None
        slot = services.override_result(
            actor=request.user,
            slot=slot,
            winner_side=data.get("winner_side"),
            outcome=data["outcome"],
            scores=scores,
            comment=data["comment"],
        )
        slot = selectors.slot_in(flight=slot.flight, pk=slot.pk)
        return Response(SlotSerializer(slot).data)


class NextMatchesView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=NextMatchSerializer(many=True))
    def get(self, request):
        player = club_selectors.player_for_user(request.user)
        slots = [] if player is None else selectors.next_matches(player=player)
        return Response(NextMatchSerializer(slots, many=True).data)
