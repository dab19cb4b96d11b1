from django.urls import path

from ratings import views

app_name = "ratings"
urlpatterns = [
    path("ratings/", views.rating_list, name="rating-list"),
    path("players/<int:pk>/rating/", views.player_rating, name="player-rating"),
    path("players/<int:pk>/vs/<int:other>/", views.head_to_head, name="head-to-head"),
    path("clubs/<slug:slug>/leaderboard/", views.leaderboard, name="leaderboard"),
    path("clubs/<slug:slug>/error-rates/", views.error_ranking, name="error-ranking"),
    path("clubs/<slug:slug>/seasons/add/", views.season_add, name="season-add"),
    path("clubs/<slug:slug>/ladders/", views.ladder_list, name="ladder-list"),
    path("clubs/<slug:slug>/ladders/<slug:ladder>/", views.ladder_detail, name="ladder-detail"),
    path("clubs/<slug:slug>/ladders/<slug:ladder>/join/", views.ladder_join, name="ladder-join"),
    path("clubs/<slug:slug>/ladders/<slug:ladder>/challenge/", views.ladder_challenge, name="ladder-challenge"),
]
