from django.conf import settings
from django.db import models
from django.db.models import Case, F, Q, When
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class Role(models.TextChoices):
    """A member's role at a club. Each role includes the rights of the ones before it: a director also plays,
    a club admin also directs."""

    PLAYER = "player", _("Player")
    DIRECTOR = "director", _("Tournament director")
    ADMIN = "admin", _("Club admin")


ROLE_RANK = {Role.PLAYER: 1, Role.DIRECTOR: 2, Role.ADMIN: 3}


class AnalysisConsent(models.TextChoices):
    """A player's answer to "analyse my records": yes (the figures show to whoever sees the record or the player,
    and in club rankings), only for me (analysed, but the figures show to the player alone), or no (not
    analysed; figures of earlier analyses show to the player alone too)."""

    YES = "yes", _("Yes")
    ONLY_ME = "only_me", _("Only for me")
    NO = "no", _("No")


#: The longest display name (a pseudonym for public pages) a player may choose.
DISPLAY_NAME_MAX = 40


class ClubQuerySet(models.QuerySet):
    def with_member_counts(self):
        return self.annotate(member_count=models.Count("memberships", filter=Q(memberships__is_active=True)))


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("short name"), max_length=60, unique=True)
    city = models.CharField(_("city"), max_length=120, blank=True)
    country = models.CharField(_("country"), max_length=2, blank=True, help_text=_("ISO 3166 code, e.g. DE"))
    description = models.TextField(_("description"), blank=True)
    is_public = models.BooleanField(
        _("public"), default=True, help_text=_("Public clubs, their members and events are visible to everyone.")
    )
    # Anyone may create a club; its directors' decisions enter the overall rating pool only once site staff have
    # approved it (ratings listens to changes and recomputes the overall pool).
    is_approved = models.BooleanField(
        _("approved"),
        default=False,
        help_text=_("Results decided by this club's directors count in the overall rating list."),
    )
    analyse_records = models.BooleanField(
        _("analyse match records"),
        default=False,
        db_default=False,
        help_text=_(
            "Let GNU Backgammon analyse the records of this club's matches (only of players who allow it too)."
        ),
    )
    rank_error_rates = models.BooleanField(
        _("club rankings of error rates"),
        default=False,
        db_default=False,
        help_text=_(
            "Rank the members by their error rate in this club's analysed matches (only players who allow it)."
        ),
    )
    # Off by default: a club's pages show the names its members play under, as a club night's scoresheet does,
    # until its admins decide that pseudonyms are fine there (a club of online regulars, say).
    allow_display_names = models.BooleanField(
        _("allow display names"),
        default=False,
        db_default=False,
        help_text=_(
            "Show players' chosen display names instead of their names on this club's public pages, brackets "
            "and downloads. Its directors always see the names."
        ),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = ClubQuerySet.as_manager()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("clubs:club-detail", kwargs={"slug": self.slug})


class Player(models.Model):
    """A person who plays. A walk-in at a club night is a player without a login (user is empty), created by that
    club: the club edits it until its person claims it (WalkInClaim) and the player gets their user."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    created_by_club = models.ForeignKey(
        Club,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="walk_ins",
        verbose_name=_("walk-in of"),
        help_text=_("The club that registered this player without an account."),
    )
    name = models.CharField(_("name"), max_length=120)
    country = models.CharField(_("country"), max_length=2, blank=True)
    federation_id = models.CharField(
        _("federation id"),
        max_length=32,
        blank=True,
        db_default="",
        help_text=_("The player's number at the national federation, for the results file sent there."),
    )
    analysis_consent = models.CharField(
        _("analyse my records"),
        max_length=8,
        choices=AnalysisConsent.choices,
        default=AnalysisConsent.NO,
        db_default=AnalysisConsent.NO,
        help_text=_("Let GNU Backgammon analyse the records of my matches: error rates, errors and blunders."),
    )
    display_name = models.CharField(
        _("display name"),
        max_length=DISPLAY_NAME_MAX,
        blank=True,
        db_default="",
        help_text=_("Shown instead of the name on public pages (brackets, standings, embeds, public downloads)."),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(analysis_consent__in=AnalysisConsent.values), name="player_analysis_consent_known"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("clubs:player-detail", kwargs={"pk": self.pk})

    @property
    def analyse_records(self) -> bool:
        """Whether the player lets the engine analyse their records at all (yes or only for me)."""
        return self.analysis_consent != AnalysisConsent.NO

    @property
    def figures_public(self) -> bool:
        """Whether others may see the player's analysis figures (only a plain yes)."""
        return self.analysis_consent == AnalysisConsent.YES

    def public_name_at(self, club: Club | None) -> str:
        """What everyone sees on a public page of `club` (a bracket, standings, an embed, a public download):
        the display name the player chose if the club allows display names, else the name. The one place that
        says so for a loaded player; `public_name_of` is the same rule in a query, and `clubs.names` adds who
        sees the name anyway (the player, the club's directors)."""
        if self.display_name and club is not None and club.allow_display_names:
            return self.display_name
        return self.name


def public_name_of(prefix: str = "", *, club: str):
    """Player.public_name_at as a query expression, for reads that take names without loading players
    (`values_list`): `prefix` leads to the player ("entry_a__player__"), `club` to the club whose page it is
    ("flight__event__club__"), so the club's switch is read in the same query."""
    return Case(
        When(
            Q(**{f"{club}allow_display_names": True}) & ~Q(**{f"{prefix}display_name": ""}),
            then=F(f"{prefix}display_name"),
        ),
        default=F(f"{prefix}name"),
    )


class Membership(models.Model):
    """A player at a club. Joining needs the player's consent: a director invites, the player accepts (a walk-in
    of the club is accepted when it is created). Only an accepted membership can be active, and only active ones
    count as members anywhere (roles, member lists, pickers, rating pools) — the database holds that rule, so
    every existing `is_active=True` filter already leaves invitations out."""

    class Status(models.TextChoices):
        INVITED = "invited", _("Invited")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.PLAYER)
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.ACCEPTED)
    is_active = models.BooleanField(_("active"), default=True)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    invited_at = models.DateTimeField(null=True, blank=True)
    joined_on = models.DateField(_("joined on"), auto_now_add=True)
    number = models.CharField(
        _("membership number"),
        max_length=32,
        blank=True,
        db_default="",
        help_text=_("The club's own number for this member."),
    )
    email = models.EmailField(
        _("e-mail"), blank=True, db_default="", help_text=_("The address the club has for this member.")
    )
    rating = models.FloatField(
        _("rating on file"), null=True, blank=True, help_text=_("A rating the club keeps for this member (imported).")
    )

    class Meta:
        ordering = ["club", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="membership_unique_player_per_club"),
            models.CheckConstraint(condition=Q(role__in=Role.values), name="membership_role_known"),
            models.CheckConstraint(
                condition=Q(status__in=["invited", "accepted", "declined"]), name="membership_status_known"
            ),
            models.CheckConstraint(
                condition=Q(is_active=False) | Q(status="accepted"), name="membership_active_only_when_accepted"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.club} ({self.get_role_display()})"


class WalkInClaim(models.Model):
    """A signed-up person asks to become a walk-in player of a club; a director of that club confirms. Then the
    walk-in's row gets the user, so its history and ratings are theirs with no duplicate player."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for the club")
        CONFIRMED = "confirmed", _("Confirmed")
        REFUSED = "refused", _("Refused")

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="walk_in_claims")
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "user"], condition=Q(status="pending"), name="walk_in_claim_one_pending_per_user"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["pending", "confirmed", "refused"]), name="walk_in_claim_status_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} claims {self.player}"

    @property
    def club(self) -> Club | None:
        return self.player.created_by_club


class BankAccount(models.Model):
    """Where a player is paid when settling up (chouette transfers, a Calcutta owner's net, prizes), or a club (an
    owner who owes it): private. Only the player (the club's admins) and those who pay them see it (as a transfer
    code), never a list, an export or the public API."""

    player = models.OneToOneField(Player, null=True, blank=True, on_delete=models.CASCADE, related_name="bank_account")
    # or the club's own account (set by its admins): where an owner who owes the club is asked to pay
    club = models.OneToOneField(Club, null=True, blank=True, on_delete=models.CASCADE, related_name="bank_account")
    holder = models.CharField(_("account holder"), max_length=70, blank=True)
    iban = models.CharField(_("IBAN"), max_length=34, blank=True)  # empty: a payment handle only
    bic = models.CharField(_("BIC"), max_length=11, blank=True)
    # A payment link beside the GiroCode (base.paylinks): the provider's key and the payee's handle there.
    pay_provider = models.CharField(_("payment link provider"), max_length=16, blank=True)
    pay_handle = models.CharField(_("payment handle"), max_length=40, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(player__isnull=False, club__isnull=True) | Q(player__isnull=True, club__isnull=False),
                name="bank_account_of_a_player_or_a_club",
            ),
            models.CheckConstraint(condition=~Q(iban="", pay_handle=""), name="bank_account_has_an_iban_or_a_handle"),
            models.CheckConstraint(
                condition=Q(pay_handle="") | ~Q(pay_provider=""), name="bank_account_handle_has_a_provider"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.holder} (…{self.iban[-4:]})" if self.iban else f"{self.pay_provider}.me"
