import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.core.throttle import Window
from base.models import Delivery, Outgoing


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


class PasswordResetMail(Outgoing):
    """A password-reset mail asked for one address, sent by a task (accounts.services.send_password_reset).

    Every request makes this row, whether an account has the address or not, and the task finds the accounts:
    the request does the same work and gives the same answer either way, so the page tells no stranger which
    addresses have an account, and a mail server that is down only delays the mail (due again, base.outbox).
    No link or token is stored: the task makes the token when it sends, so it is fresh and never sits in the
    database. The row goes once its mail is sent or no account has the address; one that failed for good stays
    for the admin with its last error. While one is due for an address, asking again adds none (the constraint):
    a queue of the same mail cannot pile up on a victim's address while the mail server is down."""

    address = models.EmailField(_("e-mail address"), max_length=254)  # lower case
    language = models.CharField(max_length=8, blank=True)  # of the page it was asked on: the mail's language
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("password-reset mail")
        verbose_name_plural = _("password-reset mails")
        constraints = [
            models.UniqueConstraint(
                fields=["address"],
                condition=models.Q(delivery__in=[Delivery.DUE, Delivery.SENDING]),
                name="password_reset_mail_once_while_due",
            )
        ]
        indexes = [models.Index(fields=["delivery", "due_at"], name="password_reset_mail_due")]

    def __str__(self):
        return f"{self.address} ({self.get_delivery_display()})"
