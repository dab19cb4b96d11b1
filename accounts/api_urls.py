from django.urls import path
from rest_framework.routers import SimpleRouter

from accounts import api

router = SimpleRouter()
router.register("auth/tokens", api.TokenViewSet, basename="api-tokens")

urlpatterns = [path("auth/token/", api.ObtainTokenViewSet.as_view({"post": "create"}), name="api-token"), *router.urls]
