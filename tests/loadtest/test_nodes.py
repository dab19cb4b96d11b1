"""The two-node load test's own pieces: the connection budget it prints beside the peak (docs/deploy.md's
formula), and the client that moves to the surviving node when its own is gone, but only with a request that is
safe to send twice. Real sockets on loopback: one server answering, one port nobody listens on."""

import http.server
import json
import socket
import threading

import pytest

from loadtest.clients import FailoverClient, client_for
from loadtest.core import Tally


class Answer(http.server.BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802
        body = self.rfile.read(int(self.headers["Content-Length"]))
        data = json.dumps({"port": self.server.server_port, "echo": json.loads(body)}).encode()
        self.send_response(201)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture
def nodes():
    """A live node and a dead one (a port that was just free: connecting is refused)."""
    live = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Answer)
    threading.Thread(target=live.serve_forever, daemon=True).start()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        dead_port = probe.getsockname()[1]
    yield f"http://127.0.0.1:{dead_port}", f"http://127.0.0.1:{live.server_port}", live.server_port
    live.shutdown()
    live.server_close()


def test_a_write_with_an_idempotency_key_moves_to_the_surviving_node(nodes):
    dead, live, live_port = nodes
    tally = Tally("t")
    client = FailoverClient([dead, live], tally)
    status, answer = client.request("POST", "/w/", body={"idempotency_key": "k1"})
    assert (status, answer["port"]) == (201, live_port)
    assert (tally.ok, tally.errors, len(tally.failover_times)) == (1, 0, 1)
    client.request("POST", "/w/", body={"idempotency_key": "k2"})  # it stays on the node that answers
    assert len(tally.failover_times) == 1
    client.close()


class BadGateway(Answer):
    """A node's proxy whose application was killed under it: 502 with an empty body."""

    def do_POST(self):  # noqa: N802
        self.rfile.read(int(self.headers["Content-Length"]))
        self.send_response(502)
        self.send_header("Content-Length", "0")
        self.end_headers()


def test_a_proxys_502_moves_a_keyed_write_to_the_next_node_and_a_write_without_a_key_stays_an_error(nodes):
    """The two-node load test saw 502s from the killed node's proxy: a keyed write there may have committed before
    the application died, so it goes again, with its key, to the other node; a write without one is not repeated."""
    _dead, live, live_port = nodes
    gateway = http.server.ThreadingHTTPServer(("127.0.0.1", 0), BadGateway)
    threading.Thread(target=gateway.serve_forever, daemon=True).start()
    proxy = f"http://127.0.0.1:{gateway.server_port}"
    try:
        tally = Tally("t")
        client = FailoverClient([proxy, live], tally)
        status, answer = client.request("POST", "/w/", body={"idempotency_key": "k1"})
        assert (status, answer["port"], len(tally.failover_times)) == (201, live_port, 1)
        client.close()
        plain = Tally("p")
        client = FailoverClient([proxy, live], plain)
        status, _ = client.request("POST", "/w/", body={"amount": 1})
        assert status == 502 and plain.failover_times == []
        client.close()
    finally:
        gateway.shutdown()
        gateway.server_close()


def test_a_write_without_a_key_is_not_sent_twice(nodes):
    dead, live, _ = nodes
    tally = Tally("t")
    client = FailoverClient([dead, live], tally)
    status, _ = client.request("POST", "/w/", body={"amount": 1})
    assert status == 0
    assert (tally.ok, tally.errors, tally.failover_times) == (0, 1, [])
    client.close()


def test_clients_alternate_nodes():
    urls = ["http://127.0.0.1:1", "http://127.0.0.1:2"]
    firsts = [client_for(urls, n, Tally("t")).port for n in range(4)]
    assert firsts == [1, 2, 1, 2]
