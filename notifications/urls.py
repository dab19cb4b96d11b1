from django.urls import path

from notifications import views

app_name = "notifications"
urlpatterns = [
    path("notifications/", views.notification_list, name="list"),
    path("notifications/read/", views.mark_read, name="read-all"),
    path("notifications/<int:pk>/read/", views.mark_read, name="read"),
    path("notifications/preferences/", views.preferences, name="preferences"),
    path("notifications/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("clubs/<slug:slug>/webhook/", views.club_webhook, name="club-webhook"),
]
