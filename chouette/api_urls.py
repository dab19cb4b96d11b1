from django.urls import path
from rest_framework.routers import SimpleRouter

from chouette import api

router = SimpleRouter()
router.register("chouette/sessions", api.SessionViewSet, basename="chouette-session")
router.register("chouette/requests", api.RequestViewSet, basename="chouette-request")

urlpatterns = [
    path(
        "chouette/clubs/<slug:slug>/balances/",
        api.ClubBalancesViewSet.as_view({"get": "list"}),
        name="chouette-club-balances",
    ),
    path("chouette/join/", api.JoinViewSet.as_view({"post": "create"}), name="chouette-join"),
    *router.urls,
]
