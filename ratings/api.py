"""REST endpoints for ratings, standings and ladders (under /api/v1/ratings/; an event's points: points.api)."""

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status, viewsets
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response

from base.api import validated
from base.numbers import MAX_ID, parse_id
from clubs import selectors as club_selectors
from clubs.api import ShownNameField
from ratings import selectors
from ratings.models import (
    ClubSeason,
    Ladder,
    LadderChallenge,
    PlayerRating,
    PointsScheme,
)
from ratings.services import ladders as ladder_services
from ratings.services import pools, seasons

CLUB_PARAM = OpenApiParameter("club", str, description="Club short name: that club's pool (default: overall)")


def _club(request, slug):
    return get_object_or_404(club_selectors.visible_clubs(user=request.user), slug=slug)


def _club_from_query(request):
    slug = request.query_params.get("club")
    return _club(request, slug) if slug else None


def _player(request, pk):
    return get_object_or_404(club_selectors.visible_players(user=request.user), pk=pk)


# --- ratings ---------------------------------------------------------------------------------------------


class PlayerRatingSerializer(serializers.ModelSerializer):
    player_name = ShownNameField(source="player", club="pool.club")
    club = serializers.SerializerMethodField()

    class Meta:
        model = PlayerRating
        fields = ["player", "player_name", "club", "rating", "experience", "matches", "wins", "last_played_at"]

    def get_club(self, rating) -> str | None:
        return rating.pool.club.slug if rating.pool.club_id else None


class HistoryRowSerializer(serializers.Serializer):
    match = serializers.IntegerField(source="match_id")
    played_at = serializers.DateTimeField(source="row.played_at")
    opponent = serializers.IntegerField(source="opponent_id")
    opponent_name = serializers.CharField()
    won = serializers.BooleanField()
    length = serializers.IntegerField(source="row.length")
    rating_before = serializers.FloatField()
    opponent_rating = serializers.FloatField()
    experience_before = serializers.IntegerField()
    difference = serializers.FloatField(source="row.difference")
    upset_probability = serializers.FloatField(source="row.upset_probability")
    win_probability = serializers.FloatField()
    k = serializers.FloatField()
    change = serializers.FloatField()
    rating_after = serializers.FloatField()


class PlayerRatingPageSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    club = serializers.CharField(allow_null=True)
    rating = serializers.FloatField()
    history = HistoryRowSerializer(many=True)


class HeadToHeadMatchSerializer(serializers.Serializer):
    match = serializers.IntegerField(source="match_id")
    played_at = serializers.DateTimeField()
    winner = serializers.IntegerField(source="winner_id")
    length = serializers.IntegerField()
    winner_change = serializers.FloatField()
    loser_change = serializers.FloatField()


class HeadToHeadSerializer(serializers.Serializer):
    player_a = serializers.IntegerField()
    player_b = serializers.IntegerField()
    wins_a = serializers.IntegerField()
    wins_b = serializers.IntegerField()
    net_rating_a = serializers.FloatField()
    rating_a = serializers.FloatField()
    rating_b = serializers.FloatField()
    matches = HeadToHeadMatchSerializer(many=True, source="rows")


class RecomputeSerializer(serializers.Serializer):
    detail = serializers.CharField()


class MergeVariantsSerializer(serializers.Serializer):
    merge_variants = serializers.BooleanField(
        help_text="True: every variant's results are rated in the club's standard pool; false: a pool per variant."
    )


# --- standings -------------------------------------------------------------------------------------------


class StandingSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player.pk")
    player_name = ShownNameField(source="player")
    points = serializers.FloatField()
    events = serializers.IntegerField()
    rating = serializers.FloatField()
    matches = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_share = serializers.FloatField(allow_null=True)


# Ratings, head-to-head and the club leaderboard are public with the club; a recompute needs a signed-in caller
# and is checked by the service (a director). No class docstrings on these ViewSets: the schema would repeat one
# as the description of every operation.
class RatingViewSet(viewsets.ViewSet):
    def get_permissions(self):
        return [IsAuthenticated()] if self.action in ("recompute", "merge_variants") else [AllowAny()]

    @extend_schema(
        parameters=[CLUB_PARAM], responses=PlayerRatingSerializer(many=True), summary="Top ratings of a pool"
    )
    def list(self, request):
        club = _club_from_query(request)
        if club is None:
            rows = selectors.overall_top(user=request.user)
        else:
            rows = selectors.club_top_ratings(club=club, limit=100)
        return Response(PlayerRatingSerializer(rows, many=True, context={"request": request}).data)

    @extend_schema(
        parameters=[CLUB_PARAM],
        responses=PlayerRatingPageSerializer,
        summary="A player's rating and every rated match with its explanation",
    )
    def player(self, request, pk):
        player = _player(request, pk)
        club = _club_from_query(request)
        rating, history = selectors.rating_and_history(player=player, club=club, user=request.user)
        data = {"player": player.pk, "club": club.slug if club else None, "rating": rating, "history": history}
        return Response(PlayerRatingPageSerializer(data).data)

    @extend_schema(parameters=[CLUB_PARAM], responses=HeadToHeadSerializer, summary="Head-to-head of two players")
    def head_to_head(self, request, pk, other):
        player_a, player_b = _player(request, pk), _player(request, other)
        club = _club_from_query(request)
        summary = selectors.head_to_head(
            player_a=player_a, player_b=player_b, pool=selectors.pool_for(club=club), user=request.user
        )
        summary |= {
            "player_a": player_a.pk,
            "player_b": player_b.pk,
            "rating_a": summary["ratings"][player_a.pk],
            "rating_b": summary["ratings"][player_b.pk],
        }
        return Response(HeadToHeadSerializer(summary).data)

    @extend_schema(
        request=MergeVariantsSerializer,
        responses=MergeVariantsSerializer,
        summary="Merge the variants into the club's standard pool, or rate each in its own pool",
    )
    def merge_variants(self, request, slug):
        club = _club(request, slug)
        values = validated(MergeVariantsSerializer, request)
        pool = pools.set_merge_variants(actor=request.user, club=club, merge=values["merge_variants"])
        return Response(MergeVariantsSerializer({"merge_variants": pool.merge_variants}).data)

    @extend_schema(request=None, responses={202: RecomputeSerializer}, summary="Rebuild a club's rating pool")
    def recompute(self, request, slug):
        club = _club(request, slug)
        pools.request_full_recompute(actor=request.user, pool=pools.club_pool(club.pk))
        return Response(
            {"detail": _("Recompute queued: the ratings are rebuilt in a moment.")}, status=status.HTTP_202_ACCEPTED
        )

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "season",
                {"type": "integer", "minimum": 1, "maximum": MAX_ID},
                description="Season id (default: all time)",
            ),
            OpenApiParameter("scheme", str, enum=PointsScheme.values, description="Only this points scheme"),
            OpenApiParameter("order", str, enum=[*selectors.LEADERBOARD_ORDERS], description="Sort order"),
        ],
        responses=StandingSerializer(many=True),
        summary="Club leaderboard: points, rating, matches played, win share",
    )
    def leaderboard(self, request, slug):
        club = _club(request, slug)
        season = None
        raw = request.query_params.get("season")
        if raw is not None:  # an empty `?season=` is not a season, nor is `?scheme=` a scheme (400, not ignored)
            season_id = parse_id(raw)
            if season_id is None:
                raise ValidationError({"season": [_("Give a season id (a number) from the club's seasons.")]})
            season = selectors.club_season(club=club, pk=season_id)
            if season is None:
                raise Http404("No such season at this club.")
        scheme = request.query_params.get("scheme")
        if scheme is not None and scheme not in PointsScheme.values:
            raise ValidationError(
                {"scheme": [_("Choose one of %(values)s.") % {"values": ", ".join(PointsScheme.values)}]}
            )
        order = request.query_params.get("order", "points")
        if order not in selectors.LEADERBOARD_ORDERS:
            raise ValidationError(
                {"order": [_("Choose one of %(values)s.") % {"values": ", ".join(selectors.LEADERBOARD_ORDERS)}]}
            )
        standings = selectors.leaderboard(club=club, season=season, scheme=scheme, order=order)
        return Response(StandingSerializer(standings, many=True, context={"request": request, "names_club": club}).data)


class SeasonSerializer(serializers.ModelSerializer):
    class Meta:
        model = ClubSeason
        fields = ["id", "name", "starts_on", "ends_on"]
        read_only_fields = ["id"]
        validators = []  # the service checks the unique name and says what to do


class SeasonViewSet(viewsets.ViewSet):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses=SeasonSerializer(many=True), summary="A club's seasons")
    def list(self, request, slug):
        return Response(SeasonSerializer(selectors.club_seasons(club=_club(request, slug)), many=True).data)

    @extend_schema(request=SeasonSerializer, responses={201: SeasonSerializer}, summary="Add a season (directors)")
    def create(self, request, slug):
        club = _club(request, slug)
        data = validated(SeasonSerializer, request)
        season = seasons.create_season(actor=request.user, club=club, **data)
        return Response(SeasonSerializer(season).data, status=status.HTTP_201_CREATED)


# --- ladders ---------------------------------------------------------------------------------------------


class LadderPositionSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    player_name = ShownNameField(source="player")


class ChallengeSerializer(serializers.ModelSerializer):
    class Meta:
        model = LadderChallenge
        fields = ["id", "challenger", "defender", "match", "status", "challenger_won", "created_at", "decided_at"]


class LadderSerializer(serializers.ModelSerializer):
    class Meta:
        model = Ladder
        fields = ["name", "slug", "reach", "match_length"]
        read_only_fields = ["slug"]
        # The database's own bounds (ladder_reach_at_least_1, ..._match_length_at_least_1), so the schema says them.
        extra_kwargs = {"reach": {"min_value": 1}, "match_length": {"min_value": 1}}


class LadderDetailSerializer(LadderSerializer):
    positions = serializers.SerializerMethodField()
    open_challenges = serializers.SerializerMethodField()

    class Meta(LadderSerializer.Meta):
        fields = [*LadderSerializer.Meta.fields, "positions", "open_challenges"]

    @extend_schema_field(LadderPositionSerializer(many=True))
    def get_positions(self, ladder):
        context = {**self.context, "names_club": ladder.club}
        return LadderPositionSerializer(selectors.ladder_positions(ladder=ladder), many=True, context=context).data

    @extend_schema_field(ChallengeSerializer(many=True))
    def get_open_challenges(self, ladder):
        return ChallengeSerializer(selectors.open_challenges(ladder=ladder), many=True).data


def _ladder(request, slug, ladder):
    return get_object_or_404(selectors.club_ladders(club=_club(request, slug)), slug=ladder)


class JoinInputSerializer(serializers.Serializer):
    player = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_ID, help_text="Directors: the member to add (default: yourself)")


class ChallengeInputSerializer(serializers.Serializer):
    defender = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, help_text="The player (id) you challenge, up to `reach` places above you")


# A club's ladders: the list and a ladder are public with the club, starting one needs a signed-in caller (checked
# by the service: a director), joining and challenging need a signed-in caller.
class LadderViewSet(viewsets.ViewSet):
    def get_permissions(self):
        if self.action == "retrieve":
            return [AllowAny()]
        if self.action in ("list", "create"):
            return [IsAuthenticatedOrReadOnly()]
        return [IsAuthenticated()]

    @extend_schema(responses=LadderSerializer(many=True), summary="A club's ladders")
    def list(self, request, slug):
        return Response(LadderSerializer(selectors.club_ladders(club=_club(request, slug)), many=True).data)

    @extend_schema(request=LadderSerializer, responses={201: LadderDetailSerializer}, summary="Start a ladder")
    def create(self, request, slug):
        club = _club(request, slug)
        data = validated(LadderSerializer, request)
        ladder = ladder_services.create_ladder(actor=request.user, club=club, **data)
        return Response(LadderDetailSerializer(ladder).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses=LadderDetailSerializer, summary="A ladder with its positions and open challenges")
    def retrieve(self, request, slug, ladder):
        return Response(LadderDetailSerializer(_ladder(request, slug, ladder)).data)

    @extend_schema(request=JoinInputSerializer, responses=LadderDetailSerializer, summary="Join at the bottom")
    def join(self, request, slug, ladder):
        ladder = _ladder(request, slug, ladder)
        data = validated(JoinInputSerializer, request)
        player = None
        if "player" in data:
            player = selectors.club_member(club=ladder.club, player_id=data["player"])
            if player is None:
                raise ValidationError({"player": [_("Only members of the club can join its ladder.")]})
        ladder_services.join_ladder(actor=request.user, ladder=ladder, player=player)
        return Response(LadderDetailSerializer(ladder).data)

    @extend_schema(request=ChallengeInputSerializer, responses={201: ChallengeSerializer}, summary="Challenge")
    def challenge(self, request, slug, ladder):
        ladder = _ladder(request, slug, ladder)
        data = validated(ChallengeInputSerializer, request)
        position = selectors.ladder_position(ladder=ladder, player_id=data["defender"])
        if position is None:
            raise ValidationError({"defender": [_("This player is not on the ladder.")]})
        challenge = ladder_services.challenge(actor=request.user, ladder=ladder, defender=position.player)
        return Response(ChallengeSerializer(challenge).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses=ChallengeSerializer, summary="Cancel an open challenge")
    def cancel_challenge(self, request, slug, ladder, pk):
        ladder = _ladder(request, slug, ladder)
        challenge = get_object_or_404(selectors.ladder_challenges(ladder=ladder), pk=pk)
        challenge = ladder_services.cancel_challenge(actor=request.user, challenge=challenge)
        return Response(ChallengeSerializer(challenge).data)
