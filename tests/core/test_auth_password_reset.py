"""Password reset through a real SMTP server on loopback (aiosmtpd): the mail arrives and its link sets a new
password. The page answers the same for an address with an account and one without, whether the mail server is
up or not: the request only queues the mail, and the worker sends it (again, once the server is back)."""

import re
import socket
from datetime import timedelta
from email import message_from_bytes

import pytest
from aiosmtpd.controller import Controller
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts import services, tasks
from accounts.models import PasswordResetMail
from base import outbox
from base.models import Delivery
from base.tasks import sweep
from tests.clubs.factories import UserFactory
from tests.core.test_queue import broker_down  # noqa: F401 - the fixture, shared

pytestmark = pytest.mark.django_db

ON_ITS_WAY = "If an account exists for this address, a mail is on its way"
RESET = "/accounts/password_reset/"


class Inbox:
    def __init__(self):
        self.messages = []
        self.greetings = 0  # EHLO/HELO: each is a client that came to send

    async def handle_EHLO(self, server, session, envelope, hostname, responses):
        self.greetings += 1
        session.host_name = hostname
        return responses

    async def handle_HELO(self, server, session, envelope, hostname):
        self.greetings += 1
        session.host_name = hostname
        return f"250 {server.hostname}"

    async def handle_DATA(self, server, session, envelope):
        self.messages.append((envelope.rcpt_tos, message_from_bytes(envelope.content)))
        return "250 Message accepted for delivery"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def smtp(settings):
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", controller.port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_TIMEOUT = 5
    inbox.controller = controller
    yield inbox
    if controller._thread is not None:
        controller.stop()


@pytest.fixture
def smtp_down(smtp, settings):
    """The mail server unreachable (a port nobody listens on); `smtp.back()` points at the live one again."""
    live = settings.EMAIL_PORT
    settings.EMAIL_PORT = free_port()

    def back():
        settings.EMAIL_PORT = live

    smtp.back = back
    return smtp


@pytest.fixture
def ask(django_capture_on_commit_callbacks):
    """POST the reset form as a stranger, running what the request queues after its commit (as the server
    would: the test's transaction never commits)."""

    def ask(address, **headers):
        with django_capture_on_commit_callbacks(execute=True):
            return Client().post(RESET, {"email": address}, **headers)

    return ask


def link_in(mail) -> str:
    body = mail.get_payload(decode=True).decode()
    return re.search(r"https?://[^/\s]+(/accounts/reset/\S+/)", body).group(1)


def comparable(response) -> dict:
    """What a stranger sees of an answer, less what differs on every request anyway (cookies, CSRF token,
    the nonce of the security policy, the clock)."""
    headers = {k: v for k, v in response.headers.items() if k.lower() not in {"set-cookie", "date", "expires"}}
    headers = {k: re.sub(r"nonce-[\w+/=-]+", "nonce", v) for k, v in headers.items()}
    body = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", response.content.decode())
    body = re.sub(r'nonce="[^"]+"', "", body)
    return {"status": response.status_code, "headers": headers, "body": body}


def test_the_reset_mail_arrives_and_its_link_sets_a_new_password(smtp, ask):
    user = UserFactory(email="anna@example.org")
    response = ask("Anna@Example.org")
    assert response.status_code == 302 and response["Location"] == "/accounts/password_reset/done/"
    client = Client()
    assert ON_ITS_WAY in client.get(response["Location"]).content.decode()

    [(recipients, mail)] = smtp.messages
    assert recipients == ["anna@example.org"]
    link = link_in(mail)
    assert not PasswordResetMail.objects.exists()  # sent: the address is not kept

    form = client.get(link, follow=True)
    assert "Choose a new password" in form.content.decode()
    done = client.post(form.redirect_chain[-1][0], {"new_password1": "a-new-board-7", "new_password2": "a-new-board-7"})
    assert done.status_code == 302 and done["Location"] == "/accounts/reset/done/"
    user.refresh_from_db()
    assert user.check_password("a-new-board-7")
    assert Client().login(username=user.username, password="a-new-board-7")
    assert "no longer valid" in client.get(link, follow=True).content.decode()  # the link works once


def test_known_and_unknown_addresses_get_the_same_answer_with_the_mail_server_down(smtp_down, ask):
    UserFactory(email="anna@example.org")
    known, unknown = ask("anna@example.org"), ask("nobody@example.org")
    assert known.status_code == 302 and known["Location"] == "/accounts/password_reset/done/"
    assert comparable(known) == comparable(unknown)
    client = Client()
    pages = [client.get(response["Location"]) for response in (known, unknown)]
    assert comparable(pages[0]) == comparable(pages[1])
    assert ON_ITS_WAY in pages[0].content.decode()
    # Behind the answer: the mail for Anna waits for the server; the address without an account left nothing.
    [waiting] = PasswordResetMail.objects.all()
    assert (waiting.address, waiting.delivery, waiting.attempts) == ("anna@example.org", Delivery.DUE, 1)
    assert "ConnectionRefusedError" in waiting.last_error and waiting.due_at > timezone.now()


def normalised(queries) -> list[str]:
    """The statements with their values left out: what work was done, not for which address or at what time."""
    return [re.sub(r"'[^']*'|\b\d+(\.\d+)?\b", "?", query["sql"]) for query in queries]


@pytest.mark.usefixtures("broker_down")
def test_the_request_does_the_same_work_for_both_and_never_talks_to_the_mail_server(
    smtp, django_capture_on_commit_callbacks
):
    """With the broker refusing, what the request itself does stays in the request: the same statements for an
    address with an account as for one without, and no mail server reached. The sweep sends it later."""
    UserFactory(email="anna@example.org")
    work = {}
    for address in ("anna@example.org", "nobody@example.org"):
        with CaptureQueriesContext(connection) as queries, django_capture_on_commit_callbacks(execute=True) as queued:
            response = Client().post(RESET, {"email": address})
        assert response.status_code == 302
        work[address] = (normalised(queries.captured_queries), [callback.func for callback in queued])
    assert work["anna@example.org"] == work["nobody@example.org"]
    assert not any("auth_user" in sql for sql in work["anna@example.org"][0])  # the account is not even looked for
    assert smtp.greetings == 0 and smtp.messages == []
    assert PasswordResetMail.objects.filter(delivery=Delivery.DUE).count() == 2

    from config.celery import app  # noqa: PLC0415 - the broker is back: tasks run (in-process) again

    app.conf.task_always_eager = True
    with django_capture_on_commit_callbacks(execute=True):
        sweep.apply()
    [(recipients, _mail)] = smtp.messages
    assert recipients == ["anna@example.org"] and not PasswordResetMail.objects.exists()


def test_a_mail_queued_while_the_server_was_down_is_sent_once_when_it_is_back(smtp_down, ask):
    user = UserFactory(email="anna@example.org")
    ask("anna@example.org")
    waiting = PasswordResetMail.objects.get()
    smtp_down.back()
    assert sweep.apply().get() == 0 and smtp_down.messages == []  # not before its retry is due
    PasswordResetMail.objects.update(due_at=timezone.now() - timedelta(seconds=1))  # the backoff has run out

    assert sweep.apply().get() == 1
    assert tasks.send_password_reset(waiting.pk) is False  # a second task for the same mail sends nothing
    assert sweep.apply().get() == 0
    [(recipients, mail)] = smtp_down.messages
    assert recipients == ["anna@example.org"]
    client = Client()
    form = client.get(link_in(mail), follow=True)
    client.post(form.redirect_chain[-1][0], {"new_password1": "a-new-board-7", "new_password2": "a-new-board-7"})
    user.refresh_from_db()
    assert user.check_password("a-new-board-7")  # the link made when it was sent works


def test_two_tasks_for_one_mail_send_it_once(smtp, django_capture_on_commit_callbacks):
    UserFactory(email="anna@example.org")
    with django_capture_on_commit_callbacks(execute=False) as queued:  # the request's task not yet run
        services.request_password_reset(address="anna@example.org", language="en")
    pk = PasswordResetMail.objects.get().pk
    assert outbox.claim(PasswordResetMail, pk)  # a first worker has it ...
    assert tasks.send_password_reset(pk) is False  # ... so a second does nothing
    PasswordResetMail.objects.filter(pk=pk).update(delivery=Delivery.DUE)  # the first one let go
    assert [tasks.send_password_reset(pk), tasks.send_password_reset(pk)] == [True, False]
    queued[0]()  # the request's own task, arriving late, finds nothing to send
    assert len(smtp.messages) == 1


def test_asking_again_while_a_mail_waits_queues_no_second_one(smtp_down, ask):
    UserFactory(email="anna@example.org")
    for _ in range(3):
        assert ask("anna@example.org").status_code == 302
    [waiting] = PasswordResetMail.objects.all()
    assert waiting.attempts == 1  # the later requests did not retry it before its time either
    smtp_down.back()
    PasswordResetMail.objects.update(due_at=timezone.now())
    sweep.apply()
    assert len(smtp_down.messages) == 1


def test_a_mail_of_a_worker_that_died_is_sent_by_the_sweep(smtp, settings, django_capture_on_commit_callbacks):
    UserFactory(email="anna@example.org")
    with django_capture_on_commit_callbacks(execute=False):
        services.request_password_reset(address="anna@example.org", language="en")
    pk = PasswordResetMail.objects.get().pk
    assert outbox.claim(PasswordResetMail, pk)  # its worker took it and died
    assert sweep.apply().get() == 0  # under way a moment ago: left alone
    stale = timezone.now() - timedelta(seconds=settings.TASK_STALE_SECONDS + 1)
    PasswordResetMail.objects.filter(pk=pk).update(claimed_at=stale)
    assert sweep.apply().get() == 1
    assert len(smtp.messages) == 1


def test_a_mail_that_keeps_failing_is_given_up_and_shown_to_the_admin(smtp_down, ask):
    UserFactory(email="anna@example.org")
    ask("anna@example.org")
    for _ in range(outbox.MAX_ATTEMPTS - 1):
        PasswordResetMail.objects.update(due_at=timezone.now())
        sweep.apply()
    failed = PasswordResetMail.objects.get()
    assert (failed.delivery, failed.attempts) == (Delivery.FAILED, outbox.MAX_ATTEMPTS)
    assert ask("anna@example.org").status_code == 302  # the person may ask again: a new mail is queued
    assert PasswordResetMail.objects.filter(delivery=Delivery.DUE).count() == 1


def test_without_a_configured_mail_server_the_answer_is_the_same_and_the_mail_waits(settings, ask):
    settings.EMAIL_BACKEND = "accounts.mail.UnconfiguredEmailBackend"
    UserFactory(email="anna@example.org")
    known, unknown = ask("anna@example.org"), ask("nobody@example.org")
    assert comparable(known) == comparable(unknown) and known.status_code == 302
    assert "no mail server configured" in PasswordResetMail.objects.get().last_error


def test_a_mail_asked_on_a_german_page_is_german(smtp, ask):
    UserFactory(email="anna@example.org")
    response = ask("anna@example.org", HTTP_ACCEPT_LANGUAGE="de")
    page = Client().get(response["Location"], HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Wenn es für diese Adresse ein Konto gibt, ist eine E-Mail" in page
    [(_to, mail)] = smtp.messages
    assert "Jemand hat verlangt, das Passwort" in mail.get_payload(decode=True).decode()


def test_the_reset_pages_are_in_the_site_style():
    for url in [RESET, "/accounts/password_reset/done/", "/accounts/reset/done/"]:
        page = Client().get(url).content.decode()
        assert 'class="site-header"' in page, url
    assert f'href="{RESET}"' in Client().get("/accounts/login/").content.decode()
