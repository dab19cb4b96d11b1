from django.urls import path

from chouette import views

app_name = "chouette"
urlpatterns = [
    path("sw.js", views.service_worker, name="service-worker"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("chouette/", views.session_list, name="session-list"),
    path("chouette/<slug:slug>/new/", views.session_create, name="session-create"),
    path("chouette/join/", views.join_by_code, name="join"),
    path("chouette/join/<str:code>/", views.join_by_code, name="join-code"),
    path("chouette/requests/<int:pk>/<str:answer>/", views.answer_request, name="request-answer"),
    path("chouette/<slug:slug>/<int:pk>/", views.session_detail, name="session-detail"),
    path("chouette/<slug:slug>/<int:pk>/live/", views.session_fragment, name="session-fragment"),
    path("chouette/<slug:slug>/<int:pk>/state.json", views.session_state, name="session-state"),
    path("chouette/<slug:slug>/<int:pk>/order/", views.set_order, name="session-order"),
    path("chouette/<slug:slug>/<int:pk>/games/", views.add_game, name="session-add-game"),
    path("chouette/<slug:slug>/<int:pk>/games/undo/", views.undo_game, name="session-undo-game"),
    path("chouette/<slug:slug>/<int:pk>/games/<int:number>/correct/", views.correct_game, name="session-correct"),
    path("chouette/<slug:slug>/<int:pk>/seats/", views.seat_action, name="session-seats"),
    path("chouette/<slug:slug>/<int:pk>/invite/", views.invite, name="session-invite"),
    path("chouette/<slug:slug>/<int:pk>/finish/", views.finish, name="session-finish"),
    path("chouette/<slug:slug>/<int:pk>/settlement/", views.settlement, name="session-settlement"),
    path(
        "chouette/<slug:slug>/<int:pk>/settlement/<int:transfer>/<slug:step>/",
        views.settle_transfer,
        name="settle-transfer",
    ),
]
