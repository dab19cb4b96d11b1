"""Calcutta auctions on a tournament flight: settings, bidders, lots, the live auction's steps, ownership and
settlement.

The rules live in `calcutta.core` (no Django import). These rows store what the core needs to rebuild
the auction (`Bid` and `AuctionAction` rows share one step sequence per Calcutta, so replaying them in step order
rebuilds the same `core.Auction`) and what pages read quickly (each lot's phase, high bid, price and buyer are
kept in step by the services after every action). Money is integer cents; shares are stored as exact fractions.
"""

from fractions import Fraction

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from base.models import SettleUp
from base.settle_up import Reminder


class CalcuttaStatus(models.TextChoices):
    SETUP = "setup", _("Setting up")
    OPEN = "open", _("Auction running")
    CLOSED = "closed", _("Auction closed")
    SETTLED = "settled", _("Settled")


class LotPhase(models.TextChoices):
    PENDING = "pending", _("Waiting")
    OPEN = "open", _("Open for bids")
    GOING_ONCE = "going_once", _("Going once")
    GOING_TWICE = "going_twice", _("Going twice")
    SOLD = "sold", _("Sold")
    PASSED = "passed", _("Passed into the field")


class Calcutta(models.Model):
    """One auction per flight, with the director's settings (amounts in cents, percentages exact)."""

    flight = models.OneToOneField("tournaments.Flight", on_delete=models.CASCADE, related_name="calcutta")
    house_take_percent = models.DecimalField(_("house take %"), max_digits=5, decimal_places=2, default=10)
    payout_places = models.JSONField(
        _("payout table"), default=list, help_text=_("Percent of the net pool by place: winner, finalist, 3rd, …")
    )
    consolation_percent = models.DecimalField(_("consolation winner %"), max_digits=5, decimal_places=2, default=0)
    minimum_opening_bid = models.PositiveIntegerField(_("minimum opening bid (cents)"), default=100)
    increment = models.PositiveIntegerField(_("increment (cents)"), default=100)
    buy_back_limit_percent = models.DecimalField(
        _("buy-back limit %"),
        max_digits=5,
        decimal_places=2,
        default=50,
        help_text=_("Of the player's own part of a lot; 0 turns buy-backs off."),
    )
    buy_back_deadline = models.DateTimeField(_("buy-backs until"), null=True, blank=True)
    self_bidding = models.BooleanField(_("players may bid on themselves"), default=False)
    status = models.CharField(_("status"), max_length=12, choices=CalcuttaStatus.choices, default=CalcuttaStatus.SETUP)
    seed = models.BigIntegerField(_("order seed"), help_text=_("The random auction order is drawn from it."))
    order = models.JSONField(
        _("auction order"), default=list, blank=True, help_text=_("Lot numbers in the director's order; empty: random.")
    )
    entrants = models.JSONField(
        default=list, blank=True, help_text=_("Entry ids in the auction, fixed when it opens (later entries are not).")
    )
    steps = models.PositiveIntegerField(default=0, help_text=_("Auction steps taken (bids and auctioneer actions)."))
    current_lot = models.ForeignKey("Lot", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    settlement_note = models.CharField(
        max_length=300, blank=True, help_text=_("Why the Calcutta cannot be settled yet (e.g. a paid place is open).")
    )
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(status__in=CalcuttaStatus.values), name="calcutta_status_known"),
            models.CheckConstraint(
                condition=Q(house_take_percent__gte=0, house_take_percent__lt=100), name="calcutta_take_0_to_100"
            ),
            models.CheckConstraint(
                condition=Q(consolation_percent__gte=0, consolation_percent__lte=100),
                name="calcutta_consolation_0_to_100",
            ),
            models.CheckConstraint(
                condition=Q(buy_back_limit_percent__gte=0, buy_back_limit_percent__lte=100),
                name="calcutta_buy_back_0_to_100",
            ),
            models.CheckConstraint(
                condition=Q(minimum_opening_bid__gte=1, increment__gte=1), name="calcutta_bid_steps_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"Calcutta {self.flight}"

    def get_absolute_url(self) -> str:
        return reverse("calcutta:detail", kwargs={"pk": self.pk})

    @property
    def event(self):
        return self.flight.event

    @property
    def club(self):
        """The club of the flight's event: a Calcutta belongs to no club of its own (clubs.access)."""
        return self.flight.event.club

    def user_is_director(self, user) -> bool:
        if not getattr(user, "is_authenticated", False):
            return False
        return bool(user.is_superuser or self.flight.event.user_is_director(user))


class Bidder(models.Model):
    """Someone registered to bid at this Calcutta; a bidder need not be a player, nor have a login."""

    calcutta = models.ForeignKey(Calcutta, on_delete=models.CASCADE, related_name="bidders")
    name = models.CharField(_("name"), max_length=120)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    player = models.ForeignKey(
        "clubs.Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="calcutta_bidders"
    )
    paid = models.BooleanField(_("paid"), default=False)
    paid_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["calcutta", "id"]
        constraints = [
            models.UniqueConstraint(fields=["calcutta", "name"], name="calcutta_bidder_unique_name"),
            models.UniqueConstraint(
                fields=["calcutta", "user"], condition=Q(user__isnull=False), name="calcutta_bidder_unique_user"
            ),
            models.UniqueConstraint(
                fields=["calcutta", "player"], condition=Q(player__isnull=False), name="calcutta_bidder_unique_player"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("calcutta:owner", kwargs={"pk": self.calcutta_id, "bidder": self.pk})


class Lot(models.Model):
    """One entrant, several entrants, or the field (number 0: everyone in no other lot and of passed lots)."""

    calcutta = models.ForeignKey(Calcutta, on_delete=models.CASCADE, related_name="lots")
    number = models.PositiveSmallIntegerField(_("lot"))
    is_field = models.BooleanField(default=False)
    entries = models.ManyToManyField("tournaments.Entry", related_name="calcutta_lots", blank=True)
    phase = models.CharField(_("phase"), max_length=12, choices=LotPhase.choices, default=LotPhase.PENDING)
    high_bid = models.PositiveIntegerField(null=True, blank=True)
    high_bidder = models.ForeignKey(Bidder, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    price = models.PositiveIntegerField(_("price (cents)"), null=True, blank=True)
    buyer = models.ForeignKey(Bidder, null=True, blank=True, on_delete=models.PROTECT, related_name="bought_lots")
    hammer_index = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("When its hammer fell (0, 1, …).")
    )
    finish = models.PositiveSmallIntegerField(
        _("best finish"), null=True, blank=True, help_text=_("Best main-flight place of its entrants so far.")
    )

    class Meta:
        ordering = ["calcutta", "is_field", "number"]
        constraints = [
            models.UniqueConstraint(fields=["calcutta", "number"], name="calcutta_lot_unique_number"),
            models.CheckConstraint(
                condition=Q(is_field=True, number=0) | Q(is_field=False, number__gte=1),
                name="calcutta_lot_field_is_number_0",
            ),
            models.CheckConstraint(condition=Q(phase__in=LotPhase.values), name="calcutta_lot_phase_known"),
            models.CheckConstraint(
                condition=Q(phase="sold", price__isnull=False, buyer__isnull=False)
                | (~Q(phase="sold") & Q(price__isnull=True, buyer__isnull=True)),
                name="calcutta_lot_sold_has_price_and_buyer",
            ),
        ]

    def __str__(self) -> str:
        return str(_("the field")) if self.is_field else str(_("Lot %(n)s") % {"n": self.number})

    @property
    def core_id(self):
        return "field" if self.is_field else self.number


class ActionKind(models.TextChoices):
    OPEN = "open", _("Open the auction")
    OPEN_NEXT_LOT = "open_next_lot", _("Open the next lot")
    GOING_ONCE = "going_once", _("Going once")
    GOING_TWICE = "going_twice", _("Going twice")
    SELL = "sell", _("Sold")
    PASS_LOT = "pass_lot", _("Pass into the field")
    UNDO_LAST = "undo_last", _("Undo the last hammer")
    CLOSE = "close", _("Close the auction")


class AuctionAction(models.Model):
    """An auctioneer's step (open, open next lot, going once, going twice, sell, pass, undo, close)."""

    Kind = ActionKind

    calcutta = models.ForeignKey(Calcutta, on_delete=models.CASCADE, related_name="actions")
    step = models.PositiveIntegerField()
    action = models.CharField(max_length=16, choices=ActionKind.choices)
    lot = models.ForeignKey(Lot, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["calcutta", "step"]
        constraints = [
            models.UniqueConstraint(fields=["calcutta", "step"], name="calcutta_action_unique_step"),
            models.CheckConstraint(condition=Q(action__in=ActionKind.values), name="calcutta_action_known"),
        ]


class Bid(models.Model):
    """A bid that the auction accepted. A retried request with the same idempotency key finds this row instead of
    placing a second bid (the key is unique per Calcutta)."""

    calcutta = models.ForeignKey(Calcutta, on_delete=models.CASCADE, related_name="bids")
    lot = models.ForeignKey(Lot, on_delete=models.CASCADE, related_name="bids")
    bidder = models.ForeignKey(Bidder, on_delete=models.PROTECT, related_name="bids")
    amount = models.PositiveIntegerField(_("amount (cents)"))
    idempotency_key = models.CharField(max_length=80, blank=True, default="")
    step = models.PositiveIntegerField()
    placed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["calcutta", "step"]
        constraints = [
            models.UniqueConstraint(fields=["calcutta", "step"], name="calcutta_bid_unique_step"),
            models.UniqueConstraint(
                fields=["calcutta", "idempotency_key"],
                condition=~Q(idempotency_key=""),
                name="calcutta_bid_unique_idempotency_key",
            ),
            models.CheckConstraint(condition=Q(amount__gte=1), name="calcutta_bid_positive"),
        ]


class ChangeKind(models.TextChoices):
    SYNDICATE = "syndicate", _("Syndicate")
    BUY_BACK = "buy_back", _("Buy-back")


class OwnershipChange(models.Model):
    """A syndicate formed or a buy-back made after the close; replayed in order onto the auction's sales."""

    Kind = ChangeKind

    calcutta = models.ForeignKey(Calcutta, on_delete=models.CASCADE, related_name="ownership_changes")
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=12, choices=ChangeKind.choices)
    lot = models.ForeignKey(Lot, on_delete=models.CASCADE, related_name="+")
    bidder = models.ForeignKey(
        Bidder,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("The holder who splits, or the player buying back."),
    )
    shares = models.JSONField(default=dict, blank=True, help_text=_("Syndicate: bidder id → share of the holding."))
    share = models.CharField(max_length=40, blank=True, help_text=_("Buy-back: the share of the lot, e.g. 1/4."))
    at = models.DateTimeField()
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["calcutta", "number"]
        constraints = [
            models.UniqueConstraint(fields=["calcutta", "number"], name="calcutta_ownership_change_unique_number"),
            models.CheckConstraint(
                condition=Q(kind__in=ChangeKind.values), name="calcutta_ownership_change_kind_known"
            ),
        ]


class OfferStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for answers")
    FORMED = "formed", _("Formed")
    DECLINED = "declined", _("Declined")


class SyndicateOffer(models.Model):
    """A syndicate proposed for a lot: it takes effect (as an OwnershipChange) only when every party consents.

    Why: a share of a lot is money owed. Nobody may put a bidder into a syndicate (or split a holder's lot)
    without their word: each party with a login accepts for themselves; the director speaks for the bidders
    they registered without one (guests in the room). One refusal declines the offer."""

    Status = OfferStatus

    calcutta = models.ForeignKey(Calcutta, on_delete=models.CASCADE, related_name="syndicate_offers")
    lot = models.ForeignKey(Lot, on_delete=models.CASCADE, related_name="+")
    holder = models.ForeignKey(Bidder, on_delete=models.PROTECT, related_name="+")
    shares = models.JSONField(default=dict, help_text=_("Bidder id → share of the holding."))
    consents = models.JSONField(default=list, blank=True, help_text=_("Ids of the parties who accepted."))
    status = models.CharField(max_length=12, choices=OfferStatus.choices, default=OfferStatus.PENDING)
    declined_by = models.ForeignKey(Bidder, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    change = models.OneToOneField(
        OwnershipChange, null=True, blank=True, on_delete=models.CASCADE, related_name="offer"
    )
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["calcutta", "-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=OfferStatus.values), name="calcutta_syndicate_offer_status_known"
            ),
            models.CheckConstraint(
                condition=Q(status="pending", decided_at__isnull=True)
                | (~Q(status="pending") & Q(decided_at__isnull=False)),
                name="calcutta_syndicate_offer_decided_when_not_pending",
            ),
            models.CheckConstraint(
                condition=~Q(status="formed") | Q(change__isnull=False),
                name="calcutta_syndicate_offer_formed_has_change",
            ),
        ]

    def parties(self) -> set[int]:
        """The holder and every member: each must consent."""
        return {self.holder_id, *(int(k) for k in self.shares)}

    def waiting_for(self) -> set[int]:
        return self.parties() - set(self.consents)


class Holding(models.Model):
    """Who owns which exact fraction of a sold lot, and what they pay for it (rebuilt after every change)."""

    lot = models.ForeignKey(Lot, on_delete=models.CASCADE, related_name="holdings")
    bidder = models.ForeignKey(Bidder, on_delete=models.PROTECT, related_name="holdings")
    numerator = models.PositiveIntegerField()
    denominator = models.PositiveIntegerField()
    amount_due = models.PositiveIntegerField(_("amount due (cents)"))

    class Meta:
        ordering = ["lot", "bidder"]
        constraints = [
            models.UniqueConstraint(fields=["lot", "bidder"], name="calcutta_holding_unique_owner"),
            models.CheckConstraint(
                condition=Q(numerator__gte=1, denominator__gte=1, numerator__lte=models.F("denominator")),
                name="calcutta_holding_share_in_0_1",
            ),
        ]

    @property
    def share(self) -> Fraction:
        return Fraction(self.numerator, self.denominator)

    @property
    def percent(self) -> float:
        return float(self.share * 100)


class Settlement(models.Model):
    """One version of the settlement; a corrected result writes a new version and retires the old one."""

    calcutta = models.ForeignKey(Calcutta, on_delete=models.CASCADE, related_name="settlements")
    version = models.PositiveIntegerField()
    is_current = models.BooleanField(default=True)
    pool = models.PositiveIntegerField()
    house_take = models.PositiveIntegerField()
    net_pool = models.PositiveIntegerField()
    unclaimed = models.PositiveIntegerField()
    places = models.JSONField(default=dict, help_text=_("Main-flight place by entry id."))
    consolation_winner = models.PositiveIntegerField(null=True, blank=True, help_text=_("Entry id."))
    lot_prizes = models.JSONField(default=dict, help_text=_("Prize by lot number (cents)."))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["calcutta", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["calcutta", "version"], name="calcutta_settlement_unique_version"),
            models.UniqueConstraint(
                fields=["calcutta"], condition=Q(is_current=True), name="calcutta_settlement_one_current"
            ),
            models.CheckConstraint(
                condition=Q(net_pool=models.F("pool") - models.F("house_take")), name="calcutta_settlement_net_pool"
            ),
        ]


class OwnerLine(models.Model):
    """An owner's line in a settlement: paid in, won; net = paid in − won (positive: out of pocket)."""

    settlement = models.ForeignKey(Settlement, on_delete=models.CASCADE, related_name="owner_lines")
    bidder = models.ForeignKey(Bidder, on_delete=models.PROTECT, related_name="+")
    paid_in = models.PositiveIntegerField()
    won = models.PositiveIntegerField()

    class Meta:
        ordering = ["settlement", "bidder"]
        constraints = [models.UniqueConstraint(fields=["settlement", "bidder"], name="calcutta_owner_line_unique")]

    @property
    def net(self) -> int:
        return self.paid_in - self.won


class Payout(models.Model):
    """What one owner wins from one lot in one settlement version."""

    settlement = models.ForeignKey(Settlement, on_delete=models.CASCADE, related_name="payouts")
    lot = models.ForeignKey(Lot, on_delete=models.CASCADE, related_name="+")
    bidder = models.ForeignKey(Bidder, on_delete=models.PROTECT, related_name="+")
    amount = models.PositiveIntegerField()

    class Meta:
        ordering = ["settlement", "lot", "bidder"]
        constraints = [models.UniqueConstraint(fields=["settlement", "lot", "bidder"], name="calcutta_payout_unique")]


class OwnerTransfer(SettleUp):
    """What settles an owner with the club once the Calcutta is settled (`services.settlement.sync_transfers`):
    the owner pays the club what they are out of pocket, or the club pays the owner what they come out ahead by
    (their winnings if they paid in, else their winnings less what they still owe). One per owner; while nobody
    has marked it paid it follows the current settlement and the paid flags, after that it keeps its amount.
    Marking paid and confirming are `base.settle_up`'s, as a chouette transfer's."""

    calcutta = models.ForeignKey(Calcutta, on_delete=models.CASCADE, related_name="transfers")
    bidder = models.ForeignKey(Bidder, on_delete=models.PROTECT, related_name="transfers")
    to_club = models.BooleanField(help_text=_("True: the owner pays the club; False: the club pays the owner."))
    cents = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["calcutta", "bidder"]
        constraints = [
            models.UniqueConstraint(fields=["calcutta", "bidder"], name="calcutta_transfer_one_per_owner"),
            models.CheckConstraint(condition=Q(cents__gt=0), name="calcutta_transfer_positive"),
        ]

    def reminder(self) -> Reminder:
        """The owner's side by their login (none: nobody), the club's side by its directors."""
        calcutta = self.calcutta
        club = calcutta.flight.event.club
        payer_acts = self.paid_at is None  # who acts next: the payer until it is marked paid, then the payee
        role = "payer" if payer_acts else "payee"
        owner_acts = payer_acts == self.to_club  # the owner pays the club, or the club pays the owner
        users = (self.bidder.user_id,) if owner_acts and self.bidder.user_id else ()
        other = club.name if owner_acts else self.bidder.name
        where = f"Calcutta {calcutta.flight.name}"
        url = reverse("calcutta:settlement", kwargs={"pk": calcutta.pk})
        directors = None if owner_acts else club.pk
        return Reminder(users, role, other, self.cents, where, url, f"calcutta-transfer:{self.pk}", directors)
