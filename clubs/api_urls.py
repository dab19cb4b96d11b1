from django.urls import path
from rest_framework.routers import SimpleRouter

from clubs import api

router = SimpleRouter()
router.register("clubs", api.ClubViewSet, basename="club")
router.register("players", api.PlayerViewSet, basename="player")
router.register("memberships", api.MembershipViewSet, basename="membership")
router.register("walk-in-claims", api.ClaimViewSet, basename="walk-in-claim")

urlpatterns = [*router.urls, path("me/", api.MeViewSet.as_view({"get": "retrieve"}), name="me-list")]
