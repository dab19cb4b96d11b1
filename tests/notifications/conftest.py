"""A real SMTP server (aiosmtpd, as the password-reset tests use), a real HTTP receiver for the webhook, and the
network edge of a webhook post with local HTTP(S) servers standing in for public hosts."""

import ipaddress
import json
import socket
import ssl
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from notifications import outbound, services
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


# --- the network edge of a webhook post (notifications.outbound) ------------------------------------------------


class Network:
    """What names resolve to and which local server answers for a public address: the two functions at the edge
    of notifications.outbound (`resolve`, `dial`) are replaced; everything between them runs as in production.

    `names[name]` is a list of answers, one per lookup (the last repeats). `routes[address]` is the port of the
    local server standing in for that address; dialling any other address is refused, and every dial is logged."""

    def __init__(self, monkeypatch):
        self.names: dict[str, list[list[str]]] = {}
        self.routes: dict[str, int] = {}
        self.lookups: list[str] = []
        self.dialled: list[tuple[str, int]] = []
        monkeypatch.setattr(outbound, "resolve", self.resolve)
        monkeypatch.setattr(outbound, "dial", self.dial)

    def resolve(self, host, port):
        self.lookups.append(host)
        if host not in self.names:
            try:
                return [str(ipaddress.ip_address(host))]  # an address in the URL resolves to itself
            except ValueError:
                raise socket.gaierror(socket.EAI_NONAME, "Name or service not known") from None
        answers = self.names[host]
        return answers.pop(0) if len(answers) > 1 else answers[0]

    def dial(self, address, port, timeout):
        self.dialled.append((address, port))
        if address not in self.routes:
            raise ConnectionRefusedError(f"no test server for {address}")
        return socket.create_connection(("127.0.0.1", self.routes[address]), timeout)


@pytest.fixture
def network(monkeypatch, settings):
    settings.WEBHOOK_ALLOW_PRIVATE = False  # production's rules: https, public addresses only
    return Network(monkeypatch)


class Server:
    """A local HTTP(S) server: `answer(handler)` answers each request (after its body is read); every request's
    path is recorded in `hits`, its Host header in `hosts`."""

    def __init__(self, answer, tls: ssl.SSLContext | None = None):
        self.hits: list[str] = []
        self.hosts: list[str] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.connection.settimeout(10)
                server.hits.append(self.path)
                server.hosts.append(self.headers.get("Host", ""))
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                try:
                    answer(self)
                except OSError:  # the client went away (as it should, from an endless or slow answer)
                    self.close_connection = True

            do_GET = do_POST

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        if tls is not None:
            self.httpd.socket = tls.wrap_socket(self.httpd.socket, server_side=True)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def serve():
    """serve(answer, tls=None) -> a running Server, shut down after the test."""
    servers = []

    def start(answer, tls=None):
        servers.append(Server(answer, tls))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


@pytest.fixture(scope="session")
def certificates(tmp_path_factory):
    """A test CA and a certificate it signed for hooks.example.test (by the openssl command line)."""
    folder = tmp_path_factory.mktemp("tls")

    def openssl(*args):
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)

    curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    openssl(
        "req",
        "-x509",
        *curve,
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-days",
        "2",
        "-subj",
        "/CN=Test CA",
        "-addext",
        "basicConstraints=critical,CA:TRUE",
        "-addext",
        "keyUsage=critical,keyCertSign,cRLSign",
    )
    openssl("req", *curve, "-keyout", "hook.key", "-out", "hook.csr", "-subj", "/CN=hooks.example.test")
    (folder / "hook.ext").write_text(
        "subjectAltName=DNS:hooks.example.test\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\n"
        "extendedKeyUsage=serverAuth\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid,issuer\n"
    )
    openssl(
        "x509",
        "-req",
        "-in",
        "hook.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "hook.pem",
        "-days",
        "2",
        "-extfile",
        "hook.ext",
    )
    return folder


@pytest.fixture
def tls(certificates, monkeypatch):
    """The server side of TLS for hooks.example.test; the client trusts the test CA (SSL_CERT_FILE, which httpx
    reads as any deployment may set it) and checks the certificate as in production."""
    monkeypatch.setenv("SSL_CERT_FILE", str(certificates / "ca.pem"))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificates / "hook.pem", certificates / "hook.key")
    return context
