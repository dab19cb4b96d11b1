"""Chouette sessions at a club: seats and stakes, the session's events (starting order, games, players
joining, leaving, sitting out) as versioned records, the ledger derived from them, and the money settled.

Games are never edited in place: a correction adds a new version of the event and retires the old one; an
undo retires the last game. The ledger and the seating follow from the current events: a new event is applied
to the stored snapshot of the state before it, an undo or a correction replays them all
(chouette.services.common), so they always match what the events say.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from base.models import SettleUp
from base.settle_up import Reminder
from clubs.models import Club, Player
from games.models.variants import VariantFields, variant_constraints


class SessionStatus(models.TextChoices):
    SEATING = "seating", _("Seating")
    OPEN = "open", _("Open")
    FINISHED = "finished", _("Finished")


# Guarded transitions: seating -> open (the order is set) -> finished (settled). Nothing goes back.
TRANSITIONS = {SessionStatus.SEATING: {SessionStatus.OPEN}, SessionStatus.OPEN: {SessionStatus.FINISHED}}


class ChouetteSession(VariantFields):  # with Dave stakes a game's entry is the final stake, not a cube
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="chouette_sessions")
    name = models.CharField(_("name"), max_length=120, blank=True)
    status = models.CharField(_("status"), max_length=16, choices=SessionStatus.choices, default=SessionStatus.SEATING)
    rules = models.JSONField(_("rules"), default=dict, blank=True)
    default_stake_cents = models.PositiveIntegerField(_("stake per point (cents)"), default=100)
    currency = models.CharField(_("currency"), max_length=3, default="EUR")
    # The state after replaying the current events, kept for fast reads by the live table and its poll.
    order = models.JSONField(default=list, blank=True)  # player ids: box, captain, crew
    sitting_out = models.JSONField(default=list, blank=True)
    games_played = models.PositiveIntegerField(default=0)
    revision = models.PositiveIntegerField(default=0)  # grows with every change; the live page polls it
    # The core's whole state after the current events (chouette.core.session.to_snapshot), written in the same
    # transaction as every change: a new game or seat change applies one event to it, so entering game 1,000
    # costs what entering game 10 does. An undo or a correction replays the events and writes it anew.
    snapshot = models.JSONField(default=dict, blank=True, editable=False)
    # The short code a newcomer types (or scans as a QR) to ask for a seat (chouette.services.joining); unique
    # among the tables not finished, so a code names one open table. Null only for tables made before codes.
    join_code = models.CharField(_("join code"), max_length=8, null=True, blank=True, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(status__in=SessionStatus.values), name="chouette_session_status_known"),
            models.CheckConstraint(
                condition=Q(status=SessionStatus.FINISHED) | Q(finished_at__isnull=True),
                name="chouette_session_finished_at_only_when_finished",
            ),
            *variant_constraints("chouette_session"),
            models.UniqueConstraint(
                fields=["join_code"],
                condition=Q(join_code__isnull=False) & ~Q(status="finished"),
                name="chouette_session_join_code_unique_while_open",
            ),
        ]

    def __str__(self) -> str:
        return self.name or f"Chouette #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("chouette:session-detail", kwargs={"slug": self.club.slug, "pk": self.pk})


class SeatStatus(models.TextChoices):
    SEATED = "seated", _("At the table")
    SITTING_OUT = "sitting_out", _("Sitting out")
    LEFT = "left", _("Left")


class Seat(models.Model):
    """A player in a session, with their stake and the dice they rolled for the starting order."""

    session = models.ForeignKey(ChouetteSession, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="chouette_seats")
    stake_cents = models.PositiveIntegerField(_("stake per point (cents)"))
    rolls = models.JSONField(default=list, blank=True)
    status = models.CharField(max_length=16, choices=SeatStatus.choices, default=SeatStatus.SEATED)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session", "joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["session", "player"], name="chouette_seat_once_per_session"),
            models.CheckConstraint(condition=Q(stake_cents__gt=0), name="chouette_seat_stake_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.session}"


class EventKind(models.TextChoices):
    START = "start", _("Starting order")
    GAME = "game", _("Game")
    JOIN = "join", _("Joined")
    LEAVE = "leave", _("Left")
    SIT_OUT = "sit_out", _("Sits out")
    RETURN = "return", _("Back at the table")


class SessionEvent(models.Model):
    """One thing that happened at the table, in order (seq). A correction is a new version of the same seq;
    an undone game keeps its row, retired, with who undid it and when."""

    session = models.ForeignKey(ChouetteSession, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    version = models.PositiveIntegerField(default=1)
    kind = models.CharField(max_length=16, choices=EventKind.choices)
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    game_number = models.PositiveIntegerField(null=True, blank=True)
    payload = models.JSONField(default=dict, blank=True)  # the order (start) or the game as entered
    is_current = models.BooleanField(default=True)
    retired_reason = models.CharField(max_length=16, blank=True)  # "corrected" or "undone"
    reason = models.CharField(_("reason"), max_length=500, blank=True)  # why a correction was made
    idempotency_key = models.CharField(max_length=80, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    retired_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    retired_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["session", "seq", "version"]
        constraints = [
            models.UniqueConstraint(fields=["session", "seq", "version"], name="chouette_event_version_unique"),
            models.UniqueConstraint(
                fields=["session", "seq"], condition=Q(is_current=True), name="chouette_event_one_current_per_seq"
            ),
            models.UniqueConstraint(
                fields=["session", "game_number"],
                condition=Q(is_current=True, kind="game"),
                name="chouette_event_one_current_game_per_number",
            ),
            models.UniqueConstraint(
                fields=["session", "idempotency_key"],
                condition=~Q(idempotency_key=""),
                name="chouette_event_idempotency_key_unique",
            ),
            models.CheckConstraint(
                condition=Q(kind="game", game_number__isnull=False) | (~Q(kind="game") & Q(game_number__isnull=True)),
                name="chouette_event_game_number_only_for_games",
            ),
            models.CheckConstraint(condition=Q(kind__in=EventKind.values), name="chouette_event_kind_known"),
        ]

    def __str__(self) -> str:
        return f"{self.session} #{self.seq}v{self.version} {self.kind}"


class LedgerEntry(models.Model):
    """A player's points and money from one game (derived; rebuilt from the events on every change)."""

    session = models.ForeignKey(ChouetteSession, on_delete=models.CASCADE, related_name="ledger")
    event = models.ForeignKey(SessionEvent, on_delete=models.CASCADE, related_name="ledger")
    game_number = models.PositiveIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="chouette_ledger")
    role = models.CharField(max_length=16)  # box, partner, captain, acting_captain, crew
    points = models.DecimalField(max_digits=10, decimal_places=1)
    cents = models.BigIntegerField()
    # The member settled with the box during the game (a deal): these points are the deal, not the board's result.
    deal = models.BooleanField(default=False)

    class Meta:
        ordering = ["session", "game_number", "id"]
        constraints = [
            models.UniqueConstraint(fields=["session", "game_number", "player"], name="chouette_ledger_once_per_game")
        ]


class TransferKind(models.TextChoices):
    CASH_OUT = "cash_out", _("Cash-out")
    SETTLEMENT = "settlement", _("Settlement")


class Transfer(SettleUp):
    """Money that changes hands: a cash-out when a player leaves early, or the final settlement. Settling up (the
    payer marks it paid, the payee confirms, a reminder a day on) is `base.settle_up`'s."""

    session = models.ForeignKey(ChouetteSession, on_delete=models.CASCADE, related_name="transfers")
    kind = models.CharField(max_length=16, choices=TransferKind.choices)
    payer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    payee = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    cents = models.BigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    def reminder(self) -> Reminder:
        """The payer to pay, or, once they marked it paid, the payee to confirm it arrived."""
        session = self.session
        if self.paid_at is None:
            user, other, role = self.payer.user_id, self.payee.public_name_at(session.club), "payer"
        else:
            user, other, role = self.payee.user_id, self.payer.public_name_at(session.club), "payee"
        users = (user,) if user else ()
        where = session.name or f"#{session.pk}"
        return Reminder(users, role, other, self.cents, where, session.get_absolute_url(), f"transfer:{self.pk}")

    class Meta:
        ordering = ["session", "created_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(cents__gt=0), name="chouette_transfer_positive"),
            models.CheckConstraint(condition=~Q(payer=models.F("payee")), name="chouette_transfer_two_players"),
            models.CheckConstraint(condition=Q(kind__in=TransferKind.values), name="chouette_transfer_kind_known"),
        ]


# A table's join code: 5 characters from an alphabet without look-alikes (no 0/O, 1/I/L), read aloud or typed from
# a phone; 31^5 (28 million) codes, unique among the tables not yet finished (a finished table's code may recur).
JOIN_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
JOIN_CODE_LENGTH = 5


class RequestKind(models.TextChoices):
    INVITATION = "invitation", _("Invitation")
    JOIN = "join", _("Join request")


class RequestStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for an answer")
    ACCEPTED = "accepted", _("Seated")
    DECLINED = "declined", _("Declined")


class TableRequest(models.Model):
    """A seat offered or asked for, waiting for the other side's yes: an invitation (someone at the table invites
    a member; the member accepts or declines from their phone) or a join request (a member who typed the table's
    code or scanned its QR asks; the table's opener or a director of the club approves or refuses). Seating needs
    consent on both sides: the player's own (they asked, or they accept) and the table's (it invited them, or
    its opener or a director approves). Answered requests stay as the record of who let whom sit down."""

    session = models.ForeignKey(ChouetteSession, on_delete=models.CASCADE, related_name="requests")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="chouette_requests")
    kind = models.CharField(max_length=16, choices=RequestKind.choices)
    status = models.CharField(max_length=16, choices=RequestStatus.choices, default=RequestStatus.PENDING)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["session", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "player"],
                condition=Q(status="pending"),
                name="chouette_request_one_pending_per_player",
            ),
            models.CheckConstraint(condition=Q(kind__in=RequestKind.values), name="chouette_request_kind_known"),
            models.CheckConstraint(condition=Q(status__in=RequestStatus.values), name="chouette_request_status_known"),
            models.CheckConstraint(
                condition=Q(status="pending", decided_at__isnull=True)
                | (~Q(status="pending") & Q(decided_at__isnull=False)),
                name="chouette_request_decided_when_answered",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.player} at {self.session}"
