"""Queuing and sending notifications.

`notify` writes one row per person in a constant number of queries (the rows' uniqueness makes a repeated event
a no-op) and queues their e-mails after the commit; `notify_club` queues one post to the club's webhook. The
tasks claim each row before sending (a retried or duplicated task sends nothing twice); a failure puts the row
back as due with a growing delay, and the periodic sweep (base.queue) sends what is due again.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging

import httpx
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from base import outbox
from base.compiled import CompiledRead
from base.errors import Invalid
from base.live import group_name, notify_group
from base.queue import enqueue_many
from notifications import kinds, outbound
from notifications.models import ClubWebhook, Delivery, Notification, NotificationSettings, WebhookDelivery

logger = logging.getLogger(__name__)

EMAIL_TASK = "notifications.send_email"
WEBHOOK_TASK = "notifications.send_webhook"
MAX_ATTEMPTS = outbox.MAX_ATTEMPTS  # the page that lists a club's deliveries says after how many it gives up
UNSUBSCRIBE_SALT = "notifications.unsubscribe"


# --- choices --------------------------------------------------------------------------------------------------


def wants(choices: dict | None, kind: str, channel: str) -> bool:
    """Does a person with these stored choices want `kind` on `channel`? Unset: the kind's default."""
    stored = (choices or {}).get(f"{kind}.{channel}")
    if stored is not None:
        return bool(stored)
    return kinds.KINDS[kind].email_default if channel == kinds.EMAIL else True


def settings_for(user) -> NotificationSettings:
    row, _created = NotificationSettings.objects.get_or_create(user=user)
    return row


def set_choices(*, user, choices: dict[str, bool]) -> NotificationSettings:
    """Store the person's choices (keys "kind.channel"); unknown keys are ignored."""
    row = settings_for(user)
    valid = {f"{k}.{c}" for k in kinds.KINDS for c in kinds.CHANNELS}
    row.choices = {**row.choices, **{key: bool(on) for key, on in choices.items() if key in valid}}
    row.save(update_fields=["choices"])
    return row


def set_language(*, user, language: str) -> None:
    """Remember the language the person chose on the site: what is sent to them is written in it."""
    if language in dict(settings.LANGUAGES):
        NotificationSettings.objects.update_or_create(user=user, defaults={"language": language})


def unsubscribe_token(user_id: int, kind: str) -> str:
    return signing.dumps([user_id, kind], salt=UNSUBSCRIBE_SALT, compress=True)


def _unsubscribe_target(token: str) -> tuple[int, str] | None:
    """(user id, kind) a signed unsubscribe token names, None for a forged or mangled token, an unknown kind or a
    person who is gone (the link outlives the account)."""
    try:
        user_id, kind = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    if kind not in kinds.KINDS or not get_user_model().objects.filter(pk=user_id).exists():
        return None
    return user_id, kind


def unsubscribe_kind(token: str) -> str | None:
    """The kind of mail the token would stop (None: a bad token). Changes nothing: what the link's page shows."""
    target = _unsubscribe_target(token)
    return target[1] if target else None


def unsubscribe(token: str) -> str | None:
    """Stop the e-mails of one kind for the person the signed token names; returns the kind (None: bad token)."""
    target = _unsubscribe_target(token)
    if target is None:
        return None
    user_id, kind = target
    row, _created = NotificationSettings.objects.get_or_create(user_id=user_id)
    row.choices = {**row.choices, f"{kind}.{kinds.EMAIL}": False}
    row.save(update_fields=["choices"])
    return kind


# --- queuing --------------------------------------------------------------------------------------------------


# Every notice asks this (base.compiled: built and compiled once per process, bound on each call).
_PEOPLE = CompiledRead(
    lambda *users: (
        get_user_model()
        .objects.filter(pk__in=users)
        .order_by()
        .values_list("pk", "email", "notification_settings__choices")
    )
)


def notify(kind: str, object_key: str, recipients: dict[int, dict], *, url: str = "") -> None:
    """Tell each recipient (user id -> the names their line needs) about one event. Two queries whatever the
    number of recipients: their addresses and choices, and the rows (a row that exists already is left alone)."""
    notify_all([(kind, object_key, recipients, url)])


def notify_all(events: list[tuple[str, str, dict[int, dict], str]]) -> None:
    """`notify` for several events at once, each (kind, object key, recipients, url): still two queries in all
    (a confirmed result tells the reporter and the club's directors). The pages of those with a new line in the
    app refetch after the commit, so their bell counts it without a reload."""
    events = [(k, key, {uid: p for uid, p in r.items() if uid is not None}, url) for k, key, r, url in events]
    events = [event for event in events if event[2]]
    if not events:
        return
    users = {uid for _k, _key, recipients, _url in events for uid in recipients}
    found = {uid: (address, choices) for uid, address, choices in _PEOPLE.all(*users)}
    rows = []
    for kind, object_key, recipients, url in events:
        for uid, params in recipients.items():
            if uid not in found:
                continue
            address, choices = found[uid]
            in_app = wants(choices, kind, kinds.IN_APP)
            email = bool(address) and wants(choices, kind, kinds.EMAIL)
            if in_app or email:
                rows.append(
                    Notification(
                        recipient_id=uid,
                        kind=kind,
                        object_key=object_key,
                        params=params,
                        url=url,
                        in_app=in_app,
                        delivery=Delivery.DUE if email else Delivery.NONE,
                    )
                )
    Notification.objects.bulk_create(rows, ignore_conflicts=True)
    # The bell on every page the recipients have open counts the new lines (base.live: one push after the commit,
    # with whatever else the change tells, each group once).
    notify_group(*(group_name("user", row.recipient_id) for row in rows if row.in_app))
    for kind, object_key in dict.fromkeys((row.kind, row.object_key) for row in rows if row.delivery == Delivery.DUE):
        _send_after_commit(Notification, kind, object_key)


def notify_club(club_id: int | None, kind: str, object_key: str, params: dict, *, url: str = "") -> None:
    """Post one event to the club's webhook, once (if the club has an active one)."""
    if club_id is None or not kinds.KINDS[kind].public:
        return
    if not ClubWebhook.objects.filter(club_id=club_id, is_active=True).exists():
        return
    WebhookDelivery.objects.bulk_create(
        [WebhookDelivery(club_id=club_id, kind=kind, object_key=object_key, params=params, url=url)],
        ignore_conflicts=True,
    )
    _send_after_commit(WebhookDelivery, kind, object_key)


class _Pending:
    """The events of one transaction whose rows are to be sent once it commits: one callback for them all (a
    draw of 128 matches queues one, not 128)."""

    def __init__(self) -> None:
        self.events: set[tuple[type, str, str]] = set()
        self.ran = False

    def __call__(self) -> None:
        self.ran = True
        for model, task in ((Notification, EMAIL_TASK), (WebhookDelivery, WEBHOOK_TASK)):
            events = [(kind, key) for m, kind, key in self.events if m is model]
            if events:
                query = Q()
                for kind, key in events:
                    query |= Q(kind=kind, object_key=key)
                due = model.objects.filter(query, delivery=Delivery.DUE, due_at__lte=timezone.now())
                enqueue_many(task, [(pk,) for pk in due.values_list("pk", flat=True)])


def _send_after_commit(model, kind: str, object_key: str) -> None:
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        pending = _Pending()
        pending.events.add((model, kind, object_key))
        pending()
        return
    pending = getattr(connection, "_notifications_pending", None)
    # Django replaces or trims its list of callbacks when a transaction ends or a savepoint rolls back: ours is
    # this transaction's only while it is still in the list and has not run (a test may run it early).
    if pending is None or pending.ran or not any(entry[1] is pending for entry in connection.run_on_commit):
        pending = connection._notifications_pending = _Pending()
        transaction.on_commit(pending)
    pending.events.add((model, kind, object_key))


def sweep_due() -> int:
    """Run by the periodic sweep: a claim older than TASK_STALE_SECONDS is a dead worker's (due again), and every
    row due by now is sent (again); base.outbox does it for both kinds of row."""
    return sum(
        outbox.sweep_due(model, task) for model, task in ((Notification, EMAIL_TASK), (WebhookDelivery, WEBHOOK_TASK))
    )


# --- sending --------------------------------------------------------------------------------------------------


def _finish(row, error: Exception | None = None, *, final: bool = False) -> None:
    """Record the attempt (base.outbox): sent, or due again after the backoff, or failed (the last attempt, or
    `final`: an answer that trying again cannot change)."""
    if error is None:
        outbox.sent(row)
    else:
        outbox.retry_later(row, error, final=final)


def absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path if path.startswith("/") else path


def email_message(notification: Notification) -> EmailMessage:
    """The mail for one notification, in its recipient's language, with a one-click unsubscribe link."""
    user = notification.recipient
    choices = getattr(user, "notification_settings", None)
    language = (choices.language if choices else "") or settings.LANGUAGE_CODE
    stop = absolute(
        reverse("notifications:unsubscribe", kwargs={"token": unsubscribe_token(user.pk, notification.kind)})
    )
    with translation.override(language):
        lines = [kinds.personal(notification.kind, notification.params)]
        if notification.url:
            lines += ["", absolute(notification.url)]
        lines += [
            "",
            "-- ",
            _("No more e-mails like this: %(url)s") % {"url": stop},
            _("Choose what you are told: %(url)s") % {"url": absolute(reverse("notifications:preferences"))},
        ]
        subject = kinds.subject(notification.kind)
    return EmailMessage(
        subject=subject,
        body="\n".join(lines),
        to=[user.email],
        headers={"List-Unsubscribe": f"<{stop}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"},
    )


def send_email(notification_id: int) -> bool:
    """Send one notification's e-mail unless another task did or does; True when this call sent it."""
    if not outbox.claim(Notification, notification_id):
        return False
    row = Notification.objects.select_related("recipient", "recipient__notification_settings").get(pk=notification_id)
    stored = getattr(row.recipient, "notification_settings", None)
    if not row.recipient.email or not wants(stored and stored.choices, row.kind, kinds.EMAIL):
        row.delivery = Delivery.NONE  # unsubscribed since it was queued
        row.save(update_fields=["delivery"])
        return False
    try:
        email_message(row).send()
    except Exception as error:  # noqa: BLE001 - any mail failure: due again later
        _finish(row, error)
        return False
    _finish(row)
    return True


def _refusal_message(refusal: outbound.Refused) -> str:
    return {
        outbound.Refused.SCHEME: _("Give an http or https address."),
        outbound.Refused.HTTPS: _("A webhook address must use https."),
        outbound.Refused.UNRESOLVABLE: _("This host name cannot be resolved."),
    }.get(refusal.reason, _("A webhook may not point at a private or local address."))


def check_webhook_url(url: str) -> None:
    """Refuse a webhook URL that is not http(s), or (unless WEBHOOK_ALLOW_PRIVATE) not https or with any address
    that is not globally reachable (notifications.outbound): the server must not be made to post into its own
    network. Checked when the URL is saved; each post resolves and checks again, and connects only to what it
    checked."""
    try:
        outbound.check(url, allow_private=settings.WEBHOOK_ALLOW_PRIVATE)
    except outbound.Refused as refusal:
        raise Invalid(_refusal_message(refusal), field="url") from None


def set_webhook(*, club, url: str, is_active: bool = True) -> ClubWebhook:
    check_webhook_url(url)
    webhook, _created = ClubWebhook.objects.update_or_create(club=club, defaults={"url": url, "is_active": is_active})
    return webhook


def remove_webhook(*, club) -> None:
    """No more posts: the club's webhook is deleted (its past deliveries stay, for the record)."""
    ClubWebhook.objects.filter(club=club).delete()


def webhook_body(delivery: WebhookDelivery) -> bytes:
    """JSON with `content` (Discord) and `text` (Slack) holding the line, in the site's language."""
    with translation.override(settings.LANGUAGE_CODE):
        text = kinds.public(delivery.kind, delivery.params)
    if delivery.url:
        text = f"{text} {absolute(delivery.url)}"
    payload = {"kind": delivery.kind, "object": delivery.object_key, "content": text, "text": text}
    return json.dumps({**payload, "params": delivery.params, "id": delivery.pk}).encode()


def signature(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


class WebhookAnswer(Exception):
    """The receiver answered, but not with success (the text is what its admin reads in the delivery list)."""


def _answer_error(answer: outbound.Answer) -> WebhookAnswer:
    start = answer.head[:120].decode("utf-8", "replace").strip()
    if answer.is_redirect:
        where = answer.location[:120] or "nowhere"
        return WebhookAnswer(f"HTTP {answer.status}, a redirect to {where}: redirects are not followed")
    return WebhookAnswer(f"HTTP {answer.status}" + (f": {start}" if start else ""))


def send_webhook(delivery_id: int) -> bool:
    """Post one event to its club's webhook unless another task did or does; True when this call posted it.

    Any failure is tried again later (the backoff), but a redirect: it would be answered again, and it is never
    followed (the receiver could send the post anywhere), so the delivery fails at once and says why."""
    if not outbox.claim(WebhookDelivery, delivery_id):
        return False
    row = WebhookDelivery.objects.get(pk=delivery_id)
    webhook = ClubWebhook.objects.filter(club_id=row.club_id, is_active=True).first()
    if webhook is None:
        row.delivery = Delivery.NONE
        row.save(update_fields=["delivery"])
        return False
    body = webhook_body(row)
    headers = {"Content-Type": "application/json", "X-Signature-256": signature(webhook.secret, body)}
    try:
        answer = outbound.post(
            webhook.url,
            body,
            headers,
            timeout=settings.WEBHOOK_TIMEOUT,
            allow_private=settings.WEBHOOK_ALLOW_PRIVATE,
        )
    except (outbound.Refused, httpx.HTTPError, httpx.InvalidURL, OSError) as error:
        _finish(row, error)
        return False
    if not answer.ok:
        _finish(row, _answer_error(answer), final=answer.is_redirect)
        return False
    _finish(row)
    return True


def mark_read(*, user, pk: int | None = None) -> int:
    """Mark one (or, without pk, every) unread notification of the user as read."""
    rows = Notification.objects.filter(recipient=user, read_at__isnull=True)
    if pk is not None:
        rows = rows.filter(pk=pk)
    return rows.update(read_at=timezone.now())
