from django.urls import path

from tournaments import views, views_boards, views_rounds

app_name = "tournaments"

EVENT = "events/<slug:club>/<slug:slug>/"

urlpatterns = [
    path("events/", views.event_list, name="event-list"),
    path("events/next-match/", views.next_match, name="next-match"),
    path(EVENT, views.event_detail, name="event-detail"),
    path(EVENT + "dashboard/", views.dashboard, name="dashboard"),
    path(EVENT + "boards/", views_boards.calling, name="calling"),
    path(EVENT + "boards/slips/", views_boards.call_slips, name="call-slips"),
    path(EVENT + "registration/", views.toggle_registration, name="event-registration"),
    path(EVENT + "prizes/", views.prizes, name="prizes"),
    path(EVENT + "closing-time/", views.closing_time, name="event-closing-time"),
    path(EVENT + "flights/new/", views.add_flight, name="flight-add"),
    path(EVENT + "<slug:flight>/", views.flight_bracket, name="flight-bracket"),
    path(EVENT + "<slug:flight>/register/", views.register, name="flight-register"),
    path(EVENT + "<slug:flight>/day-settings/", views.flight_day_settings, name="flight-day-settings"),
    path(EVENT + "<slug:flight>/draw/<str:step>/", views.draw_step, name="flight-draw"),
    path(EVENT + "<slug:flight>/entries/<int:pk>/withdraw/", views.withdraw, name="entry-withdraw"),
    path(EVENT + "<slug:flight>/entries/<int:pk>/check-in/", views.check_in, name="entry-check-in"),
    path(EVENT + "<slug:flight>/entries/<int:pk>/re-enter/", views.reenter, name="entry-reenter"),
    path(EVENT + "<slug:flight>/slots/<int:pk>/override/", views.override, name="slot-override"),
    path(EVENT + "<slug:flight>/rounds/next/", views_rounds.start_round, name="flight-start-round"),
    path(EVENT + "<slug:flight>/entries/<int:pk>/drop/", views_rounds.drop, name="entry-drop"),
    path(EVENT + "<slug:flight>/rounds/current/edit/", views_rounds.edit_round, name="flight-edit-round"),
    path(EVENT + "<slug:flight>/pairings/<int:pk>/correction/", views_rounds.correction, name="pairing-correction"),
]
