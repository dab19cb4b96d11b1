"""Password reset through a real SMTP server on loopback (aiosmtpd): the mail arrives and its link sets a new
password; with the server down the user is told the mail could not be sent, not that it was."""

import re
import socket
from email import message_from_bytes

import pytest
from aiosmtpd.controller import Controller
from django.test import Client

from tests.clubs.factories import UserFactory

pytestmark = pytest.mark.django_db

NOT_SENT = "We could not send the e-mail right now; try again later or ask a club admin."


class Inbox:
    def __init__(self):
        self.messages = []

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


def test_the_reset_mail_arrives_and_its_link_sets_a_new_password(smtp):
    user = UserFactory(email="anna@example.org")
    client = Client()
    response = client.post("/accounts/password_reset/", {"email": "anna@example.org"})
    assert response.status_code == 302 and response["Location"] == "/accounts/password_reset/done/"
    assert "Check your e-mail" in client.get(response["Location"]).content.decode()

    [(recipients, mail)] = smtp.messages
    assert recipients == ["anna@example.org"]
    body = mail.get_payload(decode=True).decode()
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+/)", body).group(1)

    form = client.get(link, follow=True)
    assert "Choose a new password" in form.content.decode()
    done = client.post(form.redirect_chain[-1][0], {"new_password1": "a-new-board-7", "new_password2": "a-new-board-7"})
    assert done.status_code == 302 and done["Location"] == "/accounts/reset/done/"
    user.refresh_from_db()
    assert user.check_password("a-new-board-7")
    assert Client().login(username=user.username, password="a-new-board-7")
    assert "no longer valid" in client.get(link, follow=True).content.decode()  # the link works once


def test_with_the_mail_server_down_the_user_is_told_the_mail_was_not_sent(smtp):
    UserFactory(email="anna@example.org")
    smtp.controller.stop()
    response = Client().post("/accounts/password_reset/", {"email": "anna@example.org"})
    assert response.status_code == 503
    page = response.content.decode()
    assert NOT_SENT in page
    assert 'class="site-header"' in page and "Check your e-mail" not in page


def test_without_a_configured_mail_server_the_user_is_told_too(settings):
    settings.EMAIL_BACKEND = "accounts.mail.UnconfiguredEmailBackend"
    UserFactory(email="anna@example.org")
    response = Client().post("/accounts/password_reset/", {"email": "anna@example.org"})
    assert response.status_code == 503
    assert NOT_SENT in response.content.decode()


def test_the_reset_pages_are_in_the_site_style():
    for url in ["/accounts/password_reset/", "/accounts/password_reset/done/", "/accounts/reset/done/"]:
        page = Client().get(url).content.decode()
        assert 'class="site-header"' in page, url
    assert 'href="/accounts/password_reset/"' in Client().get("/accounts/login/").content.decode()
