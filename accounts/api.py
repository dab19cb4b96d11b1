"""API: sign in for a token, list and revoke one's own tokens."""

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.response import Response

from accounts import selectors, services
from accounts.models import ApiToken
from base.api import validated


class TokenOutputSerializer(serializers.ModelSerializer):
    expires = serializers.SerializerMethodField()

    class Meta:
        model = ApiToken
        fields = ["id", "name", "prefix", "created", "last_used", "expires"]

    def get_expires(self, token) -> str | None:
        expires = selectors.token_expires(token)
        return None if expires is None else serializers.DateTimeField().to_representation(expires)


class ObtainTokenViewSet(viewsets.ViewSet):
    """POST username and password (and optionally a name for the token): answers a new token's key.

    Each call makes a new token, shown only in this answer; list and revoke them at /api/v1/auth/tokens/.
    Too many wrong passwords answer 429 with Retry-After."""

    authentication_classes: list = []
    permission_classes = [permissions.AllowAny]

    class InputSerializer(AuthTokenSerializer):
        name = serializers.CharField(max_length=100, required=False, default="", label=_("Token name"))

    @extend_schema(
        request=InputSerializer,
        responses={
            200: inline_serializer(
                "ObtainedToken",
                {"token": serializers.CharField(), "expires": serializers.DateTimeField(allow_null=True)},
            )
        },
    )
    def create(self, request):
        data = validated(self.InputSerializer, request, context={"request": request})
        name = data["name"] or str(_("API sign-in"))
        token, key = services.create_token(user=data["user"], name=name)
        return Response({"token": key, "expires": TokenOutputSerializer(token).data["expires"]})


class TokenViewSet(mixins.ListModelMixin, mixins.DestroyModelMixin, viewsets.GenericViewSet):
    """The signed-in user's own API tokens (never anyone else's): list them, revoke one with DELETE."""

    serializer_class = TokenOutputSerializer
    permission_classes = [permissions.IsAuthenticated]
    queryset = ApiToken.objects.none()

    def get_queryset(self):
        return selectors.user_tokens(user=self.request.user)

    def destroy(self, request, *args, **kwargs):
        token = self.get_object()  # 404 for a token of another user: it is not in this user's queryset
        services.revoke_token(user=request.user, token_id=token.pk)
        return Response(status=status.HTTP_204_NO_CONTENT)
