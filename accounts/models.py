import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.core.throttle import Window


class LoginScope(models.TextChoices):
    ACCOUNT_AT_ADDRESS = "account_at_address", _("account at an address")
    ADDRESS = "address", _("address")


class LoginFailureWindow(models.Model):
    """Failed sign-ins counted for one key (accounts.core.throttle); shared by every worker through the
    database, which the per-process cache is not. Deleting a row lifts its lock."""

    key = models.CharField(max_length=64, unique=True)  # sha256 of scope, username and address: fixed size
    scope = models.CharField(max_length=20, choices=LoginScope.choices)
    username = models.CharField(max_length=150, blank=True)
    address = models.GenericIPAddressField(null=True, blank=True)
    failures = models.PositiveIntegerField()
    started = models.DateTimeField(db_index=True)
    locked_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("failed sign-ins")
        verbose_name_plural = _("failed sign-ins")
        constraints = [models.CheckConstraint(condition=models.Q(failures__gte=1), name="login_failures_positive")]

    def __str__(self):
        return f"{self.get_scope_display()} {self.username} {self.address}".strip()

    def as_window(self) -> Window:
        return Window(failures=self.failures, started=self.started, locked_until=self.locked_until)


def token_digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


def new_token_key() -> str:
    return secrets.token_hex(20)


class ApiToken(models.Model):
    """A named API key of one user. Only its SHA-256 digest is stored, so a copy of the database gives no
    working key; the key itself is shown once, when it is made."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(_("name"), max_length=100)
    digest = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=8)  # the key's first characters, to recognise it in a list
    created = models.DateTimeField(_("created"), auto_now_add=True)
    last_used = models.DateTimeField(_("last used"), null=True, blank=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        ordering = ["-created", "-id"]

    def __str__(self):
        return f"{self.name} ({self.prefix}…)"
