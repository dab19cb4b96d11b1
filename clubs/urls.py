from django.urls import path

from clubs import views

app_name = "clubs"
urlpatterns = [
    path("clubs/", views.club_list, name="club-list"),
    path("clubs/<slug:slug>/", views.club_detail, name="club-detail"),
    path("clubs/<slug:slug>/settings/", views.club_settings, name="club-settings"),
    path("clubs/<slug:slug>/walk-in/", views.add_walk_in, name="add-walk-in"),
    path("clubs/<slug:slug>/invite/", views.invite, name="invite"),
    path("clubs/<slug:slug>/bank-account/", views.club_bank_account, name="club-bank-account"),
    path("players/<int:pk>/", views.player_detail, name="player-detail"),
    path("players/<int:pk>/claim/", views.claim, name="claim"),
    path("me/bank-account/", views.bank_account, name="bank-account"),
    path("me/display-name/", views.display_name, name="display-name"),
    path("invitations/", views.invitations, name="invitations"),
    path("invitations/<int:pk>/accept/", views.answer_invitation, {"answer": "accept"}, name="accept-invitation"),
    path("invitations/<int:pk>/decline/", views.answer_invitation, {"answer": "decline"}, name="decline-invitation"),
    path("claims/<int:pk>/confirm/", views.decide_claim, {"answer": "confirm"}, name="confirm-claim"),
    path("claims/<int:pk>/refuse/", views.decide_claim, {"answer": "refuse"}, name="refuse-claim"),
]
