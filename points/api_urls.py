from django.urls import path

from points import api

urlpatterns = [
    path("ratings/clubs/<slug:slug>/events/<slug:event>/points/", api.EventPointsView.as_view(), name="event-points"),
]
