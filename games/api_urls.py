from django.urls import include, path

urlpatterns = [
    path("", include("games.records.api_urls")),
    path("", include("games.matchplay.api_urls")),
]
