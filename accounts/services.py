"""Writes for sign-in throttling, API tokens and password-reset mail."""

from datetime import timedelta
from functools import partial

from django.core.mail import get_connection
from django.db import transaction
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts import mail, selectors
from accounts.core import throttle
from accounts.models import ApiToken, LoginFailureWindow, LoginScope, PasswordResetMail, new_token_key, token_digest
from accounts.policy import login_keys, normalised_username
from base import outbox
from base.locks import lock
from base.models import Delivery
from base.queue import enqueue_many

RESET_TASK = "accounts.send_password_reset"

# A user keeps at most this many tokens: signing in through the API makes a new one each time, and a script
# that does so on every run must not grow the table without bound. The least recently used ones go first.
MAX_TOKENS_PER_USER = 20
# Counters whose window ended this long ago are deleted when the next failure is recorded.
STALE_AFTER = timedelta(days=1)


@transaction.atomic
def record_login_failure(*, username, address: str | None) -> None:
    """Count one failed sign-in against the account at this address and against the address."""
    now = timezone.now()
    name = normalised_username(username)
    for key, scope, policy in login_keys(username=username, address=address):
        first = throttle.after_failure(None, now=now, policy=policy)
        row, created = LoginFailureWindow.objects.get_or_create(
            key=key,
            defaults={
                "failures": first.failures,
                "started": first.started,
                "locked_until": first.locked_until,
                "scope": scope,
                "username": name if scope == LoginScope.ACCOUNT_AT_ADDRESS else "",
                "address": address,
            },
        )
        if created:
            continue
        # The row lock serialises parallel guesses for one key, so none of them is lost from the count.
        row = lock(LoginFailureWindow.objects).get(pk=row.pk)
        window = throttle.after_failure(row.as_window(), now=now, policy=policy)
        LoginFailureWindow.objects.filter(pk=row.pk).update(
            failures=window.failures, started=window.started, locked_until=window.locked_until
        )
    LoginFailureWindow.objects.filter(started__lt=now - STALE_AFTER).exclude(locked_until__gt=now).delete()


def forget_account_failures(*, username, address: str | None) -> None:
    """A correct password clears the account's own counter at this address (typos before it are forgiven),
    never the address's counter, which a guesser could otherwise reset with an account of their own."""
    keys = [key for key, scope, _ in login_keys(username=username, address=address) if scope != LoginScope.ADDRESS]
    LoginFailureWindow.objects.filter(key__in=keys, locked_until__isnull=True).delete()


@transaction.atomic
def create_token(*, user, name: str) -> tuple[ApiToken, str]:
    """A new token for `user`; returns it with its key, which is not stored and cannot be shown again."""
    key = new_token_key()
    name = name.strip()[:100] or "API"
    token = ApiToken.objects.create(user=user, name=name, digest=token_digest(key), prefix=key[:8])
    recency = Coalesce("last_used", "created").desc()
    surplus = ApiToken.objects.filter(user=user).order_by(recency, "-id")[MAX_TOKENS_PER_USER:]
    ApiToken.objects.filter(pk__in=list(surplus.values_list("pk", flat=True))).exclude(pk=token.pk).delete()
    return token, key


def revoke_token(*, user, token_id: int) -> bool:
    """Delete one of `user`'s own tokens; False when they have no such token (another user's counts as none).

    Looked up first, so a refused revoke sends no DELETE at all (the permission matrix holds every refused write
    to writing nothing)."""
    token = ApiToken.objects.filter(user=user, pk=token_id).first()
    if token is None:
        return False
    token.delete()
    return True


# --- password reset -------------------------------------------------------------------------------------------


def request_password_reset(*, address: str, language: str) -> None:
    """Queue a reset mail for `address`, whether an account has it or not: the request neither looks for the
    account nor talks to the mail server, so its answer, its queries and its time are the same for an address
    with an account and one without (a stranger learns nothing), and a mail server that is down only delays the
    mail. The task finds the accounts and sends; the periodic sweep sends again what could not go out."""
    address = address.strip().lower()
    PasswordResetMail.objects.bulk_create(
        [PasswordResetMail(address=address, language=language)], ignore_conflicts=True
    )  # one due row per address (the constraint): asking again while it waits adds nothing
    transaction.on_commit(partial(queue_password_reset, address))


def queue_password_reset(address: str) -> int:
    """Send the task for the address's waiting row, new or not (the same work either way; a row waiting for its
    retry is not claimed before its time). Returns how many tasks the broker took."""
    waiting = PasswordResetMail.objects.filter(address=address, delivery__in=[Delivery.DUE, Delivery.SENDING])
    return enqueue_many(RESET_TASK, [(pk,) for pk in waiting.values_list("pk", flat=True)])


def send_password_reset(mail_id: int) -> bool:
    """Send one reset mail unless another task did or does; True when this call sent it.

    The accounts are looked up now, and each gets a fresh link. With no account for the address the row simply
    goes; once sent it goes too (the address is not kept). A mail server that fails makes it due again later."""
    if not outbox.claim(PasswordResetMail, mail_id):
        return False
    row = PasswordResetMail.objects.get(pk=mail_id)
    users = selectors.password_reset_accounts(address=row.address)
    if users:
        messages = [mail.password_reset_message(user, language=row.language) for user in users]
        try:
            get_connection(fail_silently=False).send_messages(messages)
        except Exception as error:  # noqa: BLE001 - any mail failure (refused, unreachable, timed out): due again
            outbox.retry_later(row, error)
            return False
    row.delete()
    return bool(users)


def sweep_password_reset_mails() -> int:
    """The accounts' sweeper (base.queue.sweepers): reset mails due again, and those of a worker that died."""
    return outbox.sweep_due(PasswordResetMail, RESET_TASK)
