"""REST endpoints for Calcutta auctions (under /api/v1/calcuttas/): setup, the live auction, bids, ownership,
payments and the settlement. Thin views: they validate input, look rows up inside the Calcutta, call a service
or a selector."""

from decimal import Decimal

from django.http import Http404
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import APIException
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response

from base.api import JSONTypedInput, paginated_response, validated
from base.fields import DecimalField, MoneyField
from base.idempotency import idempotent
from calcutta import core, selectors, services
from calcutta.models import AuctionAction, Bid, Bidder, Calcutta, OwnerTransfer, Settlement
from calcutta.services.common import SETTING_FIELDS
from clubs import access as club_access


class CalcuttaSerializer(serializers.ModelSerializer):
    event = serializers.IntegerField(source="flight.event_id", read_only=True)

    class Meta:
        model = Calcutta
        fields = [
            "id",
            "flight",
            "event",
            "status",
            *SETTING_FIELDS,
            "seed",
            "order",
            "settlement_note",
            "created_at",
        ]
        read_only_fields = fields


class CalcuttaSettingsSerializer(serializers.Serializer):
    house_take_percent = DecimalField(
        max_digits=5, decimal_places=2, min_value=0, max_value=Decimal("99.99"), required=False
    )
    payout_places = serializers.ListField(
        child=DecimalField(max_digits=5, decimal_places=2, min_value=0, max_value=100),
        min_length=1,
        max_length=64,
        required=False,
        help_text="Percent of the net pool by place (winner, finalist, 3rd, …); with the consolation share they "
        "total 100.",
    )
    consolation_percent = DecimalField(max_digits=5, decimal_places=2, min_value=0, max_value=100, required=False)
    minimum_opening_bid = MoneyField(required=False, help_text='Money as text, e.g. "10.00".')
    increment = MoneyField(required=False, help_text='Money as text, e.g. "5.00".')
    buy_back_limit_percent = DecimalField(max_digits=5, decimal_places=2, min_value=0, max_value=100, required=False)
    buy_back_deadline = serializers.DateTimeField(allow_null=True, required=False)
    self_bidding = serializers.BooleanField(required=False)

    def validate(self, attrs):
        if "payout_places" in attrs:  # the model stores percentages as text
            attrs["payout_places"] = [str(p) for p in attrs["payout_places"]]
        return attrs


class CalcuttaCreateSerializer(CalcuttaSettingsSerializer):
    flight = serializers.IntegerField(min_value=1, max_value=2**31 - 1)


class CalcuttaBoardBidSerializer(serializers.Serializer):
    bidder = serializers.CharField()
    amount_display = serializers.CharField()


class CalcuttaBoardLotSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="0 is the field")
    label = serializers.CharField()
    is_field = serializers.BooleanField()
    entrants = serializers.ListField(child=serializers.CharField())
    phase = serializers.CharField()
    phase_label = serializers.CharField()
    high_bid = serializers.IntegerField(allow_null=True, help_text="cents")
    high_bid_display = serializers.CharField(allow_null=True)
    high_bidder = serializers.CharField(allow_null=True)
    price = serializers.IntegerField(allow_null=True, help_text="cents")
    price_display = serializers.CharField(allow_null=True)
    buyer = serializers.CharField(allow_null=True)
    finish = serializers.IntegerField(allow_null=True)


class CalcuttaBoardCurrentSerializer(CalcuttaBoardLotSerializer):
    minimum_next_bid = serializers.IntegerField(help_text="cents")
    minimum_next_bid_display = serializers.CharField()
    bids = CalcuttaBoardBidSerializer(many=True)


class CalcuttaBoardSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField()
    status_label = serializers.CharField()
    version = serializers.IntegerField(help_text="Grows with every bid and auctioneer step.")
    total = serializers.IntegerField(help_text="Auction total in cents")
    total_display = serializers.CharField()
    sold = serializers.IntegerField()
    lots_count = serializers.IntegerField()
    current = CalcuttaBoardCurrentSerializer(allow_null=True)
    last_sale = CalcuttaBoardLotSerializer(
        allow_null=True, help_text="The lot just sold, while no other lot is up (for the 'SOLD to … for …' banner)."
    )
    lots = CalcuttaBoardLotSerializer(many=True)


class CalcuttaBidderSerializer(serializers.ModelSerializer):
    amount_due = serializers.IntegerField(read_only=True, allow_null=True, help_text="cents, once the auction closed")

    class Meta:
        model = Bidder
        fields = ["id", "name", "user", "player", "paid", "paid_at", "amount_due"]
        read_only_fields = fields


class CalcuttaTransferSerializer(serializers.ModelSerializer):
    """An owner's settle-up with the club: `to_club` true when the owner pays, false when the club pays them."""

    bidder_name = serializers.CharField(source="bidder.name", read_only=True)
    state = serializers.ChoiceField(choices=["open", "paid", "received"], read_only=True)

    class Meta:
        model = OwnerTransfer
        fields = ["id", "bidder", "bidder_name", "to_club", "cents", "state", "paid_at", "confirmed_at", "created_at"]
        read_only_fields = fields


class CalcuttaBidderInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
    player = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=2**31 - 1)
    user = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=2**31 - 1)


class CalcuttaLotsInputSerializer(serializers.Serializer):
    lots = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=2**31 - 1), max_length=256),
        max_length=256,
        help_text="Entry ids per lot, lots numbered 1, 2, … in this order; everyone else is in the field.",
    )


class CalcuttaProposeInputSerializer(serializers.Serializer):
    style = serializers.ChoiceField(choices=[s.value for s in core.GroupingStyle])
    singles = serializers.IntegerField(min_value=0, max_value=256, default=0)
    group_size = serializers.IntegerField(min_value=2, max_value=64, default=2)
    field = serializers.IntegerField(min_value=0, max_value=256, default=0)


class CalcuttaOrderInputSerializer(serializers.Serializer):
    order = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=32767),
        required=False,
        default=list,
        max_length=256,
        help_text="Lot numbers in the director's order; empty for the random order from the stored seed.",
    )
    reseed = serializers.BooleanField(default=False, help_text="Draw a new random order.")


class CalcuttaStepInputSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=AuctionAction.Kind.choices)


class CalcuttaBidSerializer(serializers.ModelSerializer):
    lot = serializers.IntegerField(source="lot.number", read_only=True)
    bidder_name = serializers.CharField(source="bidder.name", read_only=True)
    amount_display = serializers.SerializerMethodField()

    class Meta:
        model = Bid
        fields = ["id", "lot", "bidder", "bidder_name", "amount", "amount_display", "idempotency_key", "created_at"]
        read_only_fields = fields

    def get_amount_display(self, bid) -> str:
        return core.format_money(bid.amount)


class CalcuttaBidInputSerializer(serializers.Serializer):
    lot = serializers.IntegerField(min_value=0, max_value=32767, help_text="Lot number; 0 for the field.")
    bidder = serializers.IntegerField(min_value=1, max_value=2**31 - 1)
    amount = MoneyField(help_text='Money as text, e.g. "12.50".')
    idempotency_key = serializers.CharField(required=False, allow_blank=True, default="", max_length=80)


class CalcuttaShareSerializer(serializers.Serializer):
    bidder = serializers.IntegerField(min_value=1, max_value=2**31 - 1)
    share = serializers.CharField(max_length=40, help_text="e.g. 1/3, 0.25 or 25%")


class CalcuttaSyndicateInputSerializer(serializers.Serializer):
    lot = serializers.IntegerField(min_value=0, max_value=32767)
    holder = serializers.IntegerField(min_value=1, max_value=2**31 - 1)
    shares = CalcuttaShareSerializer(many=True, min_length=1, max_length=100)


class CalcuttaBuyBackInputSerializer(serializers.Serializer):
    # 0 (the field) passes here so that the service answers why it cannot be bought back, not "at least 1".
    lot = serializers.IntegerField(
        min_value=0, max_value=32767, help_text="Lot number; the field (0) cannot be bought back."
    )
    bidder = serializers.IntegerField(min_value=1, max_value=2**31 - 1)
    share = serializers.CharField(max_length=40, help_text="Share of the lot, e.g. 1/4 or 25%")


class CalcuttaPaidInputSerializer(serializers.Serializer):
    bidder = serializers.IntegerField(min_value=1, max_value=2**31 - 1)
    paid = serializers.BooleanField()


class CalcuttaOfferShareSerializer(serializers.Serializer):
    bidder = serializers.IntegerField()
    name = serializers.CharField()
    share = serializers.CharField()
    accepted = serializers.BooleanField()


class CalcuttaSyndicateOfferSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    lot = serializers.IntegerField(source="lot.number")
    holder = serializers.IntegerField(source="holder_id")
    status = serializers.ChoiceField(choices=["pending", "formed", "declined"], help_text="pending / formed / declined")
    shares = serializers.SerializerMethodField()
    waiting_for = serializers.SerializerMethodField(help_text="Ids of the bidders whose answer is still missing.")
    created_at = serializers.DateTimeField()
    decided_at = serializers.DateTimeField(allow_null=True)

    @extend_schema_field(CalcuttaOfferShareSerializer(many=True))
    def get_shares(self, offer) -> list[dict]:
        names = self.context.get("names") or selectors.bidder_names(offer.calcutta)
        return [
            {"bidder": int(pk), "name": names.get(int(pk), ""), "share": share, "accepted": int(pk) in offer.consents}
            for pk, share in offer.shares.items()
        ]

    def get_waiting_for(self, offer) -> list[int]:
        return sorted(offer.waiting_for())


class CalcuttaAnswerInputSerializer(serializers.Serializer):
    accept = serializers.BooleanField()


class CalcuttaHoldingSerializer(serializers.Serializer):
    lot = serializers.IntegerField()
    bidder = serializers.IntegerField()
    bidder_name = serializers.CharField()
    share = serializers.CharField(help_text="exact fraction, e.g. 1/3")
    amount_due = serializers.IntegerField()


class CalcuttaOwnerLineSerializer(serializers.Serializer):
    bidder = serializers.IntegerField()
    name = serializers.CharField()
    paid_in = serializers.IntegerField(help_text="cents")
    won = serializers.IntegerField(help_text="cents")
    net = serializers.IntegerField(help_text="paid in − won (positive: out of pocket)")


class CalcuttaSettlementSerializer(serializers.ModelSerializer):
    owners = serializers.SerializerMethodField(
        help_text="Each owner's money, filtered for the caller: every owner for the event's directors, the "
        "caller's own line for an owner, empty for anyone else (the pool, take, places and lot prizes are public)."
    )

    class Meta:
        model = Settlement
        fields = [
            "version",
            "pool",
            "house_take",
            "net_pool",
            "unclaimed",
            "places",
            "consolation_winner",
            "lot_prizes",
            "created_at",
            "owners",
        ]
        read_only_fields = fields

    @extend_schema(responses=CalcuttaOwnerLineSerializer(many=True))
    def get_owners(self, settlement) -> list[dict]:
        return [
            {
                "bidder": line.bidder_id,
                "name": line.bidder.name,
                "paid_in": line.paid_in,
                "won": line.won,
                "net": line.net,
            }
            for line in selectors.owner_lines(settlement, user=getattr(self.context.get("request"), "user", None))
        ]


class CalcuttaOwnerReportSerializer(serializers.Serializer):
    bidder = serializers.IntegerField()
    name = serializers.CharField()
    paid = serializers.BooleanField()
    paid_in = serializers.IntegerField(help_text="cents due for the holdings")
    won = serializers.IntegerField(allow_null=True)
    net = serializers.IntegerField(allow_null=True)
    holdings = CalcuttaHoldingSerializer(many=True)


def _holding_data(holding) -> dict:
    return {
        "lot": holding.lot.number,
        "bidder": holding.bidder_id,
        "bidder_name": holding.bidder.name,
        "share": f"{holding.numerator}/{holding.denominator}",
        "amount_due": holding.amount_due,
    }


class CalcuttaViewSet(JSONTypedInput, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Calcuttas the caller may see. Writes: the event's directors; a registered bidder bids as themselves."""

    serializer_class = CalcuttaSerializer
    permission_classes = [IsAuthenticatedOrReadOnly]

    def get_queryset(self):
        return selectors.newest_calcuttas(user=self.request.user)

    def _bidder(self, calcutta, bidder_id) -> Bidder:
        found = selectors.bidder_at(calcutta, bidder_id)
        if found is None:
            raise serializers.ValidationError({"bidder": ["No such bidder at this Calcutta."]})
        return found

    @extend_schema(request=CalcuttaCreateSerializer, responses={201: CalcuttaSerializer})
    def create(self, request, *args, **kwargs):
        values = dict(validated(CalcuttaCreateSerializer, request))
        flight = selectors.flight_by_id(values.pop("flight"))
        if flight is None:
            raise serializers.ValidationError({"flight": ["No such flight."]})
        calcutta = services.create_calcutta(actor=request.user, flight=flight, **values)
        return Response(CalcuttaSerializer(calcutta).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=CalcuttaSettingsSerializer,
        responses=CalcuttaSerializer,
        description="Change settings while the Calcutta is being set up (send only what changes).",
    )
    @action(detail=True, methods=["patch"], url_path="settings")
    def change_settings(self, request, pk=None):
        values = validated(CalcuttaSettingsSerializer, request, partial=True)
        calcutta = services.update_settings(actor=request.user, calcutta=self.get_object(), **values)
        return Response(CalcuttaSerializer(calcutta).data)

    @extend_schema(
        responses=CalcuttaBoardSerializer, description="The live board: poll it (it changes with every step)."
    )
    @action(detail=True, methods=["get"])
    def board(self, request, pk=None):
        return Response(selectors.board(calcutta=self.get_object()))

    @extend_schema(methods=["get"], responses=CalcuttaBidderSerializer(many=True))
    @extend_schema(methods=["post"], request=CalcuttaBidderInputSerializer, responses={201: CalcuttaBidderSerializer})
    @action(detail=True, methods=["get", "post"])
    def bidders(self, request, pk=None):
        calcutta = self.get_object()
        if request.method == "GET":
            return paginated_response(self, selectors.bidders(calcutta=calcutta), CalcuttaBidderSerializer)
        values = validated(CalcuttaBidderInputSerializer, request)
        player = user = None
        if values.get("player"):
            player = selectors.club_player(calcutta, values["player"])
            if player is None:
                raise serializers.ValidationError({"player": ["No such player at this club."]})
        if values.get("user"):
            user = selectors.user_by_id(values["user"])
            if user is None:
                raise serializers.ValidationError({"user": ["No such user."]})
        bidder = services.register_bidder(
            actor=request.user, calcutta=calcutta, name=values["name"], user=user, player=player
        )
        return Response(CalcuttaBidderSerializer(bidder).data, status=status.HTTP_201_CREATED)

    @extend_schema(methods=["get"], responses=CalcuttaBoardLotSerializer(many=True))
    @extend_schema(
        methods=["put"], request=CalcuttaLotsInputSerializer, responses=CalcuttaBoardLotSerializer(many=True)
    )
    # At most one lot per entry plus the field: the whole board's lots come as one array.
    @action(detail=True, methods=["get", "put"], pagination_class=None)
    def lots(self, request, pk=None):
        calcutta = self.get_object()
        if request.method == "PUT":
            services.set_lots(
                actor=request.user,
                calcutta=calcutta,
                groups=validated(CalcuttaLotsInputSerializer, request)["lots"],
            )
            calcutta.refresh_from_db()
        return Response(selectors.board(calcutta=calcutta)["lots"])

    @extend_schema(
        request=CalcuttaProposeInputSerializer,
        responses=CalcuttaLotsInputSerializer,
        description="An automatic grouping by rating for the director to edit; nothing is saved.",
    )
    @action(detail=True, methods=["post"], url_path="lots/propose")
    def propose(self, request, pk=None):
        calcutta = self.get_object()
        club_access.require(request.user, "calcutta.direct", calcutta)
        values = validated(CalcuttaProposeInputSerializer, request)
        groups = selectors.propose_lots(calcutta=calcutta, **values)  # a CalcuttaError answers 400 by itself
        return Response({"lots": groups})

    @extend_schema(request=CalcuttaOrderInputSerializer, responses=CalcuttaSerializer)
    @action(detail=True, methods=["post"])
    def order(self, request, pk=None):
        values = validated(CalcuttaOrderInputSerializer, request)
        calcutta = services.set_order(actor=request.user, calcutta=self.get_object(), **values)
        return Response(CalcuttaSerializer(calcutta).data)

    @extend_schema(
        request=CalcuttaStepInputSerializer,
        responses=CalcuttaBoardSerializer,
        description="The auctioneer's steps. A step out of turn answers 409 with what to do instead.",
    )
    @action(detail=True, methods=["post"])
    def auctioneer(self, request, pk=None):
        values = validated(CalcuttaStepInputSerializer, request)
        calcutta = services.auctioneer_step(actor=request.user, calcutta=self.get_object(), **values)
        return Response(selectors.board(calcutta=calcutta))

    @idempotent
    @extend_schema(methods=["get"], responses=CalcuttaBidSerializer(many=True))
    @extend_schema(
        methods=["post"],
        request=CalcuttaBidInputSerializer,
        responses={201: CalcuttaBidSerializer, 200: CalcuttaBidSerializer},
        description="Bid on the lot that is up. The same idempotency_key returns the bid already placed (200). "
        "A bid on a sold lot or after the close answers 409.",
    )
    @action(detail=True, methods=["get", "post"])
    def bids(self, request, pk=None):
        if request.method == "GET":
            bids = selectors.bids(calcutta=self.get_object())
            return paginated_response(self, bids, CalcuttaBidSerializer)
        # A bid finds its Calcutta and bidder in one query (selectors.bidder_to_bid_as); the answers stay those of
        # get_object first: 404 for a Calcutta the caller cannot see, before any complaint about the body.
        try:
            values = validated(CalcuttaBidInputSerializer, request)
        except APIException:  # bad input or a body that does not parse
            self.get_object()
            raise
        bidder = selectors.bidder_to_bid_as(user=request.user, calcutta_pk=pk, bidder_pk=values["bidder"])
        if bidder is None:
            bidder = self._bidder(self.get_object(), values["bidder"])
        bid, created = services.place_bid(
            actor=request.user,
            calcutta=bidder.calcutta,
            lot_number=values["lot"],
            bidder=bidder,
            amount=values["amount"],
            idempotency_key=values["idempotency_key"],
        )
        return Response(
            CalcuttaBidSerializer(bid).data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK
        )

    @extend_schema(responses=CalcuttaHoldingSerializer(many=True))
    @action(detail=True, methods=["get"])
    def holdings(self, request, pk=None):
        rows = selectors.holdings(calcutta=self.get_object())
        return paginated_response(self, rows, to_data=_holding_data)

    def _lot_holdings(self, calcutta, lot_number: int) -> Response:
        """After a syndicate or a buy-back: who holds the lot that changed now (a few owners, one array)."""
        return Response([_holding_data(h) for h in selectors.holdings(calcutta=calcutta, lot_number=lot_number)])

    @extend_schema(
        request=CalcuttaSyndicateInputSerializer,
        responses={201: CalcuttaSyndicateOfferSerializer},
        description="Offer a syndicate for a lot. It forms (status formed) once every bidder named has accepted; "
        "the proposer's word counts for the bidders they answer for (themselves; a director for guests without a "
        "login).",
    )
    @action(detail=True, methods=["post"])
    def syndicate(self, request, pk=None):
        calcutta = self.get_object()
        values = validated(CalcuttaSyndicateInputSerializer, request)
        shares = {self._bidder(calcutta, s["bidder"]): s["share"] for s in values["shares"]}
        offer = services.offer_syndicate(
            actor=request.user,
            calcutta=calcutta,
            lot_number=values["lot"],
            holder=self._bidder(calcutta, values["holder"]),
            shares=shares,
        )
        return Response(CalcuttaSyndicateOfferSerializer(offer).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses=CalcuttaSyndicateOfferSerializer(many=True))
    # The offers of one Calcutta: a handful per lot at most, a small array rather than a page.
    @action(detail=True, methods=["get"], url_path="syndicate-offers", pagination_class=None)
    def syndicate_offers(self, request, pk=None):
        """The syndicate offers the caller is a party to (all of them for a director)."""
        calcutta = self.get_object()
        offers = selectors.syndicate_offers(calcutta=calcutta, user=request.user)
        names = selectors.bidder_names(calcutta)
        return Response(CalcuttaSyndicateOfferSerializer(offers, many=True, context={"names": names}).data)

    @extend_schema(request=CalcuttaAnswerInputSerializer, responses=CalcuttaSyndicateOfferSerializer)
    @action(detail=True, methods=["post"], url_path=r"syndicate-offers/(?P<offer_id>[0-9]{1,9})/answer")
    def answer_offer(self, request, pk=None, offer_id=None):
        """Accept or decline a syndicate offer (for yourself; a director for guests without a login)."""
        calcutta = self.get_object()
        offer = selectors.offer_at(calcutta, offer_id)
        if offer is None:
            raise Http404
        values = validated(CalcuttaAnswerInputSerializer, request)
        offer = services.answer_syndicate(actor=request.user, offer=offer, accept=values["accept"])
        return Response(CalcuttaSyndicateOfferSerializer(offer).data)

    @extend_schema(
        request=CalcuttaBuyBackInputSerializer,
        responses=CalcuttaHoldingSerializer(many=True),
        description="A player buys back a share of their own lot; answers the lot's holdings after the change.",
    )
    @action(detail=True, methods=["post"], url_path="buy-back", pagination_class=None)
    def buy_back(self, request, pk=None):
        calcutta = self.get_object()
        values = validated(CalcuttaBuyBackInputSerializer, request)
        services.buy_back(
            actor=request.user,
            calcutta=calcutta,
            lot_number=values["lot"],
            bidder=self._bidder(calcutta, values["bidder"]),
            share=values["share"],
        )
        return self._lot_holdings(calcutta, values["lot"])

    @extend_schema(request=CalcuttaPaidInputSerializer, responses=CalcuttaBidderSerializer)
    @action(detail=True, methods=["post"])
    def paid(self, request, pk=None):
        calcutta = self.get_object()
        values = validated(CalcuttaPaidInputSerializer, request)
        bidder = services.set_paid(
            actor=request.user, calcutta=calcutta, bidder=self._bidder(calcutta, values["bidder"]), paid=values["paid"]
        )
        return Response(CalcuttaBidderSerializer(bidder).data)

    @extend_schema(
        responses={200: CalcuttaSettlementSerializer, 204: None},
        description="The current settlement (204 while the Calcutta is not settled). The owners' lines are "
        "filtered for the caller: all of them for the event's directors, an owner's own line for that owner, none "
        "for anyone else.",
    )
    @action(detail=True, methods=["get"])
    def settlement(self, request, pk=None):
        settlement = selectors.current_settlement(self.get_object())
        if settlement is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(CalcuttaSettlementSerializer(settlement, context={"request": request}).data)

    @extend_schema(
        responses=CalcuttaTransferSerializer(many=True),
        description="Each owner's settle-up with the club once settled: who pays whom, and whether it is marked "
        "paid and confirmed received (one per owner: a short array, not a page). Filtered for the caller: every "
        "owner's for the event's directors, an owner's own for that owner, empty for anyone else.",
    )
    @action(detail=True, methods=["get"], pagination_class=None)
    def transfers(self, request, pk=None):
        transfers = selectors.owner_transfers(self.get_object(), user=request.user)
        return Response(CalcuttaTransferSerializer(transfers, many=True).data)

    @idempotent
    @extend_schema(
        request=None,
        responses=CalcuttaTransferSerializer,
        description="The payer marks an owner's settle-up paid (the owner paying the club, or a director).",
    )
    @action(detail=True, methods=["post"], url_path=r"transfers/(?P<transfer>[0-9]+)/paid")
    def transfer_paid(self, request, pk=None, transfer=None):
        done = services.mark_transfer_paid(actor=request.user, calcutta=self.get_object(), transfer_id=int(transfer))
        return Response(CalcuttaTransferSerializer(done).data)

    @idempotent
    @extend_schema(
        request=None,
        responses=CalcuttaTransferSerializer,
        description="The payee confirms an owner's settle-up received (the owner paid by the club, or a director).",
    )
    @action(detail=True, methods=["post"], url_path=r"transfers/(?P<transfer>[0-9]+)/received")
    def transfer_received(self, request, pk=None, transfer=None):
        done = services.confirm_transfer_received(
            actor=request.user, calcutta=self.get_object(), transfer_id=int(transfer)
        )
        return Response(CalcuttaTransferSerializer(done).data)

    @extend_schema(
        request=None,
        responses={200: CalcuttaSettlementSerializer, 204: None},
        description="Settle again from the bracket now (directors).",
    )
    @action(detail=True, methods=["post"])
    def settle(self, request, pk=None):
        settlement = services.resettle(actor=request.user, calcutta=self.get_object())
        if settlement is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(CalcuttaSettlementSerializer(settlement, context={"request": request}).data)

    @extend_schema(responses=CalcuttaOwnerReportSerializer)
    @action(detail=True, methods=["get"], url_path=r"owners/(?P<bidder_id>[0-9]{1,9})")
    def owner(self, request, pk=None, bidder_id=None):
        calcutta = self.get_object()
        bidder = selectors.bidder_at(calcutta, bidder_id)
        if bidder is None:
            raise Http404
        club_access.require(request.user, "calcutta.see_owner_report", bidder)
        report = selectors.owner_report(calcutta=calcutta, bidder=bidder)
        return Response(
            {
                "bidder": bidder.pk,
                "name": bidder.name,
                "paid": bidder.paid,
                "paid_in": report["paid_in"],
                "won": report["won"],
                "net": report["net"],
                "holdings": [_holding_data(item["holding"]) for item in report["holdings"]],
            }
        )
