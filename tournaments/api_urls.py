from django.urls import path

from tournaments import api

EVENT = "events/<slug:club>/<slug:slug>/"
FLIGHT = EVENT + "flights/<slug:flight>/"

urlpatterns = [
    path("events/", api.EventListView.as_view(), name="api-event-list"),
    path("events/next-matches/", api.NextMatchesView.as_view(), name="api-next-matches"),
    path(EVENT, api.EventDetailView.as_view(), name="api-event-detail"),
    path(EVENT + "flights/", api.FlightListView.as_view(), name="api-flight-list"),
    path(EVENT + "prizes/", api.PrizeListView.as_view(), name="api-event-prizes"),
    path(EVENT + "dashboard/", api.DashboardView.as_view(), name="api-event-dashboard"),
    path(FLIGHT, api.FlightDetailView.as_view(), name="api-flight-detail"),
    path(FLIGHT + "entries/", api.EntryListView.as_view(), name="api-flight-entries"),
    path(FLIGHT + "entries/<int:pk>/check-in/", api.CheckInView.as_view(), name="api-entry-check-in"),
    path(FLIGHT + "entries/<int:pk>/withdraw/", api.WithdrawView.as_view(), name="api-entry-withdraw"),
    path(FLIGHT + "reentries/", api.ReentryView.as_view(), name="api-flight-reentries"),
    path(FLIGHT + "draw/", api.DrawView.as_view(), name="api-flight-draw"),
    path(FLIGHT + "draw/confirm/", api.ConfirmDrawView.as_view(), name="api-flight-draw-confirm"),
    path(FLIGHT + "draw/release/", api.ReleaseDrawView.as_view(), name="api-flight-draw-release"),
    path(FLIGHT + "placements/", api.PlacementsView.as_view(), name="api-flight-placements"),
    path(FLIGHT + "payouts/", api.PayoutTemplateView.as_view(), name="api-flight-payouts"),
    path(FLIGHT + "slots/<int:pk>/override/", api.OverrideView.as_view(), name="api-slot-override"),
]
