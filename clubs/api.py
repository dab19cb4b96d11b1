"""REST endpoints for clubs, players and memberships (under /api/v1/)."""

import django_filters
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import selectors, services
from clubs.models import Club, Membership, Player, Role
from clubs.permissions import IsClubAdminOrReadOnly


class ClubSerializer(serializers.ModelSerializer):
    member_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Club
        fields = ["id", "name", "slug", "city", "country", "description", "is_public", "member_count", "created_at"]
        read_only_fields = ["id", "member_count", "created_at"]
        extra_kwargs = {"slug": {"required": False, "validators": []}}


class ClubFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")
    city = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = Club
        fields = ["name", "city", "country", "is_public"]


class ClubViewSet(mixins.CreateModelMixin, mixins.UpdateModelMixin, viewsets.ReadOnlyModelViewSet):
    serializer_class = ClubSerializer
    permission_classes = [IsAuthenticatedOrReadOnly, IsClubAdminOrReadOnly]
    filterset_class = ClubFilter
    lookup_field = "slug"

    def get_queryset(self):
        return selectors.visible_clubs(user=self.request.user).with_member_counts().order_by("name")

    def perform_create(self, serializer):
        club = services.create_club(actor=self.request.user, **serializer.validated_data)
        serializer.instance = Club.objects.with_member_counts().get(pk=club.pk)  # the answer carries member_count

    def perform_update(self, serializer):
        club = services.update_club(actor=self.request.user, club=serializer.instance, **serializer.validated_data)
        serializer.instance = Club.objects.with_member_counts().get(pk=club.pk)


class PlayerSerializer(serializers.ModelSerializer):
    has_login = serializers.SerializerMethodField()
    club = serializers.SlugRelatedField(
        slug_field="slug",
        queryset=Club.objects.all(),
        write_only=True,
        required=False,
        help_text="Slug of the club the new player joins (required when creating).",
    )

    class Meta:
        model = Player
        fields = ["id", "name", "country", "has_login", "club", "created_at"]
        read_only_fields = ["id", "has_login", "created_at"]

    def get_has_login(self, player) -> bool:
        return player.user_id is not None


class PlayerFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")
    club = django_filters.CharFilter(field_name="memberships__club__slug", label="Club slug")

    class Meta:
        model = Player
        fields = ["name", "club", "country"]


class PlayerViewSet(mixins.CreateModelMixin, mixins.UpdateModelMixin, viewsets.ReadOnlyModelViewSet):
    serializer_class = PlayerSerializer
    filterset_class = PlayerFilter

    def get_queryset(self):
        return selectors.visible_players(user=self.request.user).distinct().order_by("name", "id")

    def perform_create(self, serializer):
        data = dict(serializer.validated_data)
        club = data.pop("club", None)
        if club is None:
            raise serializers.ValidationError({"club": ["Name the club (its slug) the new player joins."]})
        if not selectors.visible_clubs(user=self.request.user).filter(pk=club.pk).exists():
            raise serializers.ValidationError({"club": ["No such club."]})
        serializer.instance = services.create_player(actor=self.request.user, club=club, **data)

    def perform_update(self, serializer):
        data = dict(serializer.validated_data)
        if "club" in data:
            raise serializers.ValidationError({"club": ["Change club membership through /api/v1/memberships/."]})
        serializer.instance = services.update_player(actor=self.request.user, player=serializer.instance, **data)


class MembershipSerializer(serializers.ModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", queryset=Club.objects.all())
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    player_name = serializers.CharField(source="player.name", read_only=True)
    role = serializers.ChoiceField(choices=Role.choices, default=Role.PLAYER)

    class Meta:
        model = Membership
        fields = ["id", "club", "player", "player_name", "role", "is_active", "joined_on"]
        read_only_fields = ["id", "player_name", "joined_on"]
        validators = []  # the service explains a duplicate membership better than the generic unique check


class MembershipUpdateSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=Role.choices, required=False)
    is_active = serializers.BooleanField(required=False)


class MembershipFilter(django_filters.FilterSet):
    club = django_filters.CharFilter(field_name="club__slug", label="Club slug")

    class Meta:
        model = Membership
        fields = ["club", "player", "role", "is_active"]


class MembershipViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    serializer_class = MembershipSerializer
    filterset_class = MembershipFilter

    def get_queryset(self):
        return selectors.visible_memberships(user=self.request.user).order_by("club__name", "player__name")

    def perform_create(self, serializer):
        data = serializer.validated_data
        if not selectors.visible_clubs(user=self.request.user).filter(pk=data["club"].pk).exists():
            raise serializers.ValidationError({"club": ["No such club."]})
        serializer.instance = services.add_membership(
            actor=self.request.user, club=data["club"], player=data["player"], role=data["role"]
        )

    @extend_schema(request=MembershipUpdateSerializer, responses=MembershipSerializer)
    def partial_update(self, request, *args, **kwargs):
        membership = self.get_object()
        if not selectors.is_club_admin(user=request.user, club=membership.club):
            raise PermissionDenied("Only an admin of this club can change memberships.")
        data = MembershipUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        membership = services.update_membership(actor=request.user, membership=membership, **data.validated_data)
        return Response(MembershipSerializer(membership).data, status=status.HTTP_200_OK)


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    player = PlayerSerializer(allow_null=True)
    roles = serializers.DictField(child=serializers.CharField(), help_text="Role per club slug.")


class MeView(APIView):
    """Who the caller is: handy for scripts checking their token. One object, so an APIView (a ViewSet's `list`
    would be declared as an array in the schema)."""

    @extend_schema(responses=MeSerializer)
    def get(self, request):
        if not request.user.is_authenticated:
            raise PermissionDenied("Sign in or send a token to see who you are.")
        player = selectors.player_for_user(request.user)
        roles = {}
        if player is not None:
            roles = dict(player.memberships.filter(is_active=True).values_list("club__slug", "role"))
        return Response(
            {
                "username": request.user.get_username(),
                "player": PlayerSerializer(player).data if player else None,
                "roles": roles,
            }
        )
