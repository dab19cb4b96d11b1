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
