"""REST endpoints for chouette sessions (under /api/v1/chouette/): sessions, the starting order, games (enter,
undo, correct), seats (join, sit out, come back, leave with cash-out), settlement and lifetime balances."""

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response

from base.api import JSONTypedInput, paginated_response, validated
from base.fields import DecimalField
from base.idempotency import idempotent
from chouette import permissions as access
from chouette import selectors, services
from chouette.core.scoring import KINDS, RESPONSES
from chouette.core.table_options import CHOICES, Rules
from chouette.models import (
    ChouetteSession,
    EventKind,
    LedgerEntry,
    RequestKind,
    RequestStatus,
    SessionEvent,
    SessionStatus,
    TableRequest,
    Transfer,
    TransferKind,
)
from clubs import selectors as club_selectors
from clubs.api import ShownNameField
from clubs.models import Club, Player
from games.matchplay.api import setting_serializer_fields
from games.models.variants import DaveProgression, GameVariant, StakeForm


class WordField(serializers.ChoiceField):
    """A choice of plain words (box/team, single/gammon/backgammon, the session status), its values listed in the
    description too. The schema names each set as a `Chouette…Enum` (ENUM_NAME_OVERRIDES in config/settings.py):
    these words recur in other apps with other values, and an unnamed set would collide with them."""

    def __init__(self, choices, **kwargs):
        kwargs.setdefault("help_text", " / ".join(str(c) for c in choices))
        super().__init__(choices, **kwargs)


class PlayerKeyedField(serializers.DictField):
    """A JSON object keyed by player id (object keys are strings): the keys come out as ints."""

    default_error_messages = {"key": "Key each value by a player id."}

    def to_internal_value(self, data):
        values = super().to_internal_value(data)
        if not all(str(key).isdigit() for key in values):
            self.fail("key")
        return {int(key): value for key, value in values.items()}


SIDES = ["box", "team"]
GAVE_UP = ["member", "box"]
SESSION_STATUSES = ["seating", "open", "finished"]
EVENT_KINDS = list(EventKind.values)
TRANSFER_KINDS = list(TransferKind.values)


class ChouetteRulesSerializer(serializers.Serializer):
    cubes = serializers.ChoiceField(choices=CHOICES["cubes"], default=Rules.cubes)
    box_keeps = serializers.ChoiceField(choices=CHOICES["box_keeps"], default=Rules.box_keeps)
    acting_captain = serializers.ChoiceField(choices=CHOICES["acting_captain"], default=Rules.acting_captain)
    box_min_takes = serializers.ChoiceField(choices=CHOICES["box_min_takes"], default=Rules.box_min_takes)
    partner_from = serializers.IntegerField(min_value=0, max_value=20, default=Rules.partner_from)
    partner_required = serializers.BooleanField(default=Rules.partner_required)
    max_players = serializers.IntegerField(min_value=3, max_value=20, default=Rules.max_players)
    partner_split = serializers.ChoiceField(choices=CHOICES["partner_split"], default=Rules.partner_split)
    newcomer = serializers.ChoiceField(choices=CHOICES["newcomer"], default=Rules.newcomer)
    jacoby = serializers.BooleanField(default=Rules.jacoby)
    beaver = serializers.BooleanField(default=Rules.beaver)
    raccoon = serializers.BooleanField(default=Rules.raccoon)
    automatic_doubles = serializers.IntegerField(min_value=0, max_value=6, default=Rules.automatic_doubles)
    deals = serializers.BooleanField(
        default=Rules.deals, help_text="The box may settle with a team member during a game (docs/chouette.md, Deals)."
    )


class HidesMoney:
    """Money fields come out null unless the context says the caller may see this table's money (its players,
    also after leaving, and the club's directors): the table's games are public where its club is, its money
    is not."""

    money_fields: tuple[str, ...] = ()

    def to_representation(self, instance):
        data = super().to_representation(instance)  # type: ignore[misc]
        if not self._shows_money(instance):
            for name in self.money_fields:
                data[name] = None
        return data

    def _shows_money(self, instance) -> bool:
        return bool(self.context.get("show_money"))  # type: ignore[attr-defined]


def money_context(request, session: ChouetteSession) -> dict:
    return {"request": request, "show_money": access.may_see_money(request.user, session), "names_club": session.club}


class ChouetteSeatSerializer(HidesMoney, serializers.Serializer):
    money_fields = ("stake_cents", "cents")

    player = serializers.IntegerField(source="player.id")
    name = ShownNameField(source="player")
    position = serializers.IntegerField(allow_null=True)
    role = serializers.CharField()
    status = serializers.CharField(source="seat.status")
    stake_cents = serializers.IntegerField(source="seat.stake_cents", allow_null=True)
    rolls = serializers.ListField(child=serializers.IntegerField(), source="seat.rolls")
    points = DecimalField(max_digits=10, decimal_places=1)
    cents = serializers.IntegerField(allow_null=True)


class ChouetteSessionSerializer(HidesMoney, serializers.ModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    status = WordField(choices=SESSION_STATUSES, read_only=True)
    default_stake_cents = serializers.IntegerField(read_only=True, allow_null=True)
    stake_form = serializers.ChoiceField(source="stakes", choices=StakeForm.choices, read_only=True)
    money_fields = ("default_stake_cents",)

    def _shows_money(self, session) -> bool:
        cache = self.context.setdefault("money_by_session", {})
        if session.pk not in cache:
            request = self.context.get("request")
            cache[session.pk] = request is not None and access.may_see_money(request.user, session)
        return cache[session.pk]

    class Meta:
        model = ChouetteSession
        fields = [
            "id",
            "club",
            "name",
            "status",
            "rules",
            "variant",
            "stake_form",
            "dave_progression",
            "backward_hits",
            "head_doubles",
            "six_block",
            "default_stake_cents",
            "currency",
            "order",
            "sitting_out",
            "games_played",
            "revision",
            "created_at",
            "started_at",
            "finished_at",
        ]
        read_only_fields = fields


class ChouetteSessionDetailSerializer(ChouetteSessionSerializer):
    seats = serializers.SerializerMethodField()
    join_code = serializers.SerializerMethodField(
        help_text="The code newcomers type (or scan as a QR code) to ask for a seat: for the table's players (also "
        "after leaving) and the club's directors, who see its money (null for anyone else, and once it finished)."
    )

    class Meta(ChouetteSessionSerializer.Meta):
        fields = [*ChouetteSessionSerializer.Meta.fields, "seats", "join_code"]
        read_only_fields = fields

    def get_join_code(self, session) -> str | None:
        if session.status == SessionStatus.FINISHED:
            return None
        return session.join_code if self._shows_money(session) else None  # the same people, asked once

    @extend_schema(responses=ChouetteSeatSerializer(many=True))
    def get_seats(self, session) -> list:
        context = {**self.context, "show_money": self._shows_money(session), "names_club": session.club}
        return ChouetteSeatSerializer(selectors.standings(session), many=True, context=context).data


class ChouetteSessionCreateSerializer(serializers.Serializer):
    club = serializers.SlugRelatedField(slug_field="slug", queryset=Club.objects.all())
    players = serializers.ListField(
        child=serializers.PrimaryKeyRelatedField(queryset=Player.objects.all()),
        required=False,
        max_length=20,
        help_text="Seated at once (a director seats members; a member seats only themselves). Omitted: the caller.",
    )
    invite = serializers.ListField(
        child=serializers.PrimaryKeyRelatedField(queryset=Player.objects.all()),
        required=False,
        max_length=20,
        help_text="Members invited: each accepts or declines (POST /chouette/requests/{id}/accept/). A walk-in "
        "has no account: only a director seats one (at once).",
    )
    name = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
    stake_cents = serializers.IntegerField(min_value=1, max_value=1_000_000, default=100)
    stakes = PlayerKeyedField(
        child=serializers.IntegerField(min_value=1, max_value=1_000_000),
        required=False,
        error_messages={"key": "Key each stake by a player id."},
        help_text="Per-player stakes in cents per point, by player id (others play at stake_cents).",
    )
    currency = serializers.CharField(max_length=3, default="EUR")
    rules = ChouetteRulesSerializer(required=False)
    order = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="Player ids, box first; omit to roll for it."
    )
    variant = serializers.ChoiceField(choices=GameVariant.choices, default=GameVariant.STANDARD)
    stake_form = serializers.ChoiceField(
        choices=StakeForm.choices, default=StakeForm.CUBE, help_text="cube, or dave (standard board only)."
    )
    dave_progression = serializers.ChoiceField(choices=DaveProgression.choices, default=DaveProgression.GEOMETRIC)
    backward_hits, head_doubles, six_block = setting_serializer_fields()


class ChouetteOrderInputSerializer(serializers.Serializer):
    order = serializers.ListField(child=serializers.IntegerField(), required=False, help_text="By hand, box first.")
    rolls = PlayerKeyedField(
        child=serializers.IntegerField(min_value=1, max_value=12),
        required=False,
        error_messages={"key": "Key each roll by a player id."},
        help_text="One round of rolls by player id: first everyone, then only the players still tied.",
    )

    def validate(self, data):
        if ("order" in data) == ("rolls" in data):
            raise serializers.ValidationError({"order": ["Send either order (by hand) or rolls."]})
        return data


class ChouetteOrderResultSerializer(serializers.Serializer):
    session = ChouetteSessionDetailSerializer()
    roll_again = serializers.ListField(child=serializers.ListField(child=serializers.IntegerField()))


class ChouetteResponseSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    response = serializers.ChoiceField(choices=RESPONSES)


class ChouetteCubeEventSerializer(serializers.Serializer):
    doubler = WordField(choices=SIDES)
    responses = ChouetteResponseSerializer(many=True)


class ChouetteMemberResultSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    winner = WordField(choices=SIDES)
    kind = WordField(choices=KINDS, default="single")


class ChouetteDaveSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    stake = serializers.IntegerField(min_value=1, max_value=2**20, help_text="The final stake of this member's game.")
    gave_up = WordField(choices=GAVE_UP, required=False, allow_null=True, default=None, help_text="Who refused a Dave.")


class ChouetteDealSerializer(serializers.Serializer):
    player = serializers.IntegerField(help_text="The team member who settles with the box and leaves the game.")
    points = serializers.IntegerField(
        min_value=-3 * 4096,
        max_value=3 * 4096,
        help_text="What the member wins from the box (negative: the box wins them); at most the member's cube × 3.",
    )
    after = serializers.IntegerField(
        min_value=0,
        max_value=200,
        required=False,
        allow_null=True,
        default=None,
        help_text="How many of `events` came before the deal (omitted: after all of them).",
    )


class ChouetteClaimedSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    points = serializers.IntegerField()


class ChouetteGameInputSerializer(serializers.Serializer):
    events = ChouetteCubeEventSerializer(many=True, required=False, help_text="Doubles in the order they happened.")
    winner = WordField(choices=SIDES, required=False, allow_null=True)
    kind = WordField(choices=KINDS, default="single")
    member_results = ChouetteMemberResultSerializer(many=True, required=False)
    acting_captain = serializers.IntegerField(required=False, allow_null=True)
    partner = serializers.IntegerField(required=False, allow_null=True)
    automatic_doubles = serializers.IntegerField(min_value=0, max_value=6, default=0)
    claimed = ChouetteClaimedSerializer(
        many=True, required=False, help_text="Points as written down; checked if given."
    )
    daves = ChouetteDaveSerializer(
        many=True, required=False, help_text="Dave stakes only: each member's final stake and who gave up."
    )
    deals = ChouetteDealSerializer(
        many=True,
        required=False,
        max_length=20,
        help_text="Members who settled with the box during the game (they leave it).",
    )
    expected_number = serializers.IntegerField(min_value=1, required=False, help_text="The number of this game.")
    idempotency_key = serializers.CharField(max_length=80, required=False, allow_blank=True, default="")


class ChouetteCorrectionInputSerializer(ChouetteGameInputSerializer):
    reason = serializers.CharField(max_length=500)


class ChouetteLedgerLineSerializer(HidesMoney, serializers.ModelSerializer):
    name = ShownNameField(source="player")
    cents = serializers.IntegerField(read_only=True, allow_null=True)
    money_fields = ("cents",)

    class Meta:
        model = LedgerEntry
        fields = ["player", "name", "role", "points", "cents", "deal"]
        read_only_fields = fields


class ChouetteGameSerializer(serializers.ModelSerializer):
    number = serializers.IntegerField(source="game_number")
    entered_by = serializers.SlugRelatedField(
        source="created_by", slug_field="username", read_only=True, allow_null=True
    )
    # Loaded as `lines` by selectors.with_ledger (one game) or selectors.lines_prefetch (a list).
    ledger = ChouetteLedgerLineSerializer(source="lines", many=True, read_only=True)

    class Meta:
        model = SessionEvent
        fields = ["number", "version", "payload", "reason", "entered_by", "created_at", "ledger"]
        read_only_fields = fields


class ChouetteEventSerializer(serializers.ModelSerializer):
    entered_by = serializers.SlugRelatedField(
        source="created_by", slug_field="username", read_only=True, allow_null=True
    )
    retired_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    kind = WordField(choices=EVENT_KINDS, read_only=True)

    class Meta:
        model = SessionEvent
        fields = [
            "seq",
            "version",
            "kind",
            "player",
            "game_number",
            "payload",
            "is_current",
            "retired_reason",
            "reason",
            "entered_by",
            "created_at",
            "retired_by",
            "retired_at",
        ]
        read_only_fields = fields


class ChouetteUndoInputSerializer(serializers.Serializer):
    expected_number = serializers.IntegerField(min_value=1, required=False)


class ChouetteSeatInputSerializer(serializers.Serializer):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    action = serializers.ChoiceField(choices=["join", "sit_out", "come_back", "leave"], default="join")
    stake_cents = serializers.IntegerField(min_value=1, max_value=1_000_000, required=False)


class ChouetteTransferSerializer(serializers.ModelSerializer):
    payer_name = ShownNameField(source="payer", club="session.club")
    payee_name = ShownNameField(source="payee", club="session.club")
    kind = WordField(choices=TRANSFER_KINDS, read_only=True)

    class Meta:
        model = Transfer
        fields = ["kind", "payer", "payer_name", "payee", "payee_name", "cents", "created_at"]
        read_only_fields = fields


class ChouetteLiveStateSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.CharField()
    revision = serializers.IntegerField()
    games_played = serializers.IntegerField()
    next_game = serializers.IntegerField()
    order = serializers.ListField(child=serializers.DictField())
    sitting_out = serializers.ListField(child=serializers.DictField())
    totals_cents = serializers.ListField(child=serializers.DictField())


class ChouetteBalanceSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    player__name = serializers.CharField()
    cents = serializers.IntegerField()
    sessions = serializers.IntegerField()


REQUEST_KINDS = list(RequestKind.values)
REQUEST_STATUSES = list(RequestStatus.values)


class ChouetteRequestSerializer(serializers.ModelSerializer):
    """An invitation (the invited player accepts or declines) or a join request (the table's opener or a
    director of the club approves or refuses)."""

    session = serializers.IntegerField(source="session_id", read_only=True)
    club = serializers.CharField(source="session.club.slug", read_only=True)
    table = serializers.CharField(source="session.__str__", read_only=True)
    name = ShownNameField(source="player", club="session.club")
    kind = WordField(choices=REQUEST_KINDS, read_only=True)
    status = WordField(choices=REQUEST_STATUSES, read_only=True)
    asked_by = serializers.SlugRelatedField(source="created_by", slug_field="username", read_only=True, allow_null=True)

    class Meta:
        model = TableRequest
        fields = ["id", "session", "club", "table", "player", "name", "kind", "status", "asked_by", "created_at"]
        read_only_fields = fields


class ChouetteInviteInputSerializer(serializers.Serializer):
    players = serializers.ListField(
        child=serializers.PrimaryKeyRelatedField(queryset=Player.objects.all()),
        allow_empty=False,
        min_length=1,  # said in the schema too (minItems), so a client knows an empty list is refused
        max_length=20,
    )


class ChouetteJoinInputSerializer(serializers.Serializer):
    code = serializers.CharField(max_length=12, help_text="The table's join code (case and spaces do not matter).")


def _game_payload(data: dict) -> dict:
    return {k: v for k, v in data.items() if k not in ("expected_number", "idempotency_key", "reason")}


def _game_answer(request, session: ChouetteSession, event: SessionEvent) -> dict:
    return ChouetteGameSerializer(selectors.with_ledger(event), context=money_context(request, session)).data


class SessionViewSet(JSONTypedInput, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Chouette sessions at the clubs the caller can see. Players at the table and club directors write."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    queryset = ChouetteSession.objects.none()

    def get_queryset(self):
        sessions = selectors.visible_sessions(user=self.request.user)
        club = self.request.query_params.get("club")
        if club:
            sessions = sessions.filter(club__slug=club)
        status_filter = self.request.query_params.get("status")
        if status_filter is not None:
            if status_filter not in SessionStatus.values:  # an unknown status listed nothing, as if none matched
                raise serializers.ValidationError(
                    {"status": [_("Choose one of %(values)s.") % {"values": ", ".join(SessionStatus.values)}]}
                )
            sessions = sessions.filter(status=status_filter)
        return sessions.order_by("-created_at", "-id")

    def get_object(self):
        """The one session a detail action names, found with selectors.visible_session (the list's rule applied to
        the row read by id) instead of the list's query; with the list's own filters in the query string the list
        decides, as before."""
        params = self.request.query_params
        if "club" in params or "status" in params:
            return super().get_object()
        pk = self.kwargs.get(self.lookup_url_kwarg or self.lookup_field)
        session = selectors.visible_session(user=self.request.user, pk=pk)
        if session is None:
            raise Http404
        self.check_object_permissions(self.request, session)
        return session

    def get_serializer_class(self):
        return ChouetteSessionDetailSerializer if self.action == "retrieve" else ChouetteSessionSerializer

    @extend_schema(
        parameters=[
            OpenApiParameter("club", str, description="Club slug"),
            OpenApiParameter("status", str, enum=SessionStatus.values),
        ]
    )
    def list(self, request, *args, **kwargs):
        return super().list(request, *args, **kwargs)

    @extend_schema(request=ChouetteSessionCreateSerializer, responses={201: ChouetteSessionDetailSerializer})
    def create(self, request, *args, **kwargs):
        values = validated(ChouetteSessionCreateSerializer, request)
        club = values.pop("club")
        if not club_selectors.can_see_club(user=request.user, club=club):
            raise serializers.ValidationError({"club": ["No such club."]})
        session = services.create_session(
            actor=request.user,
            club=club,
            players=values.get("players") or [],
            invite=values.get("invite") or [],
            stake_cents=values["stake_cents"],
            stakes=values.get("stakes"),
            rules=values.get("rules"),
            name=values["name"],
            currency=values["currency"],
            order=values.get("order"),
            variant=values["variant"],
            stake_form=values["stake_form"],
            dave_progression=values["dave_progression"],
            backward_hits=values["backward_hits"],
            head_doubles=values["head_doubles"],
            six_block=values["six_block"],
        )
        return Response(
            ChouetteSessionDetailSerializer(session, context={"request": request}).data, status=status.HTTP_201_CREATED
        )

    @extend_schema(request=ChouetteOrderInputSerializer, responses=ChouetteOrderResultSerializer)
    @action(detail=True, methods=["post"])
    def order(self, request, pk=None):
        data = validated(ChouetteOrderInputSerializer, request)
        session = self.get_object()
        ties = []
        if "order" in data:
            session = services.set_order(actor=request.user, session=session, order=data["order"])
        else:
            rolls = data["rolls"]
            session, ties = services.roll_for_order(actor=request.user, session=session, rolls=rolls)
        session.refresh_from_db()
        return Response(
            {"session": ChouetteSessionDetailSerializer(session, context={"request": request}).data, "roll_again": ties}
        )

    @extend_schema(responses=ChouetteLiveStateSerializer)
    @action(detail=True, methods=["get"])
    def live(self, request, pk=None):
        """The small state a table's phones poll (revision grows with every change)."""
        session = self.get_object()
        return Response(
            selectors.live_state(session, show_money=access.may_see_money(request.user, session), viewer=request.user)
        )

    @idempotent
    @extend_schema(methods=["get"], responses=ChouetteGameSerializer(many=True))
    @extend_schema(
        methods=["post"],
        request=ChouetteGameInputSerializer,
        responses={201: ChouetteGameSerializer, 200: ChouetteGameSerializer},
        description="Enter the next game. The same idempotency_key answers with the first entry (200); "
        "an expected_number that is no longer next answers 409.",
    )
    @action(detail=True, methods=["get", "post"])
    def games(self, request, pk=None):
        session = self.get_object()
        if request.method == "GET":
            games = selectors.current_games(session).select_related("created_by")
            games = games.prefetch_related(selectors.lines_prefetch())
            rows = games.order_by("game_number")
            context = money_context(request, session)
            return paginated_response(self, rows, ChouetteGameSerializer, context=context)
        values = validated(ChouetteGameInputSerializer, request)
        event, created = services.record_game(
            actor=request.user,
            session=session,
            game=_game_payload(values),
            expected_number=values.get("expected_number"),
            idempotency_key=values["idempotency_key"],
        )
        code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        return Response(_game_answer(request, session, event), status=code)

    @extend_schema(request=ChouetteUndoInputSerializer, responses=ChouetteGameSerializer)
    @action(detail=True, methods=["post"], url_path="games/undo")
    def undo(self, request, pk=None):
        data = validated(ChouetteUndoInputSerializer, request)
        session = self.get_object()
        event = services.undo_last_game(actor=request.user, session=session, **data)
        return Response(_game_answer(request, session, event))

    @extend_schema(request=ChouetteCorrectionInputSerializer, responses=ChouetteGameSerializer)
    @action(detail=True, methods=["post"], url_path=r"games/(?P<number>[0-9]+)/correct")
    def correct(self, request, pk=None, number=None):
        data = validated(ChouetteCorrectionInputSerializer, request)
        session = self.get_object()
        event = services.correct_game(
            actor=request.user,
            session=session,
            number=int(number),
            game=_game_payload(data),
            reason=data["reason"],
        )
        return Response(_game_answer(request, session, event))

    @extend_schema(responses=ChouetteEventSerializer(many=True))
    @action(detail=True, methods=["get"])
    def history(self, request, pk=None):
        """Every event and every version of it (the audit trail)."""
        return paginated_response(self, selectors.history(self.get_object()), ChouetteEventSerializer)

    @extend_schema(request=ChouetteSeatInputSerializer, responses={200: ChouetteSessionDetailSerializer})
    @action(detail=True, methods=["post"])
    def seats(self, request, pk=None):
        """Join (a newcomer or someone coming back), sit out, come back, or leave (cashed out at once)."""
        values = validated(ChouetteSeatInputSerializer, request)
        session = self.get_object()
        act = values["action"]
        if act == "join":
            services.join(
                actor=request.user, session=session, player=values["player"], stake_cents=values.get("stake_cents")
            )
        elif act == "sit_out":
            services.sit_out(actor=request.user, session=session, player=values["player"])
        elif act == "come_back":
            services.come_back(actor=request.user, session=session, player=values["player"])
        else:
            services.leave(actor=request.user, session=session, player=values["player"])
        session.refresh_from_db()
        return Response(ChouetteSessionDetailSerializer(session, context={"request": request}).data)

    @extend_schema(responses=ChouetteRequestSerializer(many=True))
    # At most a table's size of pending requests (invitations are bounded by the free seats): not a page.
    @action(detail=True, methods=["get"], pagination_class=None)
    def requests(self, request, pk=None):
        """The invitations and join requests waiting for an answer at this table."""
        return Response(
            ChouetteRequestSerializer(
                selectors.pending_requests(self.get_object()), many=True, context={"request": request}
            ).data
        )

    @idempotent
    @extend_schema(request=ChouetteInviteInputSerializer, responses={201: ChouetteRequestSerializer(many=True)})
    @action(detail=True, methods=["post"], pagination_class=None)
    def invitations(self, request, pk=None):
        """Invite members (the table's players and the club's directors): each accepts or declines on their
        own phone. A director's walk-ins sit down at once (no invitation is made for them)."""
        values = validated(ChouetteInviteInputSerializer, request)
        session = self.get_object()
        made = services.invite(actor=request.user, session=session, players=values["players"])
        return Response(
            ChouetteRequestSerializer(made, many=True, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(methods=["get"], responses=ChouetteTransferSerializer(many=True))
    @extend_schema(methods=["post"], request=None, responses=ChouetteTransferSerializer(many=True))
    # A few transfers per player at the table (cash-outs, then the settlement): a small array, not a page.
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def settlement(self, request, pk=None):
        """GET: cash-outs and settlement transfers so far (the table's players and the club's directors).
        POST: finish the session and settle it."""
        session = self.get_object()
        if request.method == "POST":
            services.finish_session(actor=request.user, session=session)
        elif not access.may_see_money(request.user, session):
            raise PermissionDenied(_("Only the players of this table and the club's directors see its money."))
        return Response(
            ChouetteTransferSerializer(selectors.settlement(session), many=True, context={"request": request}).data
        )


class RequestViewSet(viewsets.ReadOnlyModelViewSet):
    """What waits for the caller at tables not finished: invitations to them (accept, decline), join requests
    they may answer (approve, refuse: the table's opener and the club's directors) and their own join requests.
    A request nobody lets the caller see is 404, whoever's it is."""

    permission_classes = [IsAuthenticated]
    serializer_class = ChouetteRequestSerializer
    queryset = TableRequest.objects.none()

    def get_queryset(self):
        return selectors.requests_for(user=self.request.user)

    def get_object(self):
        found = selectors.request_for(user=self.request.user, pk=self.kwargs.get("pk"))
        if found is None:
            raise Http404
        return found

    def _answered(self, request, row):
        return Response(ChouetteRequestSerializer(row, context={"request": request}).data)

    @idempotent
    @extend_schema(request=None, responses=ChouetteRequestSerializer)
    @action(detail=True, methods=["post"])
    def accept(self, request, pk=None):
        """The invited player accepts and sits down (as a newcomer once the table plays)."""
        row = services.answer_invitation(actor=request.user, request=self.get_object(), accept=True)
        return self._answered(request, row)

    @idempotent
    @extend_schema(request=None, responses=ChouetteRequestSerializer)
    @action(detail=True, methods=["post"])
    def decline(self, request, pk=None):
        row = services.answer_invitation(actor=request.user, request=self.get_object(), accept=False)
        return self._answered(request, row)

    @idempotent
    @extend_schema(request=None, responses=ChouetteRequestSerializer)
    @action(detail=True, methods=["post"])
    def approve(self, request, pk=None):
        """The table's opener or a director of the club lets the player sit down (as a newcomer)."""
        row = services.answer_join_request(actor=request.user, request=self.get_object(), approve=True)
        return self._answered(request, row)

    @idempotent
    @extend_schema(request=None, responses=ChouetteRequestSerializer)
    @action(detail=True, methods=["post"])
    def refuse(self, request, pk=None):
        row = services.answer_join_request(actor=request.user, request=self.get_object(), approve=False)
        return self._answered(request, row)


class JoinViewSet(viewsets.ViewSet):  # `validated` checks the JSON types (no DRF mixin here)
    """Ask for a seat by a table's join code: a join request for the opener or a director to approve."""

    permission_classes = [IsAuthenticated]

    @idempotent
    @extend_schema(
        request=ChouetteJoinInputSerializer,
        responses={201: ChouetteRequestSerializer, 200: ChouetteRequestSerializer},
        description="201: a new join request. 200: the request already waiting, or (status accepted) the table "
        "had invited the caller and they sit down now. A code that names no open table of the caller's clubs is "
        "404 (mistyped, finished or another club's alike); a full table 409; after 10 such codes within 15 "
        "minutes every code is refused (409 join_code_attempts) for the rest of the window.",
    )
    def create(self, request):
        values = validated(ChouetteJoinInputSerializer, request)
        row, new = services.join_by_code(actor=request.user, code=values["code"])
        seated_now = row.status == RequestStatus.ACCEPTED
        code = status.HTTP_201_CREATED if new and not seated_now else status.HTTP_200_OK
        return Response(ChouetteRequestSerializer(row, context={"request": request}).data, status=code)


class ClubBalancesViewSet(viewsets.ViewSet):
    """Lifetime chouette balances at a club (cents, all sessions): every player's for its directors, a player's
    own for them, none for anyone else."""

    @extend_schema(responses=ChouetteBalanceSerializer(many=True))
    def list(self, request, slug):
        club = get_object_or_404(club_selectors.visible_clubs(user=request.user), slug=slug)
        return Response(
            ChouetteBalanceSerializer(selectors.club_balances(club=club, user=request.user), many=True).data
        )
