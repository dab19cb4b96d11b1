"""The data app's one table: a person's calendar feed token (docs/data.md, "Calendar feeds")."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class FeedToken(models.Model):
    """The unguessable part of a person's own calendar feed URL (`/feeds/<token>/matches.ics`): a calendar app
    fetches it without signing in, so the token is the only check. Revoking it deletes the row (the old URL is
    a 404 at once); a new one is another random token."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="feed_token")
    token = models.CharField(_("token"), max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"feed token of user {self.user_id}"


class EventTemplate(models.Model):
    """A club's saved event setup: the event's settings and its flights with their formats, settings, fees and
    payout tables (`setup`, made by data.event_templates.snapshot), to start next week's event from in one step.
    It keeps the setup itself, not a link to the event it came from: deleting that event leaves it whole."""

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="event_templates")
    name = models.CharField(_("name"), max_length=80)
    setup = models.JSONField(_("setup"), default=dict)
    made_from = models.CharField(_("made from"), max_length=120, blank=True, help_text=_("The event's name."))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")  # fmt: skip
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "name", "id"]
        constraints = [models.UniqueConstraint(fields=["club", "name"], name="event_template_unique_name_per_club")]

    def __str__(self) -> str:
        return self.name
