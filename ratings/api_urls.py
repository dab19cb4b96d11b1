from django.urls import path

from ratings import api

CLUB = "ratings/clubs/<slug:slug>/"
LADDER = CLUB + "ladders/<slug:ladder>/"

ratings = api.RatingViewSet.as_view
seasons = api.SeasonViewSet.as_view
ladders = api.LadderViewSet.as_view

urlpatterns = [
    path("ratings/", ratings({"get": "list"}), name="rating-list"),
    path("ratings/players/<int:pk>/", ratings({"get": "player"}), name="rating-player"),
    path("ratings/players/<int:pk>/vs/<int:other>/", ratings({"get": "head_to_head"}), name="rating-head-to-head"),
    path(CLUB + "recompute/", ratings({"post": "recompute"}), name="rating-recompute"),
    path(CLUB + "merge-variants/", ratings({"post": "merge_variants"}), name="rating-merge-variants"),
    path(CLUB + "leaderboard/", ratings({"get": "leaderboard"}), name="rating-leaderboard"),
    path(CLUB + "seasons/", seasons({"get": "list", "post": "create"}), name="rating-seasons"),
    path(CLUB + "ladders/", ladders({"get": "list", "post": "create"}), name="ladder-list"),
    path(LADDER, ladders({"get": "retrieve"}), name="ladder-detail"),
    path(LADDER + "join/", ladders({"post": "join"}), name="ladder-join"),
    path(LADDER + "challenges/", ladders({"post": "challenge"}), name="ladder-challenge"),
    path(LADDER + "challenges/<int:pk>/cancel/", ladders({"post": "cancel_challenge"}), name="ladder-challenge-cancel"),
]
