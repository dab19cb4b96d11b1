"""The one way the server posts to an address someone else chose (a club's webhook), and why it cannot be made to
reach into the server's own network.

A URL names a host; the host's addresses are what matter. So one post is:

1. the name is resolved once (`resolve`, the edge the tests replace);
2. every address it resolved to is judged (`refusal`): it must be globally reachable by the IANA special-purpose
   address registries, and so must any IPv4 address carried inside an IPv6 one (NAT64, 6to4, Teredo,
   IPv4-mapped and IPv4-compatible forms), since a router hands those on to the embedded IPv4 address;
3. the connection goes to those checked addresses and nowhere else (`PinnedBackend`): the HTTP client never
   resolves the name itself, so a name that answers differently a second later (DNS rebinding) changes nothing.
   TLS still runs on the *name* (SNI and certificate checked against it, as for any https request);
4. a redirect is never followed (it is an answer, reported as such), the answer's body is read up to READ_CAP
   bytes, and the whole post, connect and TLS and every read and write, ends at one deadline (a receiver that
   trickles one byte a second cannot hold a worker for longer than the timeout).

`allow_private` (the WEBHOOK_ALLOW_PRIVATE setting, for local work and the tests) lifts step 2's judgement and the
https rule, nothing else: the post is still pinned, capped and timed.

No Django here: the caller passes the settings and words the refusals for people (notifications.services).
"""

from __future__ import annotations

import ipaddress
import socket
import ssl
import time
import typing
from dataclasses import dataclass

import httpcore
import httpx

READ_CAP = 4096  # bytes of an answer's body read at most: the status is what counts, the start helps an admin
USER_AGENT = "bgclub-webhook/1"

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

# Python's `is_global` is built from the IANA special-purpose address registries, but a Python release carries the
# registry of its day: these entries (not globally reachable, or "N/A") are newer than some supported Pythons'
# tables (3.11.7 counts all of them as global). Each is the registry's own entry, with its RFC. 192.0.0.0/24 is
# taken whole: the registry's two globally reachable addresses in it (192.0.0.9 and .10) are anycast addresses
# of PCP and TURN servers, never a webhook receiver.
NOT_GLOBAL_NEWER_THAN_PYTHON = (
    ipaddress.ip_network("192.0.0.0/24"),  # RFC 6890, IETF protocol assignments (192.0.0.8, the dummy, ...)
    ipaddress.ip_network("64:ff9b:1::/48"),  # RFC 8215, local-use IPv4/IPv6 translation
    ipaddress.ip_network("2002::/16"),  # RFC 3056, 6to4 ("N/A": reaches whatever IPv4 address it embeds)
    ipaddress.ip_network("3fff::/20"),  # RFC 9637, documentation
    ipaddress.ip_network("5f00::/16"),  # RFC 9602, segment routing SIDs
)
# RFC 6052 translation prefixes: the last 32 bits are an IPv4 address, reached through a NAT64 gateway. The local-use
# prefix may be laid out otherwise by its operator, but it is refused whole above.
NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))


class Refused(Exception):
    """The post may not be made: `reason` is one of SCHEME, HTTPS, UNRESOLVABLE, PRIVATE (the caller words it)."""

    SCHEME, HTTPS, UNRESOLVABLE, PRIVATE = "scheme", "https", "unresolvable", "private"

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason


# --- which addresses --------------------------------------------------------------------------------------------


def embedded_ipv4(address: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address stands for, in each form a host or router translates or tunnels to."""
    found = []
    if address.ipv4_mapped is not None:  # ::ffff:0:0/96
        found.append(address.ipv4_mapped)
    if address.sixtofour is not None:  # 2002::/16
        found.append(address.sixtofour)
    if address.teredo is not None:  # 2001::/32: (server, client)
        found.extend(address.teredo)
    value = int(address)
    if value >> 32 == 0 and value > 1:  # IPv4-compatible ::a.b.c.d (::/96 but for :: and ::1)
        found.append(ipaddress.IPv4Address(value))
    if any(address in prefix for prefix in NAT64):
        found.append(ipaddress.IPv4Address(value & 0xFFFFFFFF))
    return found


def refusal(address: Address) -> str | None:
    """Why the server may not post to `address` (None: it may): not globally reachable by the IANA registries,
    multicast or site-local, or an IPv6 address embedding an IPv4 address that is one of these."""
    if address.is_multicast:
        return f"{address} is a multicast address"
    if isinstance(address, ipaddress.IPv6Address) and address.is_site_local:  # fec0::/10, deprecated, not global
        return f"{address} is a site-local address"
    if not address.is_global or any(address in network for network in NOT_GLOBAL_NEWER_THAN_PYTHON):
        return f"{address} is not a globally reachable address"
    if isinstance(address, ipaddress.IPv6Address):
        for inner in embedded_ipv4(address):
            why = refusal(inner)
            if why is not None:
                return f"{address} carries {inner}: {why}"
    return None


def resolve(host: str, port: int) -> list[str]:
    """The addresses of `host`, asked once per check or post (this is the edge a test replaces)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def target(url: str, *, allow_private: bool) -> tuple[str, int]:
    """The URL's host (in ASCII, as it is resolved and as the client connects to it) and port, or Refused: http(s)
    only, and https unless private addresses are allowed."""
    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL as error:  # a port that is no number, brackets that do not close, ...
        raise Refused(Refused.SCHEME, f"not a URL: {error}") from None
    host = parsed.raw_host.decode("ascii")
    if parsed.scheme not in ("http", "https") or not host:
        raise Refused(Refused.SCHEME, "a webhook address must be an http or https URL")
    if parsed.scheme != "https" and not allow_private:
        raise Refused(Refused.HTTPS, "a webhook address must use https")
    return host, parsed.port or (443 if parsed.scheme == "https" else 80)


def checked_addresses(host: str, port: int, *, allow_private: bool) -> list[str]:
    """Resolve `host` once and judge every address (one bad address refuses the name: which one a client would
    take is not ours to guess). The result is the only place the post may connect to."""
    try:
        addresses = resolve(host, port)
    except (OSError, UnicodeError):
        raise Refused(Refused.UNRESOLVABLE, f"{host} cannot be resolved") from None
    if not addresses:
        raise Refused(Refused.UNRESOLVABLE, f"{host} resolves to no address")
    if not allow_private:
        for found in addresses:
            try:
                why = refusal(ipaddress.ip_address(found.split("%", 1)[0]))
            except ValueError:
                why = f"{found} is not an IP address"
            if why is not None:
                raise Refused(Refused.PRIVATE, f"{host}: {why}")
    return addresses


def check(url: str, *, allow_private: bool) -> None:
    """Refused unless `url` may be posted to now (when a club saves it; the post checks again)."""
    host, port = target(url, allow_private=allow_private)
    checked_addresses(host, port, allow_private=allow_private)


# --- the pinned, timed connection ------------------------------------------------------------------------------


class Deadline:
    """The end of one post: every socket operation gets at most what is left of it."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.at = time.monotonic() + seconds

    def left(self, timeout: float | None, error: type[Exception]) -> float:
        remaining = self.at - time.monotonic()
        if remaining <= 0:
            raise error(f"the post took longer than its {self.seconds:g} s in all")
        return remaining if timeout is None else min(timeout, remaining)


def dial(address: str, port: int, timeout: float) -> socket.socket:
    """Open the TCP connection to a checked address (the socket edge: a test maps a public address to its local
    server here)."""
    return socket.create_connection((address, port), timeout)


class PinnedStream(httpcore.NetworkStream):
    """A socket whose every read, write and TLS handshake ends by the post's deadline."""

    def __init__(self, sock: socket.socket, deadline: Deadline) -> None:
        self.sock = sock
        self.deadline = deadline

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        self.sock.settimeout(self.deadline.left(timeout, httpcore.ReadTimeout))
        try:
            return self.sock.recv(max_bytes)
        except TimeoutError:
            raise httpcore.ReadTimeout(self._late("reading")) from None
        except OSError as error:
            raise httpcore.ReadError(str(error)) from error

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        while buffer:
            self.sock.settimeout(self.deadline.left(timeout, httpcore.WriteTimeout))
            try:
                buffer = buffer[self.sock.send(buffer) :]
            except TimeoutError:
                raise httpcore.WriteTimeout(self._late("writing")) from None
            except OSError as error:
                raise httpcore.WriteError(str(error)) from error

    def close(self) -> None:
        self.sock.close()

    def start_tls(
        self, ssl_context: ssl.SSLContext, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.NetworkStream:
        """TLS on the name (httpcore passes the URL's host): the certificate is checked against it, whatever the
        address the socket went to."""
        self.sock.settimeout(self.deadline.left(timeout, httpcore.ConnectTimeout))
        try:
            wrapped = ssl_context.wrap_socket(self.sock, server_hostname=server_hostname)
        except TimeoutError:
            self.close()
            raise httpcore.ConnectTimeout(self._late("the TLS handshake")) from None
        except OSError as error:  # ssl.SSLError (a certificate for another name, ...) is an OSError
            self.close()
            raise httpcore.ConnectError(str(error)) from error
        return PinnedStream(wrapped, self.deadline)

    def get_extra_info(self, info: str) -> typing.Any:
        if info == "ssl_object" and isinstance(self.sock, ssl.SSLSocket):
            return self.sock  # what httpcore asks of it (the negotiated protocol) an SSLSocket answers too
        if info == "server_addr":
            return self.sock.getpeername()
        if info == "client_addr":
            return self.sock.getsockname()
        if info == "socket":
            return self.sock
        return None

    def _late(self, doing: str) -> str:
        return f"no answer in time while {doing} (timeout {self.deadline.seconds:g} s for the whole post)"


class PinnedBackend(httpcore.NetworkBackend):
    """Connects only to the checked addresses of the one host the post is for: the client's own idea of the
    host's address (a second lookup) never comes into it."""

    def __init__(self, host: str, addresses: list[str], deadline: Deadline) -> None:
        self.host = host
        self.addresses = addresses
        self.deadline = deadline

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: typing.Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.NetworkStream:
        if host != self.host:  # a redirect would be here; none is followed
            raise httpcore.ConnectError(f"{host} is not the checked host {self.host}")
        last: OSError | None = None
        for address in self.addresses:
            try:
                sock = dial(address, port, self.deadline.left(timeout, httpcore.ConnectTimeout))
            except TimeoutError:
                raise httpcore.ConnectTimeout(f"{address} did not answer in time") from None
            except OSError as error:
                last = error
                continue
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            return PinnedStream(sock, self.deadline)
        raise httpcore.ConnectError(f"could not connect to {self.host}: {last}")

    def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: typing.Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.NetworkStream:
        raise httpcore.ConnectError("a webhook is posted over TCP only")

    def sleep(self, seconds: float) -> None:
        time.sleep(min(seconds, self.deadline.left(None, httpcore.PoolTimeout)))


class PinnedTransport(httpx.HTTPTransport):
    """httpx's own transport (its request/response mapping and exception types), over a connection pool whose
    network backend is `backend`. httpx offers no argument for the pool's backend, so the pool it built is
    replaced; the check below makes an httpx that keeps its pool elsewhere fail here, loudly, rather than post
    through an unpinned pool. httpx is pinned in requirements.txt."""

    def __init__(self, backend: PinnedBackend) -> None:
        context = httpx.create_ssl_context()  # certifi's roots, or SSL_CERT_FILE / SSL_CERT_DIR when set
        super().__init__(verify=context, retries=0)
        if not isinstance(getattr(self, "_pool", None), httpcore.ConnectionPool):
            raise RuntimeError("httpx.HTTPTransport no longer keeps its pool in _pool: PinnedTransport needs a look")
        self._pool = httpcore.ConnectionPool(ssl_context=context, max_connections=1, retries=0, network_backend=backend)


# --- the post --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    status: int
    location: str  # a redirect's target, reported, never followed
    head: bytes  # the start of the body, READ_CAP bytes at most

    @property
    def is_redirect(self) -> bool:
        return 300 <= self.status < 400

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300


def post(url: str, body: bytes, headers: dict[str, str], *, timeout: float, allow_private: bool) -> Answer:
    """POST `body` to `url` by the rules above. Raises Refused (not posted), httpx.HTTPError (no answer: could not
    connect, TLS failed, too slow) or returns the receiver's answer (whatever its status: the caller judges)."""
    deadline = Deadline(timeout)
    host, port = target(url, allow_private=allow_private)
    addresses = checked_addresses(host, port, allow_private=allow_private)
    transport = PinnedTransport(PinnedBackend(host, addresses, deadline))
    headers = {"User-Agent": USER_AGENT, "Accept-Encoding": "identity", **headers}
    with (
        httpx.Client(transport=transport, timeout=timeout, follow_redirects=False, trust_env=False) as client,
        client.stream("POST", url, content=body, headers=headers) as response,
    ):
        head = b""
        for chunk in response.iter_raw():
            head += chunk
            if len(head) >= READ_CAP:
                break
        return Answer(response.status_code, response.headers.get("location", ""), head[:READ_CAP])
