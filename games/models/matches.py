"""Matches, their games and the reported results.

A Match is the unit tournaments, ratings and club standings build on. It does not know about tournaments:
a tournament slot links to its Match, and a tournament extends who directs a match through
`register_director_check` (config/pipeline.py, DIRECTOR_CHECKS) instead of a field here.

Results are versioned MatchReport rows that are never edited: confirming one version retires the others, and
a partial unique constraint lets the database hold at most one confirmed report per match.
"""

from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs import access
from clubs.models import Club, Player
from games.models.variants import VariantFields, variant_constraints

__all__ = [
    "INVITATION_DAYS",
    "Match",
    "MatchContext",
    "MatchDispute",
    "MatchGame",
    "MatchOutcome",
    "MatchReport",
    "MatchStatus",
    "ReportMethod",
    "ReportOrigin",
    "ReportSource",
    "ReporterRole",
    "invitation_cutoff",
    "register_director_check",
]


class MatchStatus(models.TextChoices):
    INVITED = "invited", _("Invited")
    SCHEDULED = "scheduled", _("Scheduled")
    IN_PROGRESS = "in_progress", _("In progress")
    FINISHED = "finished", _("Finished")
    FORFEITED = "forfeited", _("Forfeited / walkover")
    ABANDONED = "abandoned", _("Abandoned")


class MatchContext(models.TextChoices):
    TOURNAMENT = "tournament", _("Tournament")
    CLUB_NIGHT = "club_night", _("Club night")
    CASUAL = "casual", _("Casual")


class MatchOutcome(models.TextChoices):
    """How a result came about. Everything but a match played out (without lateness penalties) is not rated."""

    PLAYED = "played", _("Played")
    LATENESS = "lateness", _("Played with lateness penalty points")
    FORFEIT = "forfeit", _("Forfeit")
    WALKOVER = "walkover", _("Walkover")
    NO_SHOW = "no_show", _("No-show")
    DOUBLE_FORFEIT = "double_forfeit", _("Double forfeit")
    ANNULLED = "annulled", _("Annulled")


# How long an invitation to a casual match waits for its answer; an older one counts as gone everywhere.
INVITATION_DAYS = 14


def invitation_cutoff() -> datetime:
    """Invitations sent before this moment have expired."""
    return timezone.now() - timedelta(days=INVITATION_DAYS)


# A director-made extension point: a tournament app registers a function (match, user) -> bool so that its
# directors direct the matches of their events. Kept as a plain list so no app has to import another's models.
_DIRECTOR_CHECKS: list[Callable[["Match", object], bool]] = []


def register_director_check(check: Callable[["Match", object], bool]) -> Callable[["Match", object], bool]:
    if check not in _DIRECTOR_CHECKS:
        _DIRECTOR_CHECKS.append(check)
    return check


class Match(VariantFields):
    player_a = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="matches_as_a")
    player_b = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="matches_as_b")
    length = models.PositiveSmallIntegerField(_("length"), help_text=_("Points to win; at least 1."))
    crawford_rule = models.BooleanField(_("Crawford rule"), default=True)
    holland_rule = models.BooleanField(_("Holland rule"), default=False)
    context = models.CharField(_("context"), max_length=16, choices=MatchContext.choices, default=MatchContext.CASUAL)
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.PROTECT, related_name="matches")
    is_public = models.BooleanField(_("public"), default=True)
    status = models.CharField(_("status"), max_length=16, choices=MatchStatus.choices, default=MatchStatus.SCHEDULED)
    scheduled_at = models.DateTimeField(_("scheduled for"), null=True, blank=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # Lateness penalty points already awarded to each side's opponent: the match starts at this score.
    penalty_a = models.PositiveSmallIntegerField(_("penalty points against player A"), default=0)
    penalty_b = models.PositiveSmallIntegerField(_("penalty points against player B"), default=0)
    # The confirmed result, copied from the confirmed report so lists need no join.
    outcome = models.CharField(_("outcome"), max_length=16, choices=MatchOutcome.choices, blank=True)
    winner = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="matches_won")
    score_a = models.PositiveSmallIntegerField(null=True, blank=True)
    score_b = models.PositiveSmallIntegerField(null=True, blank=True)
    rated = models.BooleanField(_("rated"), default=False, help_text=_("Only matches played out are rated."))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # A casual match a player created naming another player is an invitation (status "invited") until that player
    # accepts it: only the two see it meanwhile. When it was sent; an invitation unanswered for INVITATION_DAYS
    # has expired.
    invited_at = models.DateTimeField(_("invited at"), null=True, blank=True)

    class Meta:
        ordering = ["-scheduled_at", "-created_at", "-id"]
        verbose_name_plural = _("matches")
        constraints = [
            models.CheckConstraint(condition=Q(length__gte=1), name="match_length_at_least_1"),
            models.CheckConstraint(condition=~Q(player_a=F("player_b")), name="match_two_different_players"),
            models.CheckConstraint(condition=Q(status__in=MatchStatus.values), name="match_status_known"),
            models.CheckConstraint(condition=Q(context__in=MatchContext.values), name="match_context_known"),
            models.CheckConstraint(
                condition=~Q(status="invited") | Q(invited_at__isnull=False, context="casual"),
                name="match_invitation_is_casual_and_dated",
            ),
            models.CheckConstraint(
                condition=Q(winner__isnull=True) | Q(winner=F("player_a")) | Q(winner=F("player_b")),
                name="match_winner_is_a_player",
            ),
            *variant_constraints("match"),
        ]
        indexes = [models.Index(fields=["status", "club"]), models.Index(fields=["started_at"])]

    def __str__(self) -> str:
        return f"{self.player_a} – {self.player_b} ({self.length})"

    def get_absolute_url(self) -> str:
        return reverse("games:match-detail", kwargs={"pk": self.pk})

    @property
    def players(self) -> tuple[Player, Player]:
        return (self.player_a, self.player_b)

    def side_of(self, player_id: int | None) -> int | None:
        """0 for player A, 1 for player B, None for anyone else."""
        if player_id is not None and player_id == self.player_a_id:
            return 0
        if player_id is not None and player_id == self.player_b_id:
            return 1
        return None

    def side_of_user(self, user) -> int | None:
        if not getattr(user, "is_authenticated", False):
            return None
        try:
            player_id = user.player.pk  # cached on the user after the first access
        except Player.DoesNotExist:
            return None
        return self.side_of(player_id)

    @property
    def is_invitation(self) -> bool:
        return self.status == MatchStatus.INVITED

    def invitee_side(self) -> int | None:
        """The side an invitation waits for: the player who did not create it (None when neither player's user
        created it, e.g. the creator's account is gone: nobody can accept it then, and it expires)."""
        creator = self.created_by_id
        if creator is None:
            return None
        if self.player_a.user_id == creator:
            return 1
        if self.player_b.user_id == creator:
            return 0
        return None

    def user_is_invitee(self, user) -> bool:
        side = self.invitee_side()
        return side is not None and self.is_invitation and self.side_of_user(user) == side

    def user_is_inviter(self, user) -> bool:
        return self.is_invitation and self.created_by_id is not None and self.created_by_id == getattr(user, "pk", 0)

    # What the match rules (games/matchplay/permissions.py) ask.
    def user_is_participant(self, user) -> bool:
        return self.side_of_user(user) is not None

    def user_is_director(self, user) -> bool:
        """Directors and admins of the match's club, site staff, and whoever a registered check accepts."""
        if not access.is_signed_in(user):
            return False
        if access.is_site_staff(user):
            return True
        if self.club_id is not None and access.is_director(user, self.club):
            return True
        return any(check(self, user) for check in _DIRECTOR_CHECKS)


class MatchGame(models.Model):
    """One game on the live scoresheet. Replayed through the rules core whenever a game is added."""

    class Kind(models.TextChoices):
        SINGLE = "single", _("Single game")
        GAMMON = "gammon", _("Gammon")
        BACKGAMMON = "backgammon", _("Backgammon")
        DROP = "drop", _("Dropped double")
        RESIGN = "resign", _("Resignation")
        OIN = "oin", _("Oin (long nardy, 1 point)")
        MARS = "mars", _("Mars (long nardy, 2 points)")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    winner_side = models.PositiveSmallIntegerField(help_text=_("0 = player A, 1 = player B"))
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.SINGLE)
    cube = models.PositiveIntegerField(
        default=1,
        help_text=_("Final cube value; for a drop, the value before. With Dave stakes: the stake the game paid."),
    )
    resign_level = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.PositiveIntegerField()
    score_a_after = models.PositiveIntegerField()
    score_b_after = models.PositiveIntegerField()
    crawford_game = models.BooleanField(default=False)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="match_game_unique_number"),
            models.CheckConstraint(condition=Q(winner_side__in=[0, 1]), name="match_game_winner_side"),
            models.CheckConstraint(condition=Q(cube__gte=1) & Q(points__gte=1), name="match_game_positive"),
            models.CheckConstraint(condition=~Q(crawford_game=True) | Q(cube=1), name="match_game_crawford_no_cube"),
        ]

    def __str__(self) -> str:
        return f"{self.match} game {self.number}"


class ReportSource(models.TextChoices):
    WEB = "web", _("Web")
    API = "api", _("API")


class ReportOrigin(models.TextChoices):
    """How a version came to be written (Tabbycat's submitter kinds: tab room / public / automation).

    MANUAL: someone reported it on the match (a player, or a director settling the match).
    OVERRIDE: a director overrode the result from the event's bracket after seeing which later matches it voids.
    SYSTEM: written by a rule on someone's action (the walkover for a player who withdrew, a lateness forfeit).
    BRACKET: a change earlier in the bracket voided this match.
    `submitted_by` always names the person whose action it was; the origin says whether they typed the result.
    """

    MANUAL = "manual", _("Reported")
    OVERRIDE = "override", _("Director's override")
    SYSTEM = "system", _("Automatic (on a player's or director's action)")
    BRACKET = "bracket", _("Voided by a bracket change")


class ReporterRole(models.TextChoices):
    PLAYER = "player", _("Player")
    DIRECTOR = "director", _("Director")


class ReportMethod(models.TextChoices):
    GAMES = "games", _("Game by game")
    FINAL_SCORE = "final_score", _("Final score")
    RECORD = "record", _("Verified game record")
    NO_PLAY = "no_play", _("Not played out")


class MatchReport(models.Model):
    """One version of a match's result. Its content is never edited; only the confirmed/retired flags move."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="reports")
    version = models.PositiveIntegerField()
    submitted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    role = models.CharField(max_length=12, choices=ReporterRole.choices)
    source = models.CharField(max_length=8, choices=ReportSource.choices, default=ReportSource.WEB)
    origin = models.CharField(max_length=12, choices=ReportOrigin.choices, default=ReportOrigin.MANUAL)
    method = models.CharField(max_length=12, choices=ReportMethod.choices)
    outcome = models.CharField(max_length=16, choices=MatchOutcome.choices, default=MatchOutcome.PLAYED)
    winner = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    score_a = models.PositiveIntegerField(null=True, blank=True)
    score_b = models.PositiveIntegerField(null=True, blank=True)
    rated = models.BooleanField(default=False)
    games = models.JSONField(default=list, blank=True, help_text=_("The games this report was built from."))
    game_record_id = models.PositiveIntegerField(null=True, blank=True)
    comment = models.TextField(blank=True)
    ip_address = models.GenericIPAddressField(null=True, blank=True)
    idempotency_key = models.CharField(max_length=80, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    confirmed = models.BooleanField(default=False)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    retired = models.BooleanField(default=False)

    class Meta:
        ordering = ["match", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["match", "version"], name="match_report_unique_version"),
            models.UniqueConstraint(
                fields=["match"], condition=Q(confirmed=True), name="match_report_one_confirmed_per_match"
            ),
            models.UniqueConstraint(
                fields=["match", "idempotency_key"],
                condition=~Q(idempotency_key=""),
                name="match_report_unique_idempotency_key",
            ),
            models.CheckConstraint(condition=~(Q(confirmed=True) & Q(retired=True)), name="match_report_not_both"),
            models.CheckConstraint(condition=Q(outcome__in=MatchOutcome.values), name="match_report_outcome_known"),
        ]

    def __str__(self) -> str:
        return f"{self.match} v{self.version}"

    @property
    def is_pending(self) -> bool:
        return not self.confirmed and not self.retired


class MatchDispute(models.Model):
    """An opponent's objection to a reported version; open until a director settles the match."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="disputes")
    report = models.ForeignKey(MatchReport, on_delete=models.CASCADE, related_name="disputes")
    raised_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    comment = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.CheckConstraint(condition=~Q(comment=""), name="match_dispute_has_comment")]

    def __str__(self) -> str:
        return f"Dispute of {self.report}"
