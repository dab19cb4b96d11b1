from django.urls import path

from data import api

TEMPLATES = "clubs/<slug:club>/event-templates/"
templates = api.EventTemplateViewSet.as_view

urlpatterns = [
    path(TEMPLATES, templates({"get": "list", "post": "create"}), name="api-event-templates"),
    path(
        TEMPLATES + "<int:pk>/",
        templates({"get": "retrieve", "patch": "partial_update", "delete": "destroy"}),
        name="api-event-template",
    ),
    path(TEMPLATES + "<int:pk>/start/", templates({"post": "start"}), name="api-event-template-start"),
]
