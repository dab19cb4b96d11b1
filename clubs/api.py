"""REST endpoints for clubs, players and memberships (under /api/v1/)."""

import django_filters
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response

from base.api import JSONTypedInput, validated
from base.filters import IdFilter
from clubs import access, names, selectors, services
from clubs.models import Club, Membership, Player, Role, WalkInClaim


@extend_schema_field(OpenApiTypes.STR)
class ShownNameField(serializers.Field):
    """A player's name as the caller may see it (clubs.names), for every API answer that names players: `source`
    leads to the player; `club` is the dotted path from the object to the club whose answer it is ("pool.club";
    None: the serializer context's "names_club", else the player's clubs decide). Read only; null for no player."""

    def __init__(self, *, club: str | None = None, **kwargs):
        self.club_path = club
        kwargs["read_only"] = True
        kwargs.setdefault(
            "help_text",
            "The player's name, or the display name they chose where the club allows display names (the player "
            "and the club's directors get the name).",
        )
        super().__init__(**kwargs)

    def get_attribute(self, instance):
        player = super().get_attribute(instance)
        if self.club_path is None:
            return player, self.context.get("names_club")
        club = instance
        for part in self.club_path.split("."):
            club = getattr(club, part, None) if club is not None else None
        return player, club

    def to_representation(self, value):
        player, club = value
        if player is None:
            return None
        if not player.display_name:
            return player.name
        viewer = getattr(self.context.get("request"), "user", None)
        if club is not None:
            return names.shown_name(player, viewer=viewer, club=club)
        memo = self.context.setdefault("shown_names", {})  # a query per player: once per answer
        if player.pk not in memo:
            memo[player.pk] = names.shown_name_anywhere(player, viewer=viewer)
        return memo[player.pk]


class ClubSerializer(serializers.ModelSerializer):
    member_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Club
        fields = [
            "id",
            "name",
            "slug",
            "city",
            "country",
            "description",
            "is_public",
            "allow_display_names",
            "member_count",
            "created_at",
        ]
        read_only_fields = ["id", "member_count", "created_at"]
        extra_kwargs = {"slug": {"required": False, "validators": []}}


class ClubFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")
    city = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = Club
        fields = ["name", "city", "country", "is_public"]


class ClubViewSet(JSONTypedInput, mixins.CreateModelMixin, mixins.UpdateModelMixin, viewsets.ReadOnlyModelViewSet):
    serializer_class = ClubSerializer
    permission_classes = [IsAuthenticatedOrReadOnly, access.Can]
    access_actions = {"update": "club.edit", "partial_update": "club.edit"}
    filterset_class = ClubFilter
    lookup_field = "slug"

    def get_queryset(self):
        return selectors.visible_clubs(user=self.request.user).with_member_counts().order_by("name")

    def perform_create(self, serializer):
        club = services.create_club(actor=self.request.user, **serializer.validated_data)
        serializer.instance = selectors.club_with_member_count(pk=club.pk)  # the answer carries member_count

    def perform_update(self, serializer):
        club = services.update_club(actor=self.request.user, club=serializer.instance, **serializer.validated_data)
        serializer.instance = selectors.club_with_member_count(pk=club.pk)


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
        fields = ["id", "name", "display_name", "country", "federation_id", "has_login", "club", "created_at"]
        read_only_fields = ["id", "has_login", "created_at"]
        # written, never read back: the list is public, and a pseudonym next to the name would undo it
        extra_kwargs = {
            "display_name": {"write_only": True, "help_text": "Shown instead of the name on the public pages of "
                             "clubs that allow display names; empty: the name. 1 to 40 visible characters."},
            "name": {"help_text": "Read: the name as the caller may see it, the display name where one of the "
                     "player's clubs allows display names and the caller is neither the player nor a director "
                     "of one of their clubs (never both). Write: the player's name."},
        }  # fmt: skip

    def get_has_login(self, player) -> bool:
        return player.user_id is not None

    def to_representation(self, instance):
        """`name` is the name the caller sees (clubs.names): a player's display name where one of their clubs
        allows display names, unless the caller is the player or directs one of their clubs. Never both, so
        the list does not tie a display name on a bracket to the person."""
        data = super().to_representation(instance)
        shown = getattr(instance, "shown", None)
        if shown is None:
            request = self.context.get("request")
            shown = names.shown_name_anywhere(instance, viewer=getattr(request, "user", None))
        data["name"] = shown
        return data


class PlayerFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(
        field_name="shown",
        lookup_expr="icontains",
        label="Part of the name as the caller sees it (a display name stands in for the name as in the answer).",
    )
    club = django_filters.CharFilter(method="filter_club", label="Club slug")

    def filter_club(self, queryset, name, value):
        """Active members of a club the caller can see: a private club's slug lists nobody to outsiders, even
        players they can see through another club."""
        return selectors.members_of_visible_club(queryset, user=getattr(self.request, "user", None), slug=value)

    class Meta:
        model = Player
        fields = ["name", "club", "country"]


class PlayerViewSet(JSONTypedInput, mixins.CreateModelMixin, mixins.UpdateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Players you can see. Creating one registers a walk-in player (no account) of a club you direct; a player
    with an account is changed only by its person, a walk-in only by the club that registered it."""

    serializer_class = PlayerSerializer
    permission_classes = [IsAuthenticatedOrReadOnly, access.Can]
    access_actions = {"update": "player.edit", "partial_update": "player.edit"}
    filterset_class = PlayerFilter

    def get_queryset(self):
        shown = names.shown_name_of(viewer=self.request.user)
        return (
            selectors.visible_players(user=self.request.user).distinct().annotate(shown=shown).order_by("shown", "id")
        )

    def perform_create(self, serializer):
        data = dict(serializer.validated_data)
        club = data.pop("club", None)
        if club is None:
            raise serializers.ValidationError({"club": ["Name the club (its slug) the new player joins."]})
        if not selectors.can_see_club(user=self.request.user, club=club):
            raise serializers.ValidationError({"club": ["No such club."]})
        display_name = data.pop("display_name", None)
        player = services.create_player(actor=self.request.user, club=club, **data)
        if display_name:
            player = services.update_player(actor=self.request.user, player=player, display_name=display_name)
        serializer.instance = player

    def perform_update(self, serializer):
        data = dict(serializer.validated_data)
        if "club" in data:
            raise serializers.ValidationError({"club": ["Change club membership through /api/v1/memberships/."]})
        player = services.update_player(actor=self.request.user, player=serializer.instance, **data)
        player.__dict__.pop("shown", None)  # the name as read before the change: shown again from the player
        serializer.instance = player


class MembershipSerializer(serializers.ModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    player_name = serializers.SerializerMethodField(
        help_text="The player's name as the caller may see it: as `name` in /api/v1/players/ (a display name "
        "where one of the player's clubs allows it, unless the caller is the player or directs one of their clubs)."
    )

    def get_player_name(self, membership) -> str:
        shown = getattr(membership, "shown", None)
        if shown is not None:
            return shown
        request = self.context.get("request")
        return names.shown_name_anywhere(membership.player, viewer=getattr(request, "user", None))

    class Meta:
        model = Membership
        fields = ["id", "club", "player", "player_name", "role", "status", "is_active", "invited_at", "joined_on"]
        read_only_fields = fields


class InvitationInputSerializer(serializers.Serializer):
    club = serializers.SlugField(help_text="Slug of the club that invites.")
    player = serializers.IntegerField(
        required=False, help_text="An existing player (one you can see); give this or username."
    )
    username = serializers.CharField(required=False, max_length=150, help_text="The invitee's username.")
    role = serializers.ChoiceField(choices=Role.choices, default=Role.PLAYER)

    def validate(self, attrs):
        if bool(attrs.get("player")) == bool(attrs.get("username")):
            raise serializers.ValidationError({"player": ["Give either a player id or a username."]})
        return attrs


class MembershipUpdateSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=Role.choices, required=False)
    is_active = serializers.BooleanField(required=False)


class MembershipFilter(django_filters.FilterSet):
    club = django_filters.CharFilter(field_name="club__slug", label="Club slug")
    player = IdFilter(field_name="player_id", label="Player id")

    class Meta:
        model = Membership
        fields = ["club", "player", "role", "status", "is_active"]


class MembershipViewSet(JSONTypedInput, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Active memberships of the clubs you can see; invitations to you and to the clubs you direct.
    Creating one invites a player: it counts once the invitee accepts (POST …/accept/), or at once for the
    club's own walk-in players."""

    serializer_class = MembershipSerializer
    filterset_class = MembershipFilter
    permission_classes = [IsAuthenticatedOrReadOnly, access.Can]
    access_actions = {
        "partial_update": "membership.edit",
        "accept": "membership.respond",
        "decline": "membership.respond",
        "leave": "membership.leave",
    }

    def get_queryset(self):
        shown = names.shown_name_of("player__", viewer=self.request.user)
        return (
            selectors.visible_memberships(user=self.request.user)
            .annotate(shown=shown)
            .order_by("club__name", "shown", "id")
        )

    @extend_schema(request=InvitationInputSerializer, responses={201: MembershipSerializer})
    def create(self, request, *args, **kwargs):
        values = validated(InvitationInputSerializer, request)
        club = selectors.visible_club(user=request.user, slug=values["club"])
        if club is None:
            raise serializers.ValidationError({"club": ["No such club."]})
        player = None
        if values.get("player"):
            # Only players the director can already see: an id must not reveal a private club's player.
            player = selectors.visible_player(user=request.user, pk=values["player"])
            if player is None:
                raise serializers.ValidationError({"player": ["No such player; invite a person by username."]})
        membership = services.invite(
            actor=request.user, club=club, player=player, username=values.get("username", ""), role=values["role"]
        )
        return Response(
            MembershipSerializer(membership, context={"request": request}).data, status=status.HTTP_201_CREATED
        )

    @extend_schema(request=MembershipUpdateSerializer, responses=MembershipSerializer)
    def partial_update(self, request, *args, **kwargs):
        membership = self.get_object()
        data = validated(MembershipUpdateSerializer, request)
        membership = services.update_membership(actor=request.user, membership=membership, **data)
        return Response(MembershipSerializer(membership, context={"request": request}).data, status=status.HTTP_200_OK)

    @extend_schema(request=None, responses=MembershipSerializer)
    @action(detail=True, methods=["post"])
    def accept(self, request, pk=None):
        """The invitee joins the club."""
        membership = services.respond_to_invitation(actor=request.user, membership=self.get_object(), accept=True)
        return Response(MembershipSerializer(membership, context={"request": request}).data)

    @extend_schema(request=None, responses=MembershipSerializer)
    @action(detail=True, methods=["post"])
    def decline(self, request, pk=None):
        """The invitee says no; the club may invite again later."""
        membership = services.respond_to_invitation(actor=request.user, membership=self.get_object(), accept=False)
        return Response(MembershipSerializer(membership, context={"request": request}).data)

    @extend_schema(request=None, responses=MembershipSerializer)
    @action(detail=True, methods=["post"])
    def leave(self, request, pk=None):
        """The player leaves the club (or an admin ends the membership)."""
        membership = services.leave_club(actor=request.user, membership=self.get_object())
        return Response(MembershipSerializer(membership, context={"request": request}).data)


class ClaimSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name", read_only=True)
    club = serializers.SlugRelatedField(source="player.created_by_club", slug_field="slug", read_only=True)
    username = serializers.CharField(source="user.get_username", read_only=True)

    class Meta:
        model = WalkInClaim
        fields = ["id", "player", "player_name", "club", "username", "status", "created_at", "decided_at"]
        read_only_fields = ["id", "player_name", "club", "username", "status", "created_at", "decided_at"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        request = self.context.get("request")
        user = request.user if request is not None else None
        # Only walk-ins the caller can see can be named.
        self.fields["player"].queryset = selectors.visible_players(user=user).filter(user__isnull=True)


class ClaimViewSet(JSONTypedInput, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Walk-in claims: a signed-up person asks to become a walk-in player of a club (POST with the player's id);
    a director of that club confirms (the player, its history and ratings become theirs) or refuses. You see
    your own claims and those of the clubs you direct."""

    serializer_class = ClaimSerializer
    permission_classes = [IsAuthenticated, access.Can]
    access_actions = {"confirm": "walk_in.decide", "refuse": "walk_in.decide"}

    def get_queryset(self):
        return selectors.visible_claims(user=self.request.user)

    def perform_create(self, serializer):
        serializer.instance = services.claim_walk_in(
            actor=self.request.user, player=serializer.validated_data["player"]
        )

    @extend_schema(request=None, responses=ClaimSerializer)
    @action(detail=True, methods=["post"])
    def confirm(self, request, pk=None):
        claim = services.decide_claim(actor=request.user, claim=self.get_object(), confirm=True)
        return Response(ClaimSerializer(claim, context={"request": request}).data)

    @extend_schema(request=None, responses=ClaimSerializer)
    @action(detail=True, methods=["post"])
    def refuse(self, request, pk=None):
        claim = services.decide_claim(actor=request.user, claim=self.get_object(), confirm=False)
        return Response(ClaimSerializer(claim, context={"request": request}).data)


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    player = PlayerSerializer(allow_null=True)
    roles = serializers.DictField(child=serializers.CharField(), help_text="Role per club slug.")


class MeViewSet(viewsets.ViewSet):
    """Who the caller is: handy for scripts checking their token. One object, so its GET is routed to `retrieve`
    (a `list` would be declared as an array in the schema)."""

    @extend_schema(responses=MeSerializer)
    def retrieve(self, request):
        if not request.user.is_authenticated:
            raise PermissionDenied("Sign in or send a token to see who you are.")
        player = selectors.player_for_user(request.user)
        roles = {} if player is None else selectors.roles_by_club(player=player)
        return Response(
            {
                "username": request.user.get_username(),
                "player": PlayerSerializer(player).data if player else None,
                "roles": roles,
            }
        )
