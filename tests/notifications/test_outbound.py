"""A club's webhook cannot be made to reach into the server's own network: not by a redirect, not by a name that
answers differently a moment later, not by any special-purpose address (IPv4 hidden in IPv6 included); and a
receiver cannot hold a worker by answering without end or byte by byte.

Only the edge is replaced (the `network` fixture: what a name resolves to, and which local server answers for a
public address); the post, its TLS and its HTTP run as in production against real local servers."""

import ipaddress
import time

import pytest

from notifications import outbound, services
from notifications.models import ClubWebhook, Delivery, WebhookDelivery
from tests.refusals import ValidationError

pytestmark = pytest.mark.django_db

HOST = "hooks.example.test"
URL = f"https://{HOST}/hook"
PUBLIC = "93.184.216.34"  # example.org's address: the name "resolves" there, a local server stands in for it

SPECIAL = [
    "127.0.0.1",
    "127.1.2.3",
    "10.0.0.1",
    "172.16.0.1",
    "172.31.255.254",
    "192.168.1.1",
    "169.254.169.254",  # cloud metadata
    "100.64.0.1",  # carrier-grade NAT
    "0.0.0.0",
    "198.18.0.1",  # benchmarking
    "192.0.0.8",  # IETF protocol assignments
    "192.0.0.1",
    "192.0.0.170",  # NAT64 discovery
    "192.0.2.1",  # documentation
    "240.0.0.1",  # reserved
    "255.255.255.255",
    "224.0.0.1",  # multicast
    "239.255.255.250",
    "::1",
    "::",
    "fe80::1",
    "fc00::1",
    "fd12:3456::1",
    "ff02::1",  # multicast
    "ff0e::1",  # global-scope multicast: still no HTTP receiver
    "2001:db8::1",  # documentation
    "3fff::1",  # documentation, newer than Python 3.11.7's table
    "fec0::1",  # site-local
    "64:ff9b::a00:1",  # NAT64 of 10.0.0.1
    "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1
    "64:ff9b::a9fe:a9fe",  # NAT64 of 169.254.169.254
    "64:ff9b:1::a00:1",  # local-use NAT64
    "2002:a00:1::",  # 6to4 of 10.0.0.1
    "2002:7f00:1::1",  # 6to4 of 127.0.0.1
    "2001:0:a00:1::",  # Teredo, server 10.0.0.1
    "::ffff:10.0.0.1",  # IPv4-mapped
    "::ffff:127.0.0.1",
    "::10.0.0.1",  # IPv4-compatible
    "::127.0.0.1",
    "::169.254.169.254",
]
GLOBAL = ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946", "64:ff9b::5db8:d822", "1.1.1.1"]


def in_url(address: str) -> str:
    return f"[{address}]" if ":" in address else address


def delivery(club) -> WebhookDelivery:
    return WebhookDelivery.objects.create(club=club, kind="draw_released", object_key="flight:1", params={"event": "X"})


def answering(status, headers=(), body=b""):
    def answer(handler):
        handler.send_response(status)
        for name, value in headers:
            handler.send_header(name, value)
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)

    return answer


# --- which addresses ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("address", SPECIAL)
def test_a_special_purpose_address_is_refused_when_saved(club, network, address):
    with pytest.raises(ValidationError, match="private or local"):
        services.set_webhook(club=club, url=f"https://{in_url(address)}/hook")
    network.names[HOST] = [[address]]
    with pytest.raises(ValidationError, match="private or local"):
        services.set_webhook(club=club, url=URL)
    assert not ClubWebhook.objects.exists() and network.dialled == []


@pytest.mark.parametrize("address", SPECIAL)
def test_a_name_that_resolves_to_a_special_purpose_address_by_the_time_of_the_post_is_not_posted_to(
    club, network, address
):
    network.names[HOST] = [[PUBLIC], [address]]  # public when saved, then not
    services.set_webhook(club=club, url=URL)
    row = delivery(club)
    assert services.send_webhook(row.pk) is False
    row.refresh_from_db()
    assert row.delivery == Delivery.DUE and row.attempts == 1  # the name may point back out later: tried again
    assert row.last_error.startswith("Refused: ") and str(ipaddress.ip_address(address)) in row.last_error
    assert network.dialled == []


@pytest.mark.parametrize("address", GLOBAL)
def test_a_public_address_is_accepted_nat64_of_a_public_ipv4_address_too(club, network, address):
    services.set_webhook(club=club, url=f"https://{in_url(address)}/hook")
    assert outbound.refusal(ipaddress.ip_address(address)) is None


def test_the_ipv4_address_inside_an_ipv6_address_is_what_is_judged():
    # Python's own table counts these as global (NAT64's well-known prefix and the IPv4-compatible form are
    # globally reachable in the registry); the embedded 10.0.0.1 is what a router would hand them to.
    for address in ("64:ff9b::a00:1", "::a00:1"):
        why = outbound.refusal(ipaddress.ip_address(address))
        assert why is not None and "carries 10.0.0.1" in why
    teredo = outbound.embedded_ipv4(ipaddress.IPv6Address("2001:0:a00:1::"))
    assert ipaddress.IPv4Address("10.0.0.1") in teredo


def test_one_bad_address_among_good_ones_refuses_the_name(club, network):
    network.names[HOST] = [[PUBLIC, "10.0.0.1"]]
    with pytest.raises(ValidationError, match="private or local"):
        services.set_webhook(club=club, url=URL)


# --- no redirect, no second lookup ------------------------------------------------------------------------------


def test_a_receiver_that_redirects_to_loopback_is_not_followed_and_the_delivery_fails_saying_why(
    club, network, serve, tls
):
    inside = serve(answering(200, body=b"internal admin page"))
    redirector = serve(answering(302, [("Location", f"http://127.0.0.1:{inside.port}/admin")]), tls=tls)
    network.names[HOST] = [[PUBLIC]]
    network.routes[PUBLIC] = redirector.port
    services.set_webhook(club=club, url=URL)
    row = delivery(club)

    assert services.send_webhook(row.pk) is False
    row.refresh_from_db()
    assert row.delivery == Delivery.FAILED and row.attempts == 1  # a redirect would be answered again: no retry
    assert "302" in row.last_error and "redirects are not followed" in row.last_error
    assert redirector.hits == ["/hook"] and inside.hits == []
    assert network.dialled == [(PUBLIC, 443)]


def test_the_post_connects_only_to_the_address_it_checked_whatever_the_name_says_later(club, network, serve, tls):
    """DNS rebinding: the name answers a public address for the check and a private one afterwards. The post
    asks once and connects to what it checked; the private address is never dialled."""
    receiver = serve(answering(204), tls=tls)
    network.names[HOST] = [[PUBLIC], [PUBLIC], ["127.0.0.1"]]  # saved, posted, and any later lookup
    network.routes[PUBLIC] = receiver.port
    network.routes["127.0.0.1"] = receiver.port  # were it dialled, it would answer: the log shows it is not
    services.set_webhook(club=club, url=URL)
    assert network.lookups == [HOST]
    row = delivery(club)

    assert services.send_webhook(row.pk) is True
    assert network.lookups == [HOST, HOST]  # one lookup for the check, one for the post: none by the client
    assert network.dialled == [(PUBLIC, 443)] and receiver.hits == ["/hook"]
    assert receiver.hosts == [HOST]  # and TLS verified the certificate for the name (the test CA signed it)
    row.refresh_from_db()
    assert row.delivery == Delivery.SENT


def test_tls_is_checked_against_the_name_not_the_address(club, network, serve, tls):
    receiver = serve(answering(204), tls=tls)  # its certificate is for hooks.example.test only
    network.names["other.example.test"] = [[PUBLIC]]
    network.routes[PUBLIC] = receiver.port
    services.set_webhook(club=club, url="https://other.example.test/hook")
    row = delivery(club)
    assert services.send_webhook(row.pk) is False
    row.refresh_from_db()
    assert row.delivery == Delivery.DUE and "certificate" in row.last_error.lower()


# --- bounded reads and time -------------------------------------------------------------------------------------


def endless(handler):
    handler.send_response(200)
    handler.send_header("Content-Length", str(10**9))
    handler.end_headers()
    while True:
        handler.wfile.write(b"x" * 65536)


def test_the_answer_is_read_up_to_a_few_kilobytes(serve):
    server = serve(endless)
    started = time.monotonic()
    answer = outbound.post(f"http://127.0.0.1:{server.port}/hook", b"{}", {}, timeout=5, allow_private=True)
    assert answer.status == 200 and len(answer.head) == outbound.READ_CAP
    assert time.monotonic() - started < 2


def test_an_endless_answer_still_counts_as_delivered(club, receiver, serve, settings):
    server = serve(endless)
    settings.WEBHOOK_TIMEOUT = 3
    services.set_webhook(club=club, url=f"http://127.0.0.1:{server.port}/hook")
    row = delivery(club)
    started = time.monotonic()
    assert services.send_webhook(row.pk) is True
    assert time.monotonic() - started < 3  # WEBHOOK_TIMEOUT: reading to the end would fail the post there


def trickle(handler):
    """The status line one byte every 0.2 s: each read gets something long before a per-read timeout."""
    for byte in b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n":
        handler.wfile.write(bytes([byte]))
        handler.wfile.flush()
        time.sleep(0.2)


def test_a_receiver_that_trickles_its_answer_is_cut_at_the_total_deadline(club, receiver, serve, settings):
    server = serve(trickle)
    settings.WEBHOOK_TIMEOUT = 1
    services.set_webhook(club=club, url=f"http://127.0.0.1:{server.port}/hook")
    row = delivery(club)
    started = time.monotonic()
    assert services.send_webhook(row.pk) is False
    elapsed = time.monotonic() - started
    assert 0.9 < elapsed < 3  # the whole answer would take 7.6 s
    row.refresh_from_db()
    assert row.delivery == Delivery.DUE and "1 s" in row.last_error


def test_an_error_answer_is_kept_short_in_the_delivery(club, receiver, serve):
    server = serve(answering(400, body=b"invalid webhook token " + b"!" * 10_000))
    services.set_webhook(club=club, url=f"http://127.0.0.1:{server.port}/hook")
    row = delivery(club)
    assert services.send_webhook(row.pk) is False
    row.refresh_from_db()
    assert row.delivery == Delivery.DUE and row.last_error.startswith("WebhookAnswer: HTTP 400: invalid webhook token")
    assert len(row.last_error) <= 300
