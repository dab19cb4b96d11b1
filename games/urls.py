from django.urls import include, path

app_name = "games"
urlpatterns = [
    path("", include("games.analysis.urls")),
    path("", include("games.records.urls")),
    path("", include("games.matchplay.urls")),
]
