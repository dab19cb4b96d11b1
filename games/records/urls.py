from django.urls import path

from games.records import views

# Included by games/urls.py, so the names live in the `games` namespace (games:record-list, …).
urlpatterns = [
    path("records/", views.record_list, name="record-list"),
    path("records/upload/", views.record_upload, name="record-upload"),
    path("records/uploads/<int:pk>/", views.record_batch, name="record-batch"),
    path("records/<int:pk>/", views.record_detail, name="record-detail"),
]
