from django.urls import path

from tournaments import api

EVENT = "events/<slug:club>/<slug:slug>/"
FLIGHT = EVENT + "flights/<slug:flight>/"
ENTRY = FLIGHT + "entries/<int:pk>/"

events = api.events.EventViewSet.as_view
flights = api.events.FlightViewSet.as_view
boards = api.boards.BoardViewSet.as_view
rounds = api.rounds.RoundViewSet.as_view
stages = api.stages.StageViewSet.as_view
tables = api.money.PayoutTableViewSet.as_view
money = api.money.FlightMoneyViewSet.as_view
fees = api.money.FeesViewSet.as_view
waiting = api.waiting.WaitingListViewSet.as_view
WAITING = FLIGHT + "waiting-list/"
event_cap = api.waiting.EventCapViewSet.as_view

urlpatterns = [
    path("events/", events({"get": "list", "post": "create"}), name="api-event-list"),
    path("events/next-matches/", events({"get": "next_matches"}), name="api-next-matches"),
    path("events/my-fees/", fees({"get": "mine"}), name="api-my-fees"),
    path(EVENT, events({"get": "retrieve", "patch": "partial_update"}), name="api-event-detail"),
    path(EVENT + "flights/", events({"post": "add_flight"}), name="api-flight-list"),
    path(EVENT + "prizes/", events({"get": "prizes"}), name="api-event-prizes"),
    path(EVENT + "dashboard/", events({"get": "dashboard"}), name="api-event-dashboard"),
    path(EVENT + "boards/", boards({"get": "calling", "put": "set_boards"}), name="api-event-boards"),
    path(EVENT + "boards/auto-call/", boards({"post": "auto_call"}), name="api-event-auto-call"),
    path(EVENT + "boards/call-next/", boards({"post": "call_next"}), name="api-event-call-next"),
    path(EVENT + "boards/<int:number>/free/", boards({"post": "free"}), name="api-board-free"),
    path(EVENT + "calls/<int:pk>/move/", boards({"post": "move"}), name="api-call-move"),
    path(EVENT + "calls/<int:pk>/lateness/", boards({"post": "lateness"}), name="api-call-lateness"),
    path(EVENT + "forecast/", events({"get": "forecast"}), name="api-event-forecast"),
    path(FLIGHT, flights({"get": "retrieve", "patch": "partial_update"}), name="api-flight-detail"),
    path(FLIGHT + "entries/", flights({"post": "register"}), name="api-flight-entries"),
    path(FLIGHT + "teams/", flights({"post": "register_team"}), name="api-flight-teams"),
    path(ENTRY + "members/", flights({"get": "members", "put": "set_lineup"}), name="api-entry-members"),
    path(FLIGHT + "slots/<int:pk>/boards/", flights({"get": "boards"}), name="api-slot-boards"),
    path(ENTRY + "check-in/", flights({"post": "check_in", "delete": "undo_check_in"}), name="api-entry-check-in"),
    path(ENTRY + "withdraw/", flights({"post": "withdraw"}), name="api-entry-withdraw"),
    path(FLIGHT + "reentries/", flights({"post": "reenter"}), name="api-flight-reentries"),
    path(FLIGHT + "draw/", flights({"post": "draw"}), name="api-flight-draw"),
    path(FLIGHT + "draw/swap/", flights({"post": "swap_draw"}), name="api-flight-draw-swap"),
    path(FLIGHT + "draw/confirm/", flights({"post": "confirm_draw"}), name="api-flight-draw-confirm"),
    path(FLIGHT + "draw/release/", flights({"post": "release_draw"}), name="api-flight-draw-release"),
    path(FLIGHT + "placements/", flights({"get": "placements"}), name="api-flight-placements"),
    path(FLIGHT + "payouts/", flights({"put": "payouts"}), name="api-flight-payouts"),
    path(FLIGHT + "payout-table/", money({"put": "set_table"}), name="api-flight-payout-table"),
    path(FLIGHT + "prizes/<int:player>/paid/", money({"post": "paid"}), name="api-flight-prize-paid"),
    path(FLIGHT + "prizes/<int:player>/received/", money({"post": "received"}), name="api-flight-prize-received"),
    path(FLIGHT + "payments/", fees({"get": "flight"}), name="api-flight-payments"),
    path(FLIGHT + "fees/", fees({"put": "fee_settings"}), name="api-flight-fees"),
    path(ENTRY + "payments/", fees({"post": "record"}), name="api-entry-payments"),
    path(ENTRY + "fee-category/", fees({"put": "category"}), name="api-entry-fee-category"),
    path("payout-tables/<slug:club>/", tables({"get": "list", "post": "create"}), name="api-payout-tables"),
    path(EVENT + "cap/", event_cap({"put": "cap"}), name="api-event-cap"),
    path(FLIGHT + "cap/", waiting({"put": "cap"}), name="api-flight-cap"),
    path(WAITING, waiting({"get": "show", "post": "join"}), name="api-waiting-list"),
    path(WAITING + "close/", waiting({"post": "close"}), name="api-waiting-list-close"),
    path(WAITING + "<int:pk>/accept/", waiting({"post": "accept"}), name="api-waiting-accept"),
    path(WAITING + "<int:pk>/decline/", waiting({"post": "decline"}), name="api-waiting-decline"),
    path(WAITING + "<int:pk>/move/", waiting({"post": "move"}), name="api-waiting-move"),
    path(FLIGHT + "standings/", rounds({"get": "standings"}), name="api-flight-standings"),
    path(FLIGHT + "next-stage/", stages({"get": "next_stage"}), name="api-flight-next-stage"),
    path(FLIGHT + "ties/<int:pk>/lot/", stages({"post": "lot"}), name="api-flight-tie-lot"),
    path(FLIGHT + "groups/", rounds({"get": "groups"}), name="api-flight-groups"),
    path(FLIGHT + "rounds/", rounds({"post": "start_round"}), name="api-flight-rounds"),
    path(FLIGHT + "rounds/<int:number>/", rounds({"get": "pairings"}), name="api-flight-round"),
    path(FLIGHT + "rounds/<int:number>/standings/", rounds({"get": "paired_from"}), name="api-round-paired-from"),
    path(FLIGHT + "rounds/current/edit/preview/", rounds({"post": "edit_preview"}), name="api-round-edit-preview"),
    path(FLIGHT + "rounds/current/edit/", rounds({"post": "edit"}), name="api-round-edit"),
    path(
        FLIGHT + "pairings/<int:pk>/correction/preview/",
        rounds({"post": "correction_preview"}),
        name="api-pairing-correction-preview",
    ),
    path(FLIGHT + "pairings/<int:pk>/correction/", rounds({"post": "correct"}), name="api-pairing-correction"),
    path(ENTRY + "drop/", rounds({"post": "drop"}), name="api-entry-drop"),
    path(
        FLIGHT + "slots/<int:pk>/override/",
        flights({"get": "override_preview", "post": "override"}),
        name="api-slot-override",
    ),
]
