from django.urls import path

from accounts import views

urlpatterns = [
    path("", views.account, name="account"),
    path("tokens/", views.create_token, name="account-token-create"),
    path("tokens/<int:token_id>/revoke/", views.revoke_token, name="account-token-revoke"),
    path("password_reset/", views.PasswordResetView.as_view(), name="password_reset"),
]
