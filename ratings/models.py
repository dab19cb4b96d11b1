"""Rating pools, the rows that explain every rated match, current ratings, seasons, event points and ladders.

A pool is either the overall pool (club is NULL, one row) or one club's pool ("rating at my club"). A rated match
counts in the overall pool and, when Match.club is set, in its club's pool; each leaves one RatedMatch row per
pool with all inputs and outputs of the FIBS formula, so any number on a page can be explained.
"""

from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player
from games.models.matches import Match
from games.models.variants import GameVariant
from ratings.core.fibs import START_RATING


class RatingPool(models.Model):
    """A pool per variant: long nardy results never move a backgammon rating, unless the pool's club merges
    every variant into its standard pool (`merge_variants` on the standard pool; docs/ratings.md)."""

    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.CASCADE, related_name="rating_pools")
    variant = models.CharField(_("variant"), max_length=16, choices=GameVariant.choices, default=GameVariant.STANDARD)
    merge_variants = models.BooleanField(
        _("merge variants into the standard pool"),
        default=False,
        help_text=_("Rate every variant's results here instead of in a pool per variant (standard pool only)."),
    )
    # A correction of an older result marks the pool: recompute from this instant on (None with pending = all).
    recompute_pending = models.BooleanField(default=False)
    recompute_from = models.DateTimeField(null=True, blank=True)
    recompute_requested_at = models.DateTimeField(null=True, blank=True)
    recomputed_at = models.DateTimeField(null=True, blank=True)
    recompute_count = models.PositiveIntegerField(default=0, help_text=_("How many recomputes ran."))

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["variant"], condition=Q(club__isnull=True), name="rating_pool_one_overall_per_variant"
            ),
            models.UniqueConstraint(
                fields=["club", "variant"], condition=Q(club__isnull=False), name="rating_pool_one_per_club_variant"
            ),
            models.CheckConstraint(condition=Q(variant__in=GameVariant.values), name="rating_pool_variant_known"),
            models.CheckConstraint(
                condition=Q(merge_variants=False) | Q(variant=GameVariant.STANDARD),
                name="rating_pool_merge_on_standard_only",
            ),
        ]

    def __str__(self) -> str:
        name = str(_("Overall")) if self.club_id is None else str(self.club)
        return name if self.variant == GameVariant.STANDARD else f"{name} ({GameVariant(self.variant).label})"


class RecomputeRequest(models.Model):
    """A pool's history changed (a rated result corrected, overridden or voided) inside a transaction that must
    not hold the pool row to its end: the overall pool is shared by every event of every club, so a director's
    override holding it would make every other result wait. The request is only inserted (inserts never wait on
    each other) and folded into the pool's recompute_pending / recompute_from right after commit, in a short
    transaction of its own; a fold that did not happen (a crash, a pool busy recomputing) is done by the sweep."""

    pool = models.ForeignKey(RatingPool, on_delete=models.CASCADE, related_name="recompute_requests")
    since = models.DateTimeField(null=True, blank=True)  # recompute from this instant on; None: the whole history
    created_at = models.DateTimeField(auto_now_add=True)


class PlayerRating(models.Model):
    """A player's current rating in a pool (the state after their last rated match there)."""

    pool = models.ForeignKey(RatingPool, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    rating = models.FloatField(_("rating"), default=START_RATING)
    experience = models.PositiveIntegerField(_("experience"), default=0)
    matches = models.PositiveIntegerField(_("rated matches"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    last_played_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-rating"]
        constraints = [
            models.UniqueConstraint(fields=["pool", "player"], name="player_rating_unique_per_pool"),
            models.CheckConstraint(condition=Q(wins__lte=F("matches")), name="player_rating_wins_le_matches"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.rating:.2f}"


class RatedMatch(models.Model):
    """One rated match in one pool with every input and output of the formula (see docs/ratings.md).

    The rows are derived data: a pool's rebuild deletes them and writes them again from the matches, a million at
    a time. So their references are kept without a foreign key constraint in the database (db_constraint=False):
    PostgreSQL checks one by a query per written row, and the match's check also locked (wrote) each referenced
    match row. A million rows' COPY took 22.3 s of server CPU with the four checks, 9.1 s with the pool's only,
    5.2 s with none (docs/performance.md). What the constraints would guard holds anyway: matches are never
    deleted by the application, and one deleted through the ORM still takes its rows with it (on_delete=CASCADE
    is Django's collector, not the database), as does a pool's club; the winner and loser are the match's own
    players, whom the match's constraints keep (PROTECT); and every write of these rows holds its pool's row
    to the commit (a rebuild by its claim, a confirmed result FOR SHARE), so the pool cannot go meanwhile.
    """

    # No index of its own: (pool, played_at, match) below starts with the pool, and every index costs time on
    # each of the 100,000 inserts of a recompute.
    pool = models.ForeignKey(
        RatingPool, on_delete=models.CASCADE, related_name="rated_matches", db_index=False, db_constraint=False
    )
    # Looked up by match through the unique (match, pool) constraint below, which starts with it.
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="rating_rows", db_index=False, db_constraint=False
    )
    played_at = models.DateTimeField(_("played at"))
    # Indexed by the named indexes below (PLAYER_INDEXES), which a rebuild of most of the table on SQLite drops
    # and creates again.
    winner = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+", db_index=False, db_constraint=False)
    loser = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+", db_index=False, db_constraint=False)
    length = models.PositiveSmallIntegerField(_("length"))
    winner_rating = models.FloatField(_("winner's rating before"))
    loser_rating = models.FloatField(_("loser's rating before"))
    winner_experience = models.PositiveIntegerField(_("winner's experience before"))
    loser_experience = models.PositiveIntegerField(_("loser's experience before"))
    difference = models.FloatField(_("rating difference"))
    upset_probability = models.FloatField(_("upset probability"))
    winner_k = models.FloatField(_("winner's K"))
    loser_k = models.FloatField(_("loser's K"))
    winner_change = models.FloatField(_("winner's change"))
    loser_change = models.FloatField(_("loser's change"))

    class Meta:
        ordering = ["pool", "played_at", "match_id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "pool"], name="rated_match_once_per_pool"),
            models.CheckConstraint(condition=~Q(winner=F("loser")), name="rated_match_two_players"),
            models.CheckConstraint(
                condition=Q(winner_change__gte=0) & Q(loser_change__lte=0), name="rated_match_change_signs"
            ),
            models.CheckConstraint(
                condition=Q(upset_probability__gte=0) & Q(upset_probability__lte=0.5), name="rated_match_upset_p"
            ),
        ]
        indexes = [
            models.Index(fields=["pool", "played_at", "match"], name="rated_match_pool_order"),
            # A player's rows (their history, head-to-head): the keys come in no order the rows are written in.
            models.Index(fields=["winner"], name="rated_match_winner"),
            models.Index(fields=["loser"], name="rated_match_loser"),
        ]

    PLAYER_INDEXES = ("rated_match_winner", "rated_match_loser")

    def __str__(self) -> str:
        return f"{self.match_id} in {self.pool_id}"

    @property
    def upset(self) -> bool:
        return self.winner_rating < self.loser_rating

    @property
    def win_probability(self) -> float:
        """The winner's chance before the match."""
        return self.upset_probability if self.upset else 1.0 - self.upset_probability

    @property
    def winner_rating_after(self) -> float:
        return self.winner_rating + self.winner_change

    @property
    def loser_rating_after(self) -> float:
        return self.loser_rating + self.loser_change


class ClubSeason(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=80)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))

    class Meta:
        ordering = ["club", "-starts_on"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="club_season_unique_name"),
            models.CheckConstraint(condition=Q(ends_on__gte=F("starts_on")), name="club_season_ends_after_start"),
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.name}"


class Ladder(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="ladders")
    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(_("short name"), max_length=60)
    reach = models.PositiveSmallIntegerField(
        _("reach"), default=3, help_text=_("How many places above their own a player may challenge.")
    )
    match_length = models.PositiveSmallIntegerField(_("match length"), default=11)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="ladder_unique_slug_per_club"),
            models.CheckConstraint(condition=Q(reach__gte=1), name="ladder_reach_at_least_1"),
            models.CheckConstraint(condition=Q(match_length__gte=1), name="ladder_match_length_at_least_1"),
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.name}"

    def get_absolute_url(self) -> str:
        return reverse("ratings:ladder-detail", kwargs={"slug": self.club.slug, "ladder": self.slug})


class LadderPosition(models.Model):
    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="positions")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ladder_positions")
    position = models.PositiveIntegerField(_("position"))

    class Meta:
        ordering = ["ladder", "position"]
        constraints = [
            models.UniqueConstraint(fields=["ladder", "player"], name="ladder_position_unique_player"),
            models.CheckConstraint(condition=Q(position__gte=1), name="ladder_position_at_least_1"),
        ]

    def __str__(self) -> str:
        return f"{self.ladder} #{self.position}: {self.player}"


class ChallengeStatus(models.TextChoices):
    OPEN = "open", _("Open")
    DECIDED = "decided", _("Decided")
    CANCELLED = "cancelled", _("Cancelled")


CHALLENGE_TRANSITIONS = {
    ChallengeStatus.OPEN: {ChallengeStatus.DECIDED, ChallengeStatus.CANCELLED},
    ChallengeStatus.DECIDED: set(),
    ChallengeStatus.CANCELLED: set(),
}


class LadderChallenge(models.Model):
    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="challenges")
    challenger = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    defender = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    match = models.OneToOneField(Match, on_delete=models.PROTECT, related_name="ladder_challenge")
    status = models.CharField(_("status"), max_length=12, choices=ChallengeStatus.choices, default=ChallengeStatus.OPEN)
    challenger_won = models.BooleanField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=~Q(challenger=F("defender")), name="ladder_challenge_two_players"),
            models.CheckConstraint(condition=Q(status__in=ChallengeStatus.values), name="ladder_challenge_status"),
            # A player has at most one open challenge on a ladder, as challenger or as defender.
            models.UniqueConstraint(
                fields=["ladder", "challenger"], condition=Q(status="open"), name="ladder_one_open_challenge"
            ),
            models.UniqueConstraint(
                fields=["ladder", "defender"], condition=Q(status="open"), name="ladder_one_open_defence"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.challenger} → {self.defender}"


class PointsScheme(models.TextChoices):
    GAMMONPOINTS = "gammonpoints", _("GammonPoints-style (field size and strength)")
    USBGF = "usbgf", _("USBGF master points (2019)")
    ABT = "abt", _("ABT factor pools")


class EventPoints(models.Model):
    """Which points scheme an event awards (one row per event), with the scheme's weights. The tournaments app
    knows nothing about points: this row is how a director chooses."""

    event = models.OneToOneField("tournaments.Event", on_delete=models.CASCADE, related_name="points_scheme")
    scheme = models.CharField(_("scheme"), max_length=16, choices=PointsScheme.choices)
    event_weight = models.FloatField(_("event weight (USBGF EW)"), default=1.0)
    division_weight = models.FloatField(
        _("division weight (USBGF DW)"), default=1.0, help_text=_("1.0 open, 0.7 intermediate, 0.5 novice.")
    )
    split_ties = models.BooleanField(
        _("split tied places (USBGF 2015 rule)"), default=False, help_text=_("Off: the 2019 rule.")
    )
    division_factor = models.FloatField(
        _("division factor (ABT)"), default=1.0, help_text=_("1 main division, 0.5 second, 0.25 third.")
    )
    strength_of_field = models.FloatField(
        _("strength of field"), null=True, blank=True, help_text=_("Mean entrant rating, fixed at the first award.")
    )
    awarded_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = _("event points")
        constraints = [
            models.CheckConstraint(condition=Q(scheme__in=PointsScheme.values), name="event_points_scheme_known"),
            models.CheckConstraint(
                condition=Q(event_weight__gt=0) & Q(division_weight__gt=0) & Q(division_factor__gt=0),
                name="event_points_weights_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.get_scheme_display()}"


class PointsAward(models.Model):
    """Points one player earned at one event under its scheme; replaced whenever the event's results change."""

    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="points_awards")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="points_awards")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="points_awards")
    scheme = models.CharField(_("scheme"), max_length=16, choices=PointsScheme.choices)
    awarded_on = models.DateField(_("awarded on"))
    place = models.PositiveIntegerField(_("place"))
    points = models.FloatField(_("points"))
    explanation = models.CharField(_("explanation"), max_length=300, blank=True)

    class Meta:
        ordering = ["-awarded_on", "place"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="points_award_once_per_event"),
            models.CheckConstraint(condition=Q(points__gte=0), name="points_award_not_negative"),
            models.CheckConstraint(condition=Q(place__gte=1), name="points_award_place_at_least_1"),
            models.CheckConstraint(condition=Q(scheme__in=PointsScheme.values), name="points_award_scheme_known"),
        ]
        indexes = [models.Index(fields=["club", "awarded_on"], name="points_award_club_date")]

    def __str__(self) -> str:
        return f"{self.player}: {self.points:.2f}"
