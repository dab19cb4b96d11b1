from django.urls import path

from points import api

urlpatterns = [
    path(
        "ratings/clubs/<slug:slug>/events/<slug:event>/points/",
        api.EventPointsViewSet.as_view({"get": "retrieve", "put": "update"}),
        name="event-points",
    ),
]
