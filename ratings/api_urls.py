from django.urls import path

from ratings import api

urlpatterns = [
    path("ratings/", api.RatingListView.as_view(), name="rating-list"),
    path("ratings/players/<int:pk>/", api.PlayerRatingView.as_view(), name="rating-player"),
    path("ratings/players/<int:pk>/vs/<int:other>/", api.HeadToHeadView.as_view(), name="rating-head-to-head"),
    path("ratings/clubs/<slug:slug>/recompute/", api.RecomputeView.as_view(), name="rating-recompute"),
    path("ratings/clubs/<slug:slug>/leaderboard/", api.LeaderboardView.as_view(), name="rating-leaderboard"),
    path("ratings/clubs/<slug:slug>/seasons/", api.SeasonListView.as_view(), name="rating-seasons"),
    path("ratings/clubs/<slug:slug>/ladders/", api.LadderListView.as_view(), name="ladder-list"),
    path("ratings/clubs/<slug:slug>/ladders/<slug:ladder>/", api.LadderDetailView.as_view(), name="ladder-detail"),
    path("ratings/clubs/<slug:slug>/ladders/<slug:ladder>/join/", api.LadderJoinView.as_view(), name="ladder-join"),
    path(
        "ratings/clubs/<slug:slug>/ladders/<slug:ladder>/challenges/",
        api.LadderChallengeView.as_view(),
        name="ladder-challenge",
    ),
    path(
        "ratings/clubs/<slug:slug>/ladders/<slug:ladder>/challenges/<int:pk>/cancel/",
        api.ChallengeCancelView.as_view(),
        name="ladder-challenge-cancel",
    ),
]
