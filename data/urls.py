from django.urls import path

from data import views

app_name = "data"


def _export(route: str, key: str):
    """An export's CSV (`<key>`, route ending .csv) and, beside it, its workbook (`<key>-xlsx`, .xlsx)."""
    xlsx = route.removesuffix(".csv") + ".xlsx"
    return [
        path(f"export/{route}", views.export, {"key": key}, name=key),
        path(f"export/{xlsx}", views.export, {"key": key, "workbook": True}, name=f"{key}-xlsx"),
    ]


urlpatterns = [
    path("embed/events/<slug:club>/<slug:slug>/<slug:flight>/", views.embed_flight, name="embed"),
    path("embed/events/<slug:club>/<slug:slug>/<slug:flight>/snippet/", views.embed_snippet, name="embed-snippet"),
    path("feeds/clubs/<slug:slug>/events.ics", views.club_feed, name="club-feed"),
    path("feeds/<str:token>/matches.ics", views.matches_feed, name="matches-feed"),
    path("me/calendar/", views.calendar_links, name="calendar"),
    path("me/data/", views.my_data, name="my-data"),
    path("me/data.json", views.my_data_json, name="my-data-json"),
    path("me/leave/", views.leave, name="leave"),
    path("clubs/<slug:slug>/members/import/", views.import_members, name="import-members"),
    path(
        "events/<slug:club>/<slug:slug>/<slug:flight>/seeding-ratings/",
        views.import_seeding_ratings,
        name="seeding-ratings",
    ),
    path("clubs/<slug:slug>/event-templates/", views.event_templates_page, name="event-templates"),
    path("clubs/<slug:slug>/event-templates/<int:pk>/", views.event_template_page, name="event-template"),
    *_export("events/<slug:club>/<slug:slug>/results.csv", "event-results"),
    *_export("events/<slug:club>/<slug:slug>/federation.csv", "federation-results"),
    *_export("events/<slug:club>/<slug:slug>/<slug:flight>/entries.csv", "flight-entries"),
    *_export("events/<slug:club>/<slug:slug>/<slug:flight>/standings.csv", "flight-standings"),
    *_export("clubs/<slug:slug>/rated-matches.csv", "club-rated-matches"),
    *_export("clubs/<slug:slug>/standings.csv", "club-standings"),
    *_export("clubs/<slug:slug>/members.csv", "club-members"),
    *_export("chouette/<slug:slug>/<int:pk>/ledger.csv", "chouette-ledger"),
    *_export("calcuttas/<int:pk>/settlement.csv", "calcutta-settlement"),
]
