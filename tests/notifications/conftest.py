"""A real SMTP server (aiosmtpd, as the password-reset tests use) and a real HTTP receiver for the webhook."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from notifications import services
from tests.clubs.factories import MembershipFactory
from tests.core.test_auth_password_reset import smtp  # noqa: F401 - the fixture, shared


class Receiver:
    """Records every POST; answers `status` (503 to make the sender retry)."""

    def __init__(self):
        self.posts = []
        self.status = 204
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                if receiver.status < 300:
                    receiver.posts.append((dict(self.headers), body))
                self.send_response(receiver.status)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def payloads(self):
        return [json.loads(body) for _headers, body in self.posts]


@pytest.fixture
def receiver(settings):
    settings.WEBHOOK_ALLOW_PRIVATE = True  # the receiver runs on loopback; production refuses that (tested)
    receiver = Receiver()
    receiver.thread.start()
    yield receiver
    receiver.server.shutdown()
    receiver.server.server_close()


@pytest.fixture
def hooked_club(club, receiver):
    """`club` with its webhook pointing at the receiver."""
    services.set_webhook(club=club, url=receiver.url)
    return club


def person(club, name, role="player", language=""):
    """A member with an e-mail address (and a stored language when given)."""
    player = MembershipFactory(club=club, role=role, player__name=name).player
    player.user.email = f"{name.lower().replace(' ', '.')}@example.org"
    player.user.save(update_fields=["email"])
    if language:
        services.set_language(user=player.user, language=language)
    return player
