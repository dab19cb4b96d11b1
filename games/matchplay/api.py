"""REST endpoints for match play (under /api/v1/matches/): matches, their games, reports, confirmations,
disputes, director override and annulment."""

import django_filters
from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response

from base.api import JSONTypedInput, paginated_response, validated
from base.filters import IdFilter
from base.idempotency import idempotent
from clubs import access
from clubs import selectors as club_selectors
from clubs.api import ShownNameField
from clubs.models import Club, Player
from games.matchplay import selectors, services
from games.models.matches import (
    INVITATION_DAYS,
    Match,
    MatchContext,
    MatchDispute,
    MatchGame,
    MatchOutcome,
    MatchReport,
    ReportMethod,
    ReportSource,
)
from games.models.variants import (
    DEFAULT_FORM,
    BackwardHits,
    DaveProgression,
    GameVariant,
    HeadDoubles,
    SixBlock,
    StakeForm,
)


def client_ip(request) -> str | None:
    return request.META.get("REMOTE_ADDR") or None


class MatchSerializer(serializers.ModelSerializer):
    player_a_name = ShownNameField(source="player_a", club="club")
    player_b_name = ShownNameField(source="player_b", club="club")
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True)
    outcome = serializers.ChoiceField(
        choices=MatchOutcome.choices, read_only=True, allow_blank=True, help_text="Empty until a result stands."
    )

    class Meta:
        model = Match
        fields = [
            "id",
            "player_a",
            "player_a_name",
            "player_b",
            "player_b_name",
            "length",
            "variant",
            "stakes",
            "dave_progression",
            "backward_hits",
            "head_doubles",
            "six_block",
            "crawford_rule",
            "holland_rule",
            "context",
            "club",
            "is_public",
            "status",
            "scheduled_at",
            "started_at",
            "finished_at",
            "penalty_a",
            "penalty_b",
            "outcome",
            "winner",
            "score_a",
            "score_b",
            "rated",
        ]
        read_only_fields = fields


class MatchStateSerializer(serializers.Serializer):
    length = serializers.IntegerField()
    scores = serializers.ListField(child=serializers.IntegerField())
    away = serializers.ListField(child=serializers.IntegerField())
    games_played = serializers.IntegerField()
    phase = serializers.ChoiceField(choices=["normal", "crawford", "post_crawford", "decided"])
    crawford_game = serializers.BooleanField()
    post_crawford = serializers.BooleanField()
    cube_allowed = serializers.BooleanField()
    is_over = serializers.BooleanField()
    winner_side = serializers.IntegerField(allow_null=True)
    variant = serializers.ChoiceField(choices=GameVariant.choices)
    stakes = serializers.ChoiceField(choices=StakeForm.choices)


class MatchDetailSerializer(MatchSerializer):
    state = serializers.SerializerMethodField()

    class Meta(MatchSerializer.Meta):
        fields = [*MatchSerializer.Meta.fields, "state"]
        read_only_fields = fields

    @extend_schema(responses=MatchStateSerializer)
    def get_state(self, match) -> dict:
        return selectors.live_state(match)


def setting_serializer_fields(*, inherit: bool = False) -> tuple[serializers.ChoiceField, ...]:
    """The variant settings as API fields (matches, flights, chouette sessions): backward_hits, head_doubles,
    six_block. `inherit` (a flight): not given means the source flight's, else the default."""
    fields = []
    for name, choices, game in (
        ("backward_hits", BackwardHits, "backward"),
        ("head_doubles", HeadDoubles, "long_nardy"),
        ("six_block", SixBlock, "long_nardy"),
    ):
        if inherit:
            extra = {
                "required": False,
                "help_text": f"{game} only; default: the source flight's, else {DEFAULT_FORM[name]}.",
            }
        else:
            extra = {"default": DEFAULT_FORM[name], "help_text": f"{game} only."}
        fields.append(serializers.ChoiceField(choices=choices.choices, **extra))
    return tuple(fields)


class MatchCreateSerializer(serializers.Serializer):
    player_a = serializers.PrimaryKeyRelatedField(queryset=Player.objects.none())
    player_b = serializers.PrimaryKeyRelatedField(queryset=Player.objects.none())
    length = serializers.IntegerField(min_value=1, max_value=99)
    variant = serializers.ChoiceField(choices=GameVariant.choices, default=GameVariant.STANDARD)
    stakes = serializers.ChoiceField(
        choices=StakeForm.choices, default=StakeForm.CUBE, help_text="dave: standard board only."
    )
    dave_progression = serializers.ChoiceField(choices=DaveProgression.choices, default=DaveProgression.GEOMETRIC)
    backward_hits, head_doubles, six_block = setting_serializer_fields()
    context = serializers.ChoiceField(choices=MatchContext.choices, default=MatchContext.CASUAL)
    club = serializers.SlugRelatedField(slug_field="slug", queryset=Club.objects.all(), required=False, allow_null=True)
    crawford_rule = serializers.BooleanField(default=True)
    holland_rule = serializers.BooleanField(default=False)
    is_public = serializers.BooleanField(default=True)
    scheduled_at = serializers.DateTimeField(required=False, allow_null=True)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Only a player the caller may see can be named (clubs.selectors.visible_players): any other id is
        # answered as an id that does not exist, so the answer names nobody the caller could not see already.
        request = self.context.get("request")
        if request is not None:
            players = club_selectors.visible_players(user=request.user)
            self.fields["player_a"].queryset = players
            self.fields["player_b"].queryset = players


class GameSerializer(serializers.ModelSerializer):
    class Meta:
        model = MatchGame
        fields = ["number", "winner_side", "kind", "cube", "resign_level", "points", "score_a_after", "score_b_after"]
        read_only_fields = fields


class GameInputSerializer(serializers.Serializer):
    winner_side = serializers.ChoiceField(choices=[0, 1], help_text="0 = player A, 1 = player B")
    kind = serializers.ChoiceField(choices=MatchGame.Kind.choices, default=MatchGame.Kind.SINGLE)
    cube = serializers.IntegerField(
        min_value=1,
        max_value=2**16,
        default=1,
        help_text="Final cube; for a drop the value before. Long nardy: always 1 (oin, mars or resign). Dave "
        "stakes: the stake the game paid (single, drop = gave up, resign).",
    )
    resign_level = serializers.IntegerField(min_value=1, max_value=3, required=False, allow_null=True)


class ReportSerializer(serializers.ModelSerializer):
    submitted_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    confirmed_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)

    class Meta:
        model = MatchReport
        fields = [
            "version",
            "submitted_by",
            "role",
            "source",
            "origin",
            "method",
            "outcome",
            "winner",
            "score_a",
            "score_b",
            "rated",
            "games",
            "game_record_id",
            "comment",
            "created_at",
            "confirmed",
            "confirmed_by",
            "confirmed_at",
            "retired",
        ]
        read_only_fields = fields


class ReportInputSerializer(serializers.Serializer):
    method = serializers.ChoiceField(choices=ReportMethod.choices)
    outcome = serializers.ChoiceField(choices=MatchOutcome.choices, default=MatchOutcome.PLAYED)
    score_a = serializers.IntegerField(min_value=0, max_value=9999, required=False)
    score_b = serializers.IntegerField(min_value=0, max_value=9999, required=False)
    winner_side = serializers.ChoiceField(choices=[0, 1], required=False, allow_null=True)
    game_record = serializers.IntegerField(
        min_value=1, max_value=2**31 - 1, required=False, help_text="Id of a verified game record."
    )
    comment = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000)
    idempotency_key = serializers.CharField(required=False, allow_blank=True, default="", max_length=80)

    def validate(self, data):
        if ("score_a" in data) != ("score_b" in data):
            raise serializers.ValidationError({"score_b": ["Give both scores, score_a and score_b."]})
        return data


class VersionInputSerializer(serializers.Serializer):
    version = serializers.IntegerField(min_value=1, max_value=2**31 - 1)


class DisputeInputSerializer(VersionInputSerializer):
    comment = serializers.CharField(max_length=2000)


class DisputeSerializer(serializers.ModelSerializer):
    version = serializers.IntegerField(source="report.version", read_only=True)
    raised_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)

    class Meta:
        model = MatchDispute
        fields = ["id", "version", "raised_by", "comment", "created_at", "resolved_at"]
        read_only_fields = fields


class LatenessInputSerializer(serializers.Serializer):
    late_side = serializers.ChoiceField(choices=[0, 1], help_text="0 = player A was late, 1 = player B")
    minutes_late = serializers.FloatField(min_value=0, max_value=24 * 60)


class AnnulInputSerializer(serializers.Serializer):
    comment = serializers.CharField(max_length=2000)


class MatchFilter(django_filters.FilterSet):
    club = django_filters.CharFilter(field_name="club__slug", label="Club slug")
    player = IdFilter(method="filter_player", label="Player id (either side)")

    class Meta:
        model = Match
        fields = ["status", "context", "club", "rated", "player"]

    def filter_player(self, queryset, name, value):
        return queryset.filter(player_a=value) | queryset.filter(player_b=value)


class MatchViewSet(JSONTypedInput, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Matches the caller may see. Creating: directors at their club, or a player for a casual match."""

    permission_classes = [IsAuthenticatedOrReadOnly, access.Can]
    # The services require the same actions; asking here first answers before any body is parsed.
    access_actions = {
        "start": "match.play",
        "games": "match.play",
        "undo": "match.play",
        "reports": "match.play",
        "confirm": "match.play",
        "disputes": "match.dispute",
        "override": "match.override",
        "annul": "match.direct",
        "lateness": "match.direct",
        "accept": "match.accept",
        "decline": "match.decline",
        "withdraw": "match.withdraw",
    }
    filterset_class = MatchFilter

    def get_queryset(self):
        return selectors.visible_matches(user=self.request.user).order_by("-created_at", "-id")

    def get_object(self):
        """The match a detail route names, when the caller may see it (404 otherwise, as the list's lookup
        answered), then the object permissions. Read by `selectors.visible_match`, without the list's query
        and filters: a report or a confirmation built that query on every request."""
        match = selectors.visible_match(user=self.request.user, pk=self.kwargs.get(self.lookup_url_kwarg or "pk"))
        if match is None:
            raise Http404
        self.check_object_permissions(self.request, match)
        return match

    def get_serializer_class(self):
        return MatchDetailSerializer if self.action == "retrieve" else MatchSerializer

    @extend_schema(
        request=MatchCreateSerializer,
        responses={201: MatchDetailSerializer},
        description="A casual match a player creates is an invitation (status `invited`): only the two players see "
        "it, and nothing can be played or reported, until the other player accepts it (`accept`); they may "
        f"`decline` it, the creator may `withdraw` it, and unanswered it expires after {INVITATION_DAYS} days. A "
        "player the caller may not see is answered as an id that does not exist.",
    )
    def create(self, request, *args, **kwargs):
        values = validated(MatchCreateSerializer, request, context={"request": request})
        club = values.get("club")
        if club is not None and not club_selectors.can_see_club(user=request.user, club=club):
            raise serializers.ValidationError({"club": ["No such club."]})
        match = services.create_match(actor=request.user, **values)
        return Response(MatchDetailSerializer(match).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses=MatchDetailSerializer, description="The invited player accepts.")
    @action(detail=True, methods=["post"])
    def accept(self, request, pk=None):
        match = services.accept_invitation(actor=request.user, match=self.get_object())
        return Response(MatchDetailSerializer(match).data)

    @extend_schema(
        request=None, responses={204: None}, description="The invited player declines: the match is deleted."
    )
    @action(detail=True, methods=["post"])
    def decline(self, request, pk=None):
        services.decline_invitation(actor=request.user, match=self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        request=None, responses={204: None}, description="The inviter takes the invitation back: it is deleted."
    )
    @action(detail=True, methods=["post"])
    def withdraw(self, request, pk=None):
        services.withdraw_invitation(actor=request.user, match=self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=None, responses=MatchDetailSerializer)
    @action(detail=True, methods=["post"])
    def start(self, request, pk=None):
        match = services.start_match(actor=request.user, match=self.get_object())
        return Response(MatchDetailSerializer(match).data)

    @extend_schema(methods=["get"], responses=GameSerializer(many=True))
    @extend_schema(methods=["post"], request=GameInputSerializer, responses={201: GameSerializer})
    # Bounded by the match length (each game scores at least a point), so the games come as one array.
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def games(self, request, pk=None):
        match = self.get_object()
        if request.method == "GET":
            return Response(GameSerializer(selectors.match_games(match), many=True).data)
        data = validated(GameInputSerializer, request)
        game = services.record_game(actor=request.user, match=match, **data)
        return Response(GameSerializer(game).data, status=status.HTTP_201_CREATED)

    @idempotent
    @extend_schema(methods=["get"], responses=ReportSerializer(many=True))
    @extend_schema(
        methods=["post"],
        request=ReportInputSerializer,
        responses={201: ReportSerializer, 200: ReportSerializer},
        description="Report a result (a new version). The same idempotency_key returns the first report (200).",
    )
    @action(detail=True, methods=["get", "post"])
    def reports(self, request, pk=None):
        match = self.get_object()
        if request.method == "GET":
            reports = selectors.match_reports(match)
            return paginated_response(self, reports, ReportSerializer)
        return self._report(request, match, as_director=False)

    def _report(self, request, match, *, as_director: bool):
        values = validated(ReportInputSerializer, request)
        scores = (values["score_a"], values["score_b"]) if "score_a" in values else None
        report, created = services.submit_report(
            actor=request.user,
            match=match,
            method=values["method"],
            outcome=values["outcome"],
            scores=scores,
            winner_side=values.get("winner_side"),
            game_record_id=values.get("game_record"),
            comment=values["comment"],
            source=ReportSource.API,
            ip_address=client_ip(request),
            idempotency_key=values["idempotency_key"],
            as_director=as_director,
        )
        return Response(
            ReportSerializer(report).data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK
        )

    @idempotent
    @extend_schema(request=VersionInputSerializer, responses=ReportSerializer)
    @action(detail=True, methods=["post"])
    def confirm(self, request, pk=None):
        data = validated(VersionInputSerializer, request)
        report = services.confirm_report(actor=request.user, match=self.get_object(), **data)
        return Response(ReportSerializer(report).data)

    @idempotent
    @extend_schema(methods=["get"], responses=DisputeSerializer(many=True))
    @extend_schema(methods=["post"], request=DisputeInputSerializer, responses={201: DisputeSerializer})
    @action(detail=True, methods=["get", "post"])
    def disputes(self, request, pk=None):
        match = self.get_object()
        if request.method == "GET":
            disputes = selectors.match_disputes(match)
            return paginated_response(self, disputes, DisputeSerializer)
        data = validated(DisputeInputSerializer, request)
        dispute = services.dispute_report(actor=request.user, match=match, **data)
        return Response(DisputeSerializer(dispute).data, status=status.HTTP_201_CREATED)

    @idempotent
    @extend_schema(request=ReportInputSerializer, responses={201: ReportSerializer})
    @action(detail=True, methods=["post"])
    def override(self, request, pk=None):
        """A director sets the result; it is confirmed at once and retires every other version."""
        match = self.get_object()
        return self._report(request, match, as_director=True)

    @extend_schema(request=AnnulInputSerializer, responses={201: ReportSerializer})
    @action(detail=True, methods=["post"])
    def annul(self, request, pk=None):
        data = validated(AnnulInputSerializer, request)
        report = services.annul_match(
            actor=request.user,
            match=self.get_object(),
            comment=data["comment"],
            source=ReportSource.API,
            ip_address=client_ip(request),
        )
        return Response(ReportSerializer(report).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=LatenessInputSerializer,
        responses=MatchDetailSerializer,
        description="Penalty points for a late player (1 per full 5 minutes), before the first game; when they "
        "exceed half the match length the opponent wins by forfeit (not rated).",
    )
    @action(detail=True, methods=["post"])
    def lateness(self, request, pk=None):
        data = validated(LatenessInputSerializer, request)
        match = services.record_lateness(actor=request.user, match=self.get_object(), source=ReportSource.API, **data)
        return Response(MatchDetailSerializer(match).data)
