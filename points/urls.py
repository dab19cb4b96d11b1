from django.urls import path

from points import views

app_name = "points"
urlpatterns = [
    path("clubs/<slug:slug>/events/<slug:event>/points/", views.event_points, name="event-points"),
]
