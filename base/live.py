"""Live pages: tell every open browser that something it shows has changed.

Why: a tournament day has many screens on one state (the public bracket, the director's dashboard, each
player's "my next match", the Calcutta board, the chouette table). Polling each of them every few seconds is
slow to show a result and wasteful; instead a service says `notify_group("flight-7")` and, after its
transaction commits, every page subscribed to that group gets a tiny `{"type": "changed", "group": ...}` over
a websocket and refetches its own fragment over HTTP. No data and no HTML travel in the socket, so the same
permission checks as for a reload apply to what is shown.

Groups are named `<kind>-<id>` (flight-3, event-2, user-5, calcutta-1, chouette-4, record-9, batch-2). Each
app says who may join its kinds in a `live.py` module of its own (loaded by BaseConfig.ready, so base imports
no app), where it also hooks its writes to notify_group:

    from base.live import register_group
    register_group("flight", lambda user, pk: visible_flights(user=user).filter(pk=pk).exists())

A socket joins only the groups the rule allows; an unknown kind is refused.
"""

import asyncio
import logging
import re
import threading
import time
from collections.abc import Callable
from functools import cache
from urllib.parse import parse_qs

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import get_channel_layer
from django.db import transaction
from redis import Redis, RedisError

logger = logging.getLogger(__name__)

GROUP_NAME = re.compile(r"^([a-z]+)-([0-9]{1,18})$")
MAX_GROUPS = 20  # a page watches a handful; a socket asking for hundreds is not a page
# Pushes of one write in flight at once: the Redis layer's connection pool refused 130 at once ("Too many
# connections" under load), and a handful already hides each round trip behind the others.
SEND_AT_ONCE = 8
# What a page sends is `{"type": "ping"}`: anything much larger or deeper is not a page. Both are checked on the
# raw text before it is decoded, so a message built to exhaust the decoder (a 200,000-deep array raised an
# unhandled RecursionError in json.loads) never reaches it.
MAX_MESSAGE_CHARS = 1024
MAX_MESSAGE_DEPTH = 8
# RFC 6455 close codes: 1003 data the endpoint cannot accept (bytes), 1008 policy violation, 1009 too big.
CLOSE_UNSUPPORTED, CLOSE_POLICY, CLOSE_TOO_BIG = 1003, 1008, 1009

_rules: dict[str, Callable[[object, int], bool]] = {}


def register_group(kind: str, may_join: Callable[[object, int], bool]) -> None:
    """Say who may watch groups `<kind>-<id>`: may_join(user, id) -> bool (user may be anonymous)."""
    _rules[kind] = may_join


def may_join(user, name: str) -> bool:
    """Whether this user may watch this group; unknown kinds and malformed names are refused."""
    match = GROUP_NAME.match(name)
    if not match or match.group(1) not in _rules:
        return False
    return bool(_rules[match.group(1)](user, int(match.group(2))))


def group_name(kind: str, pk) -> str:
    return f"{kind}-{int(pk)}"


def notify_group(*names: str) -> None:
    """Push "changed" to these groups once the current transaction commits (at once outside one).

    Sent after commit so a page never refetches state that is still invisible to it (or rolled back). All the
    names of one transaction go out together (send_all): a result tells a flight's page, its event's dashboard and
    every entrant's own pages, 130 groups for a 128-player flight, and one Redis round trip after another took
    870 ms of the confirming request. A later call in the same transaction adds its names to the push already
    waiting (a confirmation tells both players' pages from match play and again from the bracket): one send, each
    group once. A push waiting from a savepoint is only dropped with a rollback that drops this call's writes too,
    so nothing is lost; at worst a page refetches once for a change rolled back."""
    unique = list(dict.fromkeys(names))
    if not unique:
        return
    connection = transaction.get_connection()
    if connection.in_atomic_block:
        for _savepoints, callback, *_robust in connection.run_on_commit:
            if isinstance(callback, _Push):
                callback.add(unique)
                return
    transaction.on_commit(_Push(unique))


class _Push:
    """The groups one transaction tells, sent in one go once it commits."""

    def __init__(self, names: list[str]) -> None:
        self.names = dict.fromkeys(names)

    def add(self, names: list[str]) -> None:
        self.names.update(dict.fromkeys(names))

    def __call__(self) -> None:
        send_all(list(self.names))


def send_all(names: list[str]) -> None:
    """Send "changed" to every group that has a socket in it, at once, concurrently on one event loop. A layer
    that is down must never fail the write that already committed: pages still show the truth on a reload, and the
    fallback poll picks it up.

    Most groups a write tells have no page open at that moment (a player's own pages while they sit at the
    board). Which do is asked first, in one round trip from this thread (`_watched`); only those go through the
    layer's group_send, which asks again and sends. Before, every group cost two round trips on the server's event
    loop, whose thread competes with every request of the process for the interpreter lock: with no page open,
    report + confirm under load answered 61 req/s with its pushes and 69 without them."""
    layer = get_channel_layer()
    if layer is None or not names:
        return
    try:
        watched = _watched(layer, names)
    except RedisError:
        logger.warning("live push to %d groups failed", len(names), exc_info=True)
        return
    if not watched:
        return

    async def send() -> None:
        gate = asyncio.Semaphore(SEND_AT_ONCE)

        async def one(name: str) -> None:
            async with gate:
                await layer.group_send(name, _changed(name))

        sent = await asyncio.gather(*(one(n) for n in watched), return_exceptions=True)
        failed = [(n, r) for n, r in zip(watched, sent, strict=True) if isinstance(r, BaseException)]
        for name, error in failed[:3]:
            logger.warning("live push to %s failed (%d of %d failed)", name, len(failed), len(watched), exc_info=error)

    try:
        if _loop_running():  # e.g. a test thread driving a browser: AsyncToSync refuses such a thread
            sender = threading.Thread(target=async_to_sync(send))
            sender.start()
            sender.join()
        else:
            async_to_sync(send)()
    except Exception:  # noqa: BLE001 - a push is best effort; the commit stands
        logger.warning("live push to %d groups failed", len(watched), exc_info=True)


def _watched(layer, names: list[str]) -> list[str]:
    """The groups with a socket in them, asked of the Redis layer in one pipelined round trip: the same two steps
    its group_send starts with (drop members past the group expiry, list the rest), for every group at once. Any
    other layer (in memory, several Redis hosts, a sentinel) is not asked: every group counts as watched."""
    client = _redis_for(layer)
    if client is None:
        return names
    expired = int(time.time()) - layer.group_expiry
    pipe = client.pipeline(transaction=False)
    for name in names:
        key = layer._group_key(name)
        pipe.zremrangebyscore(key, 0, expired)
        pipe.zrange(key, 0, -1)
    answers = pipe.execute()
    return [name for name, members in zip(names, answers[1::2], strict=True) if members]


def _redis_for(layer) -> Redis | None:
    hosts = getattr(layer, "hosts", None)
    if not hasattr(layer, "_group_key") or not isinstance(hosts, list) or len(hosts) != 1:
        return None
    address = hosts[0].get("address") if isinstance(hosts[0], dict) else None
    return _client(address) if isinstance(address, str) and len(hosts[0]) == 1 else None


@cache
def _client(address: str) -> Redis:
    """One synchronous client per process and address; its pool is thread-safe and renews itself after a fork.
    Short timeouts: a Redis that does not answer costs a request at most a second, never its commit."""
    return Redis.from_url(address, socket_connect_timeout=1, socket_timeout=1)


def _changed(name: str) -> dict:
    return {"type": "live.changed", "group": name}


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


class LiveConsumer(AsyncJsonWebsocketConsumer):
    """One socket per page: `/ws/live/?groups=flight-3,user-5`. Answers {"type": "joined", "groups": [...],
    "refused": [...]} once, then {"type": "changed", "group": name} for every change."""

    async def connect(self):
        requested = _requested_groups(self.scope.get("query_string", b""))
        user = self.scope.get("user")
        joined, refused = await _check(user, requested)
        self.joined = joined
        for name in joined:
            await self.channel_layer.group_add(name, self.channel_name)
        await self.accept()
        await self.send_json({"type": "joined", "groups": joined, "refused": refused})

    async def disconnect(self, code):
        for name in getattr(self, "joined", []):
            await self.channel_layer.group_discard(name, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        """Bound what is parsed: a message over MAX_MESSAGE_CHARS, nested deeper than MAX_MESSAGE_DEPTH, not JSON
        or in binary closes this socket with a policy code (logged as one line, no traceback); the page's script
        reconnects, a hostile client only loses its own socket."""
        code, reason = refusal(text_data, bytes_data)
        if code is None:
            try:
                content = await self.decode_json(text_data)
            except ValueError:
                code, reason = CLOSE_POLICY, "not JSON"
            else:
                await self.receive_json(content, **kwargs)
                return
        logger.warning("live socket closed (%s): %s", code, reason)
        await self.close(code=code)

    async def receive_json(self, content, **kwargs):
        """Pages only listen; a ping gets a pong so a client can tell a dead socket from a quiet one."""
        if isinstance(content, dict) and content.get("type") == "ping":
            await self.send_json({"type": "pong"})

    async def live_changed(self, event):
        await self.send_json({"type": "changed", "group": event["group"]})


def refusal(text: str | None, data: bytes | None) -> tuple[int | None, str]:
    """(close code, reason) for a message the socket will not decode, (None, "") for one it will. Linear in the
    message, and only up to MAX_MESSAGE_CHARS: the size is checked first."""
    if text is None:
        return CLOSE_UNSUPPORTED, "binary message" if data is not None else "empty message"
    if len(text) > MAX_MESSAGE_CHARS:
        return CLOSE_TOO_BIG, f"{len(text)} characters, at most {MAX_MESSAGE_CHARS}"
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_MESSAGE_DEPTH:
                return CLOSE_POLICY, f"nested deeper than {MAX_MESSAGE_DEPTH}"
        elif char in "]}":
            depth -= 1
    return None, ""


def _requested_groups(query_string: bytes) -> list[str]:
    values = parse_qs(query_string.decode("latin-1")).get("groups", [])
    names = [name.strip() for value in values for name in value.split(",") if name.strip()]
    return list(dict.fromkeys(names))[:MAX_GROUPS]


@database_sync_to_async
def _check(user, names: list[str]) -> tuple[list[str], list[str]]:
    joined, refused = [], []
    for name in names:
        (joined if may_join(user, name) else refused).append(name)
    return joined, refused


def _is_self(user, pk: int) -> bool:
    return bool(getattr(user, "is_authenticated", False)) and user.pk == pk


register_group("user", _is_self)  # a person's own pages: home, "my next match"
