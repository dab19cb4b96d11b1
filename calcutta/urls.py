from django.urls import path

from calcutta import views

app_name = "calcutta"
urlpatterns = [
    path("calcuttas/", views.calcutta_list, name="list"),
    path("calcuttas/<int:pk>/", views.detail, name="detail"),
    path("calcuttas/<int:pk>/settings/", views.update_settings, name="settings"),
    path("calcuttas/<int:pk>/lots/", views.set_lots, name="lots"),
    path("calcuttas/<int:pk>/lots/propose/", views.propose_lots, name="propose"),
    path("calcuttas/<int:pk>/order/", views.set_order, name="order"),
    path("calcuttas/<int:pk>/bidders/", views.register_bidder, name="bidders"),
    path("calcuttas/<int:pk>/auctioneer/", views.auctioneer, name="auctioneer"),
    path("calcuttas/<int:pk>/auctioneer/step/", views.step, name="step"),
    path("calcuttas/<int:pk>/bids/", views.bid, name="bid"),
    path("calcuttas/<int:pk>/board/", views.board, name="board"),
    path("calcuttas/<int:pk>/owners/<int:bidder>/", views.owner, name="owner"),
    path("calcuttas/<int:pk>/owners/<int:bidder>/paid/", views.set_paid, name="paid"),
    path("calcuttas/<int:pk>/owners/<int:bidder>/syndicate/", views.syndicate, name="syndicate"),
    path("calcuttas/<int:pk>/owners/<int:bidder>/buy-back/", views.buy_back, name="buy-back"),
    path("calcuttas/<int:pk>/syndicate-offers/<int:offer>/answer/", views.answer_offer, name="answer-offer"),
    path("calcuttas/<int:pk>/settlement/", views.settlement, name="settlement"),
    path("calcuttas/<int:pk>/settle/", views.settle, name="settle"),
    path("calcuttas/<int:pk>/settlement/<int:transfer>/<slug:step>/", views.settle_transfer, name="settle-transfer"),
]
