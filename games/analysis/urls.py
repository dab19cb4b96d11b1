from django.urls import path

from games.analysis import views

# Included by games/urls.py (the `games` namespace).
urlpatterns = [
    path("records/analysis/settings/", views.analysis_settings, name="analysis-settings"),
    path("records/<int:pk>/analyse/", views.analyse_record, name="record-analyse"),
]
