from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class Role(models.TextChoices):
    """A member's role at a club. Each role includes the rights of the ones before it: a director also plays,
    a club admin also directs."""

    PLAYER = "player", _("Player")
    DIRECTOR = "director", _("Tournament director")
    ADMIN = "admin", _("Club admin")


ROLE_RANK = {Role.PLAYER: 1, Role.DIRECTOR: 2, Role.ADMIN: 3}


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
    created_at = models.DateTimeField(auto_now_add=True)

    objects = ClubQuerySet.as_manager()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("clubs:club-detail", kwargs={"slug": self.slug})


class Player(models.Model):
    """A person who plays. A walk-in at a club night is a player without a login (user is empty)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    name = models.CharField(_("name"), max_length=120)
    country = models.CharField(_("country"), max_length=2, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("clubs:player-detail", kwargs={"pk": self.pk})


class Membership(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.PLAYER)
    is_active = models.BooleanField(_("active"), default=True)
    joined_on = models.DateField(_("joined on"), auto_now_add=True)

    class Meta:
        ordering = ["club", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="membership_unique_player_per_club"),
            models.CheckConstraint(condition=Q(role__in=Role.values), name="membership_role_known"),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.club} ({self.get_role_display()})"
