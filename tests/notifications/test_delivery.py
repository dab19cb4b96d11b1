"""Every kind of notification reaches a real SMTP server and, for the public kinds, a real webhook receiver —
once per event and person, also when its task runs again or is retried after a failure."""

import hashlib
import hmac
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from base import settle_up
from chouette import services as chouette_services
from chouette.models import Transfer
from data import services as data_services
from games.matchplay import services as match_services
from notifications import kinds, services
from notifications.models import ClubWebhook, Delivery, Notification, NotificationSettings, WebhookDelivery
from notifications.tasks import send_email, send_webhook
from ratings.services import ladders
from tests.games.matchplay.factories import MatchFactory
from tests.notifications.conftest import person
from tests.tournaments.builders import make_event
from tournaments import hooks as tournament_hooks
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def unsubscribe_link(message) -> str:
    return "".join(message["List-Unsubscribe"].split()).strip("<>")


def text(message) -> str:
    return message.get_payload(decode=True).decode()


def released_draw(club, director, players):
    flight = tournament_services.add_flight(actor=director, event=make_event(club, director), name="Main")
    for player in players:
        tournament_services.register(actor=director, flight=flight, player=player)
    tournament_services.draw_flight(actor=director, flight=flight, seed=7)
    tournament_services.confirm_draw(actor=director, flight=flight)
    tournament_services.release_draw(actor=director, flight=flight)


def every_event(club, on_commit):
    """Make each kind of event happen once, through the services (the boards app's call through its hook)."""
    a, b, director = person(club, "Anna Alt"), person(club, "Bernd Berg"), person(club, "Dora Direktor", "director")
    services.set_choices(user=director.user, choices={"club_result.email": True})  # off by default
    match = MatchFactory(club=club, player_a=a, player_b=b)
    with on_commit(execute=True):
        match_services.submit_report(actor=a.user, match=match, method="final_score", scores=(5, 1))
    with on_commit(execute=True):
        match_services.dispute_report(actor=b.user, match=match, version=1, comment="It was 5-3.")
    with on_commit(execute=True):
        match_services.submit_report(actor=a.user, match=match, method="final_score", scores=(5, 3))
    with on_commit(execute=True):
        match_services.confirm_report(actor=b.user, match=match, version=2)
    with on_commit(execute=True):
        match_services.submit_report(
            actor=director.user, match=match, method="final_score", scores=(2, 5), as_director=True
        )
    with on_commit(execute=True):
        tournament_hooks.match_called(match, "7")
    with on_commit(execute=True):
        released_draw(club, director.user, [a, b, person(club, "Carla Cron"), person(club, "Emil Ernst")])
    with on_commit(execute=True):
        session = chouette_services.create_session(
            actor=director.user, club=club, players=[a, b, director], stake_cents=100
        )
    with on_commit(execute=True):  # the table settles; a day on, its transfers still open are reminded
        transfer = Transfer.objects.create(session=session, kind="settlement", payer=b, payee=a, cents=500)
        Transfer.objects.filter(pk=transfer.pk).update(created_at=timezone.now() - timedelta(days=2))
        settle_up.sweep_reminders()
    with on_commit(execute=True):  # a capped flight's place comes free: the first waiting is offered it
        capped = tournament_services.add_flight(actor=director.user, event=make_event(club, director.user), name="C")
        tournament_services.set_cap(actor=director.user, flight=capped, cap=1)
        first = tournament_services.register(actor=director.user, flight=capped, player=a)
        tournament_services.join_waiting_list(actor=director.user, flight=capped, player=b)
        tournament_services.withdraw(actor=director.user, entry=first)
    services.set_choices(user=b.user, choices={"match_invitation.email": True})  # off by default
    with on_commit(execute=True):  # an invitation to a casual match: Bernd is told, never the club's webhook
        match_services.create_match(actor=a.user, player_a=a, player_b=b, length=3)
    with on_commit(execute=True):
        ladder = ladders.create_ladder(actor=director.user, club=club, name="Club ladder")
        ladders.join_ladder(actor=b.user, ladder=ladder)
        ladders.join_ladder(actor=a.user, ladder=ladder)
    with on_commit(execute=True):
        ladders.challenge(actor=a.user, ladder=ladder, defender=b)
    services.set_choices(user=director.user, choices={"member_left.email": True})  # off by default
    leaver = person(club, "Lea Leaving")
    leaver.user.set_password("leaving-password")
    leaver.user.save()
    with on_commit(execute=True):  # a member deletes their account: the club's directors are told
        data_services.leave(actor=leaver.user, password="leaving-password")
    return a, b, director, match


def test_every_kind_is_mailed_and_posted_once_per_event_and_person_even_when_the_task_runs_again(
    hooked_club, smtp, receiver, django_capture_on_commit_callbacks
):
    a, b, director, match = every_event(hooked_club, django_capture_on_commit_callbacks)

    mailed = Notification.objects.filter(delivery=Delivery.SENT)
    assert set(mailed.values_list("kind", flat=True)) == set(kinds.KINDS)
    assert len(smtp.messages) == mailed.count()
    sent = [(tuple(to), message["Subject"], text(message)) for to, message in smtp.messages]
    assert len(set(sent)) == len(sent)  # no mail twice
    to_anna = [message for to, message in smtp.messages if to == [a.user.email]]
    assert any("Dora Direktor" not in text(m) and "Bernd Berg confirmed" in text(m) for m in to_anna)
    assert all(unsubscribe_link(m) in text(m) for m in to_anna)

    posted = {p["kind"] for p in receiver.payloads()}
    assert posted == {k.code for k in kinds.KINDS.values() if k.public}
    assert len(receiver.posts) == WebhookDelivery.objects.filter(delivery=Delivery.SENT).count()
    secret = ClubWebhook.objects.get(club=hooked_club).secret
    for headers, body in receiver.posts:
        expected = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
        assert hmac.compare_digest(headers["X-Signature-256"], expected)
    assert all(p["content"] == p["text"] and p["text"] for p in receiver.payloads())

    # The tasks run again (a retried or duplicated message; the sweep): nothing is sent a second time.
    mails, posts = len(smtp.messages), len(receiver.posts)
    for pk in Notification.objects.values_list("pk", flat=True):
        send_email.apply(args=(pk,), throw=True)
    for pk in WebhookDelivery.objects.values_list("pk", flat=True):
        send_webhook.apply(args=(pk,), throw=True)
    services.sweep_due()
    assert (len(smtp.messages), len(receiver.posts)) == (mails, posts)

    # The same event reported again (a hook called twice) makes no second row.
    rows = Notification.objects.count()
    with django_capture_on_commit_callbacks(execute=True):
        tournament_hooks.match_called(match, "7")
    assert Notification.objects.count() == rows
    assert (len(smtp.messages), len(receiver.posts)) == (mails, posts)


def _due_now(model):
    model.objects.filter(delivery=Delivery.DUE).update(due_at=timezone.now() - timedelta(seconds=1))


def test_a_failed_mail_and_post_are_retried_later_and_then_sent_once(
    club, smtp, receiver, settings, django_capture_on_commit_callbacks
):
    services.set_webhook(club=club, url=receiver.url)
    a, b = person(club, "Anna Alt"), person(club, "Bernd Berg")
    match = MatchFactory(club=club, player_a=a, player_b=b)
    good_port, settings.EMAIL_PORT = settings.EMAIL_PORT, 9  # nothing listens: the mail fails
    receiver.status = 503
    with django_capture_on_commit_callbacks(execute=True):
        tournament_hooks.match_called(match, None)
    assert smtp.messages == [] and receiver.posts == []
    row = Notification.objects.filter(recipient=a.user).get()
    assert row.delivery == Delivery.DUE and row.attempts == 1 and row.due_at > timezone.now()
    post = WebhookDelivery.objects.get()
    assert post.delivery == Delivery.DUE and post.attempts == 1 and "503" in post.last_error

    assert services.sweep_due() == 0  # not due yet: the backoff holds it
    settings.EMAIL_PORT, receiver.status = good_port, 204
    _due_now(Notification)
    _due_now(WebhookDelivery)
    services.sweep_due()
    services.sweep_due()
    assert sorted(to[0] for to, _message in smtp.messages) == sorted([a.user.email, b.user.email])
    assert len(receiver.posts) == 1


def test_the_unsubscribe_link_stops_that_kind_of_mail_only(club, smtp, django_capture_on_commit_callbacks):
    a, b = person(club, "Anna Alt"), person(club, "Bernd Berg")
    first = MatchFactory(club=club, player_a=a, player_b=b)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_hooks.match_called(first, None)
    message = next(m for to, m in smtp.messages if to == [b.user.email])
    link = unsubscribe_link(message)
    assert link in text(message)
    path = link.split("localhost:8000", 1)[1]
    assert Client().get(path).status_code == 200  # shows the button, changes nothing
    # The mail client's one click (RFC 8058): no sign-in, no CSRF token.
    answer = Client(enforce_csrf_checks=True).post(
        path, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert answer.status_code == 200

    smtp.messages.clear()
    with django_capture_on_commit_callbacks(execute=True):
        tournament_hooks.match_called(MatchFactory(club=club, player_a=a, player_b=b), None)
        match_services.submit_report(actor=a.user, match=first, method="final_score", scores=(5, 0))
    got = sorted((to[0], m["Subject"]) for to, m in smtp.messages)
    assert got == [(a.user.email, "Your match is ready"), (b.user.email, "A result waits for your confirmation")]
    # Still shown in the list: only the mail stopped.
    assert Notification.objects.filter(recipient=b.user, kind="match_ready", in_app=True).count() == 2

    assert Client().post(path).status_code == 200  # clicked again: still fine
    assert Client().get("/notifications/unsubscribe/forged/").status_code == 400


def test_a_german_recipient_gets_german_text(club, smtp, django_capture_on_commit_callbacks):
    from django.core.management import call_command

    call_command("compile_translations")
    a, b = person(club, "Anna Alt", language="de"), person(club, "Bernd Berg")
    match = MatchFactory(club=club, player_a=a, player_b=b)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_hooks.match_called(match, "3")
    german = next(m for to, m in smtp.messages if to == [a.user.email])
    english = next(m for to, m in smtp.messages if to == [b.user.email])
    assert german["Subject"] == "Dein Match ist bereit"
    assert "Dein Match gegen Bernd Berg ist bereit: Brett 3." in text(german)
    assert "Your match against Anna Alt is ready: board 3." in text(english)


def test_a_reader_switches_language_without_a_token_but_a_signed_in_persons_switch_is_checked(club):
    """The readers' pages carry no CSRF token (they are served whole from the cache: base.pagecache), so the switch
    takes none from someone not signed in (it only sets their own cookie); a signed-in person's switch changes
    what is stored for them and is refused without the token."""
    reader = Client(enforce_csrf_checks=True)
    answer = reader.post("/i18n/setlang/", {"language": "de", "next": "/"})
    assert answer.status_code == 302 and answer.cookies["django_language"].value == "de"
    anna = person(club, "Anna Alt")
    signed_in = Client(enforce_csrf_checks=True)
    signed_in.force_login(anna.user)
    assert signed_in.post("/i18n/setlang/", {"language": "de", "next": "/"}).status_code == 403
    assert not NotificationSettings.objects.filter(user=anna.user, language="de").exists()
    token = signed_in.get("/").content.decode().split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    form = {"language": "de", "next": "/", "csrfmiddlewaretoken": token}
    assert signed_in.post("/i18n/setlang/", form).status_code == 302
    assert NotificationSettings.objects.get(user=anna.user).language == "de"


def test_switching_the_language_on_the_site_sets_the_language_of_the_mails(club):
    anna = person(club, "Anna Alt")
    client = Client()
    client.force_login(anna.user)
    assert client.post("/i18n/setlang/", {"language": "de", "next": "/"}).status_code == 302
    assert anna.user.notification_settings.language == "de"
