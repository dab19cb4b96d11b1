from django.urls import path

from games.matchplay import views

urlpatterns = [
    path("matches/", views.match_list, name="match-list"),
    path("matches/new/", views.create_match, name="match-create"),
    path("matches/<int:pk>/lateness/", views.lateness, name="match-lateness"),
    path("matches/mine/", views.my_matches, name="my-matches"),
    path("matches/to-decide/", views.director_queue, name="match-queue"),
    path("matches/<int:pk>/", views.match_detail, name="match-detail"),
    path("matches/<int:pk>/games/", views.add_game, name="match-add-game"),
    path("matches/<int:pk>/games/undo/", views.undo_game, name="match-undo-game"),
    path("matches/<int:pk>/report/", views.report, name="match-report"),
    path("matches/<int:pk>/reports/<int:version>/confirm/", views.confirm, name="match-confirm"),
    path("matches/<int:pk>/reports/<int:version>/dispute/", views.dispute, name="match-dispute"),
    path("matches/<int:pk>/annul/", views.annul, name="match-annul"),
    path("matches/<int:pk>/accept/", views.answer_invitation, {"answer": "accept"}, name="match-accept"),
    path("matches/<int:pk>/decline/", views.answer_invitation, {"answer": "decline"}, name="match-decline"),
    path("matches/<int:pk>/withdraw/", views.answer_invitation, {"answer": "withdraw"}, name="match-withdraw"),
]
