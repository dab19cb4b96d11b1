from django.urls import path

from clubs import views

app_name = "clubs"
urlpatterns = [
    path("clubs/", views.club_list, name="club-list"),
    path("clubs/<slug:slug>/", views.club_detail, name="club-detail"),
    path("clubs/<slug:slug>/walk-in/", views.add_walk_in, name="add-walk-in"),
    path("players/<int:pk>/", views.player_detail, name="player-detail"),
]
