from django.urls import path

from tournaments.views import boards, events, money, rounds, waiting

app_name = "tournaments"

EVENT = "events/<slug:club>/<slug:slug>/"

urlpatterns = [
    path("events/", events.event_list, name="event-list"),
    path("events/next-match/", events.next_match, name="next-match"),
    path(EVENT, events.event_detail, name="event-detail"),
    path(EVENT + "dashboard/", events.dashboard, name="dashboard"),
    path(EVENT + "boards/", boards.calling, name="calling"),
    path(EVENT + "boards/slips/", boards.call_slips, name="call-slips"),
    path(EVENT + "registration/", events.toggle_registration, name="event-registration"),
    path(EVENT + "prizes/", money.prizes, name="prizes"),
    path("clubs/<slug:club>/payout-tables/", money.club_tables, name="payout-tables"),
    path(EVENT + "closing-time/", events.closing_time, name="event-closing-time"),
    path(EVENT + "cap/", events.event_cap, name="event-cap"),
    path(EVENT + "withdrawal-refund/", events.withdrawal_refund, name="event-withdrawal-refund"),
    path(EVENT + "flights/new/", events.add_flight, name="flight-add"),
    path(EVENT + "<slug:flight>/", events.flight_bracket, name="flight-bracket"),
    path(EVENT + "<slug:flight>/payments/", money.payments, name="flight-payments"),
    path(EVENT + "<slug:flight>/waiting-list/", waiting.waiting_list, name="flight-waiting-list"),
    path(EVENT + "<slug:flight>/register/", events.register, name="flight-register"),
    path(EVENT + "<slug:flight>/day-settings/", events.flight_day_settings, name="flight-day-settings"),
    path(EVENT + "<slug:flight>/draw/<str:step>/", events.draw_step, name="flight-draw"),
    path(EVENT + "<slug:flight>/entries/<int:pk>/withdraw/", events.withdraw, name="entry-withdraw"),
    path(EVENT + "<slug:flight>/entries/<int:pk>/check-in/", events.check_in, name="entry-check-in"),
    path(EVENT + "<slug:flight>/entries/<int:pk>/check-in/undo/", events.undo_check_in, name="entry-undo-check-in"),
    path(EVENT + "<slug:flight>/entries/<int:pk>/re-enter/", events.reenter, name="entry-reenter"),
    path(EVENT + "<slug:flight>/slots/<int:pk>/override/", events.override, name="slot-override"),
    path(EVENT + "<slug:flight>/rounds/next/", rounds.start_round, name="flight-start-round"),
    path(EVENT + "<slug:flight>/ties/<int:pk>/", rounds.decide_tie, name="flight-decide-tie"),
    path(EVENT + "<slug:flight>/pairing-seed/", rounds.pairing_seed, name="flight-pairing-seed"),
    path(EVENT + "<slug:flight>/entries/<int:pk>/drop/", rounds.drop, name="entry-drop"),
    path(EVENT + "<slug:flight>/rounds/current/edit/", rounds.edit_round, name="flight-edit-round"),
    path(EVENT + "<slug:flight>/pairings/<int:pk>/correction/", rounds.correction, name="pairing-correction"),
]
