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

Public fragments (the server's work per result must not grow with the number of watchers). Where what a
group's page shows is the same for every viewer allowed to watch it (the public bracket), a refetch per open page
was 1,000 GETs per result at 1,000 watchers. Such a kind registers a fragment builder:

    register_fragment("flight", build)   # build(pk, variant) -> Fragment(version, {element id: html}) or None

A page that shows such a region says so when it connects (`fragments=flight-3:en.0:17`: group, variant, the version
it shows). On a push each uvicorn process builds the fragment once per (group, variant, push) - the builder reads it
from the shared cache, rendered once per version - encodes the message once, and every socket of the group that
asked for it gets the same text: `{"type": "fragment", "group", "version", "regions"}`, only when newer than what
that socket shows. Every other socket keeps "changed" + refetch.

A result changes a slot or two of a bracket of tens of kB, and each socket's compression of the whole region was
what grew with the watchers. So a process keeps the last version of each region it built, split into its parts
(base.htmlparts: the region's outermost descendants with an id); when the next version has the same skeleton, a
socket that shows that last version is sent only the parts that changed, `{"type": "fragment", "group",
"version", "base": <the version they apply to>, "patches": {region id: {part id: html}}}`, and a socket showing
anything else the whole region. The patch is built and encoded once per process and push, like the region.

A page that (re)connects names the versions it shows; the socket answers with the fragment of each group whose
version is newer, then `joined` lists, per group it holds current, the region ids that are now up to date
(`"fragments": {"flight-3": ["live-bracket"]}`), so a page back after an outage refetches only what no fragment
covers. Sockets of one process connecting within CONNECT_GATHER_SECONDS of each other share one build (a
restarted node's thousand pages coming back cost a handful of builds, not a thousand GETs).
"""

import asyncio
import json
import logging
import re
import threading
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import cache
from urllib.parse import parse_qs

from asgiref.sync import async_to_sync
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer
from django.db import transaction
from redis import Redis, RedisError
from redis.asyncio import BlockingConnectionPool
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from base import htmlparts

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


@dataclass(frozen=True)
class Fragment:
    """What a public group's page shows, the same for every viewer: its regions' outer HTML by element id, and/or
    `data` for a page script that draws it itself (the Calcutta board's JSON, as its API answers), at `version`
    (monotonic per group: a page ignores a fragment no newer than the one it shows)."""

    version: int
    regions: dict[str, str]
    data: dict | None = None

    @property
    def every_push(self) -> bool:
        """Data is sent with every push, even at the version a page shows: the version orders what is drawn (a
        Calcutta's step) but a write may change the data without a new one (a settlement, a lot's finish)."""
        return self.data is not None


_fragments: dict[str, Callable[[int, str], Fragment | None]] = {}
# A page's variant of a fragment (language, projector view: whatever the kind's builder reads) and version.
FRAGMENT_ASKED = re.compile(r"^([a-z]+-[0-9]{1,18}):([A-Za-z0-9._-]{1,32}):([0-9]{1,18})$")
# How long a process keeps a push's built fragment for the sockets still to be sent it.
FRAGMENT_MEMO_SECONDS = 30
# Sockets connecting within this window share the build of their fragment's current version; the build starts
# when the window closes, after every sharing socket has joined its group (a change committed before a socket
# joined is then in the build, one committed after it is pushed to the socket).
CONNECT_GATHER_SECONDS = 0.05
# Regions a process keeps split (the last version built of each group and variant) to patch the next one from.
LAST_BUILT_KEPT = 256


def register_fragment(kind: str, build: Callable[[int, str], Fragment | None]) -> None:
    """Say that groups `<kind>-<id>` have a public fragment: build(id, variant) -> Fragment, or None when there is
    none to send (the page refetches). Only for regions that are the same for everyone who may join the group."""
    _fragments[kind] = build


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
    board). Which do is asked first, in one round trip from this thread (`_watched`, from the record
    WatchingRedisLayer keeps); only those go through the layer's group_send, which asks the layer and sends.
    Before, every group cost two round trips on the server's event loop, whose thread competes with every request
    of the process for the interpreter lock: with no page open, report + confirm under load answered 61 req/s with
    its pushes and 69 without them."""
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

    push = uuid.uuid4().hex  # one build of a public fragment per process and push (live_fragment)

    async def send() -> None:
        gate = asyncio.Semaphore(SEND_AT_ONCE)

        async def one(name: str) -> None:
            async with gate:
                await layer.group_send(name, _changed(name, push))

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
    """The groups with a socket in them, from the project's own record of who watches what (WatchingRedisLayer),
    asked in one pipelined round trip: drop the records older than the layer's group expiry (the sockets that went
    away without a goodbye, as the layer itself forgets them), then count the rest, for every group at once. Any
    other layer (in memory, or a Redis layer that keeps no record) is not asked: every group counts as watched."""
    if not isinstance(layer, WatchingRedisLayer) or layer.watch_address is None:
        return names
    expired = int(time.time()) - layer.watch_expiry
    pipe = _client(layer.watch_address).pipeline(transaction=False)
    for name in names:
        key = layer.watch_key(name)
        pipe.zremrangebyscore(key, 0, expired)
        pipe.zcard(key)
    answers = pipe.execute()
    return [name for name, count in zip(names, answers[1::2], strict=True) if count]


class WatchingRedisLayer(RedisChannelLayer):
    """channels_redis' layer that also records, in keys of the project's own, which channels watch each group: the
    record `send_all` asks before it sends, so a push to a group nobody watches costs nothing but that one question.

    Why its own record: the layer's group members live under keys whose names and expiry are the layer's private
    business (`_group_key`, `group_expiry`); reading them broke with any change of channels_redis. This class only
    overrides the public methods every join, leave and receive goes through (and `create_pool`, the layer's own
    hook for its pool), and keeps what it needs from its own constructor's arguments. The record is written when a
    socket joins (`group_add`) and removed when it leaves (`group_discard`), with the same expiry as the layer's
    membership, so both forget a socket that went away without a goodbye at the same time. It is kept only for a
    single Redis given by its address (one `hosts` entry, a URL or {"address": URL, ...options}); with several
    hosts or a sentinel there is no record and every group counts as watched, as before.

    Under load (measured: uvicorn, 3 workers, 2 cores, 200-2,000 open pages) the stock layer dropped sockets twice
    over, and both are fixed here or in the settings:
    - redis-py's default 5 s read timeout raced the layer's 5 s blocking read (BZPOPMIN, `brpop_timeout`): a busy
      server closed 3-9 sockets per run with "Timeout reading". The settings give the hosts entry a socket_timeout
      well above the blocking read's, and a receive that still times out is tried again (`receive`).
    - 1,000-2,000 sockets closing at once each asked the per-event-loop pool (100 connections) for one to leave its
      group, and the stock pool refuses at once when all are in use ("Too many connections", 484-1,608 of them):
      those members stayed until the group expired and were still sent to. Here the pool is a blocking one: a
      burst waits its turn, up to `connection_wait` seconds (`create_pool`), and a leave is tried again on a
      connection fault (`group_discard`)."""

    def __init__(self, hosts=None, prefix="asgi", group_expiry=86400, connection_wait=10.0, **kwargs) -> None:
        super().__init__(hosts=hosts, prefix=prefix, group_expiry=group_expiry, **kwargs)
        self.watch_address = _single_address(hosts)
        self.watch_expiry = int(group_expiry)
        self.watch_prefix = f"{prefix}:watched:"
        self.connection_wait = connection_wait

    def watch_key(self, group: str) -> str:
        return f"{self.watch_prefix}{group}"

    def create_pool(self, index):
        """A pool that makes a burst wait for a free connection (BlockingConnectionPool) instead of failing it; the
        hosts entry's own options (max_connections, socket_timeout, ...) are kept. A sentinel or host/port entry
        keeps the stock pool."""
        host = dict(self.hosts[index])
        if "address" not in host:
            return super().create_pool(index)
        return BlockingConnectionPool.from_url(host.pop("address"), timeout=self.connection_wait, **host)

    async def receive(self, channel):
        """The layer's receive, tried again after a read that timed out (Redis or this process busy beyond the
        socket timeout): the message waiting in Redis is safe in the layer's backup queue and is read by the next
        try, so the page's socket stays up. At most RECEIVE_RETRIES times in a row: a Redis that hangs for good
        still ends the socket, and the page polls until it answers. A refused or broken connection is not tried
        again: a Redis that restarted has lost the groups, and only a new socket joins them again."""
        for attempt in range(RECEIVE_RETRIES + 1):
            try:
                return await super().receive(channel)
            except RedisTimeoutError:
                if attempt == RECEIVE_RETRIES:
                    raise
                logger.warning("live socket: a read from the channel layer timed out; trying again")
                await asyncio.sleep(RETRY_PAUSE * (attempt + 1))
        raise AssertionError("unreachable")  # pragma: no cover

    async def group_add(self, group, channel):
        """The record first: a page that joined must be sent to, and if the record fails the join fails before the
        layer counts a member nobody records (the socket ends, the page polls and comes back)."""
        if self.watch_address is not None:
            await asyncio.to_thread(self._record, group, channel, True)
        await super().group_add(group, channel)

    async def group_discard(self, group, channel):
        """The layer's membership, then the record, each tried again on a connection fault: a member left behind is
        sent every push until the group expires."""
        await _again(lambda: super(WatchingRedisLayer, self).group_discard(group, channel))
        if self.watch_address is not None:
            await _again(lambda: asyncio.to_thread(self._record, group, channel, False))

    def _record(self, group: str, channel: str, watching: bool) -> None:
        """On a thread of its own: the synchronous client's pool is shared by the process's threads, and a socket's
        join or leave is rare next to the pushes."""
        client, key = _client(self.watch_address), self.watch_key(group)
        if not watching:
            client.zrem(key, channel)
            return
        pipe = client.pipeline(transaction=False)
        pipe.zadd(key, {channel: int(time.time())})
        pipe.expire(key, self.watch_expiry)
        pipe.execute()


# A receive that timed out is tried this often more, after RETRY_PAUSE, 2 x RETRY_PAUSE, ... seconds; a leave too.
RECEIVE_RETRIES = 3
RETRY_PAUSE = 0.5


async def _again(call: Callable[[], Awaitable]) -> None:
    for attempt in range(RECEIVE_RETRIES + 1):
        try:
            return await call()
        except (RedisConnectionError, RedisTimeoutError):
            if attempt == RECEIVE_RETRIES:
                raise
            await asyncio.sleep(RETRY_PAUSE * (attempt + 1))


def _single_address(hosts) -> str | None:
    if not isinstance(hosts, list | tuple) or len(hosts) != 1:
        return None
    host = hosts[0]
    if isinstance(host, dict):  # only options that change how long to wait, not where or as whom to connect
        host = host.get("address") if set(host) <= {"address", *_TUNING} else None
    return host if isinstance(host, str) else None


_TUNING = ("socket_timeout", "socket_connect_timeout", "socket_keepalive", "health_check_interval", "max_connections")


@cache
def _client(address: str) -> Redis:
    """One synchronous client per process and address; its pool is thread-safe and renews itself after a fork.
    Short timeouts: a Redis that does not answer costs a request at most a second, never its commit."""
    return Redis.from_url(address, socket_connect_timeout=1, socket_timeout=1)


def _changed(name: str, push: str = "") -> dict:
    return {"type": "live.changed", "group": name, "push": push}


@dataclass(frozen=True)
class Built:
    """A fragment as a process sends it: its version, the encoded message, its region ids, and whether it goes
    with every push (Fragment.every_push) or only when newer than what a page shows."""

    version: int
    text: str
    regions: list[str]
    every_push: bool
    patch_base: int | None = None  # the version the patch applies to, when there is one
    patch_text: str = ""

    def for_page(self, shown: int) -> bool:
        return self.version > shown or (self.every_push and self.version == shown)

    def text_for(self, shown: int) -> str:
        """The message for a page that shows version `shown`: the changed parts when it shows the version they
        apply to, else the whole region."""
        return self.patch_text if self.patch_base is not None and shown == self.patch_base else self.text


_built: dict[tuple, asyncio.Task] = {}


async def live_fragment(name: str, variant: str, push: str) -> Built | None:
    """The fragment of group `name` in `variant` for this push, encoded, or None (no fragment: the page
    refetches). Built once per event loop (a uvicorn process), variant and push: the
    first socket of the push starts the build as a task of its own (a socket closing meanwhile does not cancel it),
    every other socket awaits the same task, so 1,000 sockets in a process cost one cache read and one json.dumps."""
    loop = asyncio.get_running_loop()
    key = (id(loop), name, variant, push)
    task = _built.get(key)
    if task is None or task.get_loop() is not loop:  # an id of a closed loop may come again (tests make many)
        task = loop.create_task(_build_fragment(name, variant))
        _built[key] = task
        loop.call_later(FRAGMENT_MEMO_SECONDS, _built.pop, key, None)
    if task.done():  # built: every socket but the first few (a shield per socket cost a future and two callbacks)
        return task.result()
    return await asyncio.shield(task)


_gathering: dict[tuple, asyncio.Task] = {}


async def current_fragment(name: str, variant: str) -> Built | None:
    """The fragment as it stands now, for a socket that has just joined `name`: sockets of this process asking
    within CONNECT_GATHER_SECONDS share one build, which starts only once the window has closed (so after each
    of them joined)."""
    loop = asyncio.get_running_loop()
    key = (id(loop), name, variant)
    task = _gathering.get(key)
    if task is None or task.get_loop() is not loop:  # a loop closed mid-window left its entry behind
        task = loop.create_task(_gather_then_build(key, name, variant))
        _gathering[key] = task
    return await asyncio.shield(task)


async def _gather_then_build(key: tuple, name: str, variant: str) -> Built | None:
    await asyncio.sleep(CONNECT_GATHER_SECONDS)
    _gathering.pop(key, None)  # a socket joining from now on opens a window of its own
    return await _build_fragment(name, variant)


async def _build_fragment(name: str, variant: str) -> Built | None:
    kind, _, pk = name.partition("-")
    build = _fragments.get(kind)
    if build is None:
        return None
    try:
        fragment = await database_sync_to_async(build)(int(pk), variant)
    except Exception:  # noqa: BLE001 - a page without its fragment refetches, as before
        logger.warning("live fragment of %s (%s) failed", name, variant, exc_info=True)
        return None
    if fragment is None:
        return None
    message = {"type": "fragment", "group": name, "version": fragment.version, "regions": fragment.regions}
    if fragment.data is not None:
        message["data"] = fragment.data
        return Built(fragment.version, json.dumps(message), sorted(fragment.regions), fragment.every_push)
    text = json.dumps(message)
    base, patches = await asyncio.to_thread(_patches, (asyncio.get_running_loop(), name, variant), fragment)
    patch_text = ""
    if patches is not None:
        patch = {"type": "fragment", "group": name, "version": fragment.version, "base": base, "patches": patches}
        patch_text = json.dumps(patch)
        if len(patch_text) * 5 > len(text) * 4:  # most of the region changed: the whole of it is as cheap
            base, patch_text = None, ""
    return Built(fragment.version, text, sorted(fragment.regions), fragment.every_push, base, patch_text)


# (event loop, group, variant) -> (version, its regions split); the loop itself, not its id, which a closed loop's
# successor may get again (the tests make many).
_last_built: dict[tuple, tuple[int, dict[str, htmlparts.Split | None]]] = {}
_last_built_lock = threading.Lock()


def _patches(key: tuple, fragment: Fragment) -> tuple[int | None, dict | None]:
    """(the version the patch applies to, {region id: {part id: html}}) of this fragment against the last version
    this process built of the same group and variant, or (None, None) when there is no patch (none kept, an older
    or the same version, a skeleton that changed). Keeps the fragment's split for the next one."""
    with _last_built_lock:
        last = _last_built.get(key)
    if last is not None and last[0] >= fragment.version:  # the same version built again (pages connecting): no split
        return None, None
    splits = {region: htmlparts.split(html) for region, html in fragment.regions.items()}
    with _last_built_lock:
        last = _last_built.get(key)
        if last is None or last[0] < fragment.version:
            _last_built.pop(key, None)
            _last_built[key] = (fragment.version, splits)  # re-inserted: the oldest key is the least recent
            while len(_last_built) > LAST_BUILT_KEPT:
                _last_built.pop(next(iter(_last_built)))
    if last is None or last[0] >= fragment.version or set(last[1]) != set(splits):
        return None, None
    patches = {}
    for region, split in splits.items():
        parts = htmlparts.changed_parts(last[1][region], split)
        if parts is None:
            return None, None
        patches[region] = parts
    return last[0], patches


def requested_fragments(query_string: bytes) -> dict[str, list]:
    """The fragments a page asked for: group -> [variant, the version it shows]; malformed entries are ignored."""
    values = parse_qs(query_string.decode("latin-1")).get("fragments", [])
    asked = {}
    for value in values:
        for item in value.split(","):
            match = FRAGMENT_ASKED.match(item.strip())
            if match and len(asked) < MAX_GROUPS:
                asked[match.group(1)] = [match.group(2), int(match.group(3))]
    return asked


class _Watched:
    """A group's sockets in one process, and the lock that keeps its joining and leaving the layer in order."""

    def __init__(self) -> None:
        self.sockets: set[LiveConsumer] = set()
        self.lock = asyncio.Lock()
        self.waiting = 0  # joins and leaves queued on the lock: the record stays while any is
        self.told = 0.0  # when the layer last heard this process joined (monotonic)


class _Hub:
    """The live sockets of one process (one event loop) and the groups they watch, with ONE channel of the layer:
    the layer counts the process as the group's member once, whatever the number of its sockets, and a push
    reaches the process as one message, which the hub hands to each of its sockets in the group.

    Why: with every socket a member, channels_redis sent a group's push to a process as one message naming all
    its sockets, then put a copy in each socket's queue, and each socket's own reading loop woke, made its next
    read a task and waited on it again: with 2,000 pages that machinery, per socket and push, was most of what
    the socket process did besides the sends themselves. The sockets now have no channel of their own.

    The hub reads only while it has a group: the first join starts its reader (on a new channel), the last leave
    stops it and waits until it has stopped, as channels stops a consumer's own reader when its socket closes. So
    a hub never outlives its sockets: an event loop whose sockets have all closed has nothing of the hub left on
    it (tests run many loops one after another on one layer, and channels_redis lets one loop at a time receive).

    The layer hears a join when a group gets its first socket here, and again at least every third of its group
    expiry (a process watching a group for a day stays a member); it hears the leave when the last socket goes.
    If the layer stops answering, every socket of the hub is closed: their pages poll, reconnect and refetch what
    they missed, as when each socket read for itself."""

    def __init__(self, layer, loop: asyncio.AbstractEventLoop) -> None:
        self.layer, self.loop = layer, loop
        self.groups: dict[str, _Watched] = {}
        self.channel: str | None = None
        self.readers: list[asyncio.Task] = []  # the reader and the renewal, while the hub has a group
        self.starting = asyncio.Lock()  # starting and stopping the reader, one at a time
        self.tasks: set[asyncio.Task] = set()  # pushes being handed to sockets
        self.dead = False
        self.refresh = max(1.0, float(getattr(layer, "group_expiry", 86400)) / 3)

    async def _start(self) -> str:
        """The channel the hub reads, starting the reader if it is not running."""
        async with self.starting:
            if not self.readers:
                self.channel = await self.layer.new_channel("live.")
                self.readers = [self.loop.create_task(work) for work in (self._read(self.channel), self._refresh())]
            assert self.channel is not None
            return self.channel

    async def _stop_reading(self) -> None:
        """The last group is gone: stop the reader and the renewal, and wait until they have stopped (a receive
        cancelled on its own loop, as channels does for a consumer's reader)."""
        async with self.starting:
            if self.groups or not self.readers:
                return  # a join came in meanwhile: it reads on
            readers, self.readers, self.channel = self.readers, [], None
            for task in readers:
                task.cancel()
            await asyncio.gather(*readers, return_exceptions=True)

    def _keep(self, task: asyncio.Task) -> None:
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def join(self, socket: "LiveConsumer", name: str) -> None:
        watched = self.groups.setdefault(name, _Watched())
        watched.waiting += 1
        try:
            async with watched.lock:
                if self.dead:
                    raise RedisConnectionError("the live pushes of this process stopped")
                channel = await self._start()
                if not watched.sockets or time.monotonic() - watched.told > self.refresh:
                    await self.layer.group_add(name, channel)
                    watched.told = time.monotonic()
                watched.sockets.add(socket)
        finally:
            watched.waiting -= 1
            await self._forget_if_empty(name, watched)

    async def leave(self, socket: "LiveConsumer", name: str) -> None:
        watched = self.groups.get(name)
        if watched is None or socket not in watched.sockets:
            return
        watched.waiting += 1
        try:
            async with watched.lock:
                watched.sockets.discard(socket)
                if not watched.sockets and not self.dead and self.channel is not None:
                    await self.layer.group_discard(name, self.channel)
        finally:
            watched.waiting -= 1
            await self._forget_if_empty(name, watched)

    async def _forget_if_empty(self, name: str, watched: _Watched) -> None:
        if not watched.sockets and not watched.waiting and self.groups.get(name) is watched:
            del self.groups[name]
            if not self.groups:
                await self._stop_reading()

    async def _read(self, channel: str) -> None:
        try:
            while True:
                message = await self.layer.receive(channel)
                watched = self.groups.get(message.get("group", ""))
                for socket in list(watched.sockets) if watched else ():
                    socket.deliver(message)
        except (RedisError, OSError) as error:
            logger.warning("live pushes stopped: the channel layer does not answer (%s)", type(error).__name__)
            self._keep(self.loop.create_task(self._stop()))

    async def _refresh(self) -> None:
        while not self.dead:
            await asyncio.sleep(self.refresh / 2)
            for name, watched in list(self.groups.items()):
                if watched.sockets and self.channel and time.monotonic() - watched.told > self.refresh / 2:
                    try:
                        await self.layer.group_add(name, self.channel)
                        watched.told = time.monotonic()
                    except RedisError as error:
                        logger.warning("live group %s not renewed (%s)", name, type(error).__name__)

    async def _stop(self) -> None:
        """Close every socket: its page reconnects to a hub of its own (or polls while the layer is away)."""
        self.dead = True
        if _hubs.get(self.loop) is self:
            del _hubs[self.loop]
        readers, self.readers = self.readers, []
        for task in readers:
            task.cancel()
        await forget_connections(self.layer)
        sockets = {socket for watched in self.groups.values() for socket in watched.sockets}
        for socket in sockets:
            try:
                await socket.close()
            except Exception:  # noqa: BLE001 - a socket already gone
                logger.debug("live socket already closed", exc_info=True)


async def forget_connections(layer) -> None:
    """Close every connection the layer holds: after Redis went away, the next hub must start on new ones. A pooled
    connection from before the outage could take a command and never answer (seen after a restart: a socket's join
    waited on it for good, and with it the page, which stayed off). Bounded: the layer waits for its receive
    clean-ups first, which a Redis that does not answer would hold up."""
    close = getattr(layer, "close_pools", None)
    if close is None:
        return
    try:
        await asyncio.wait_for(close(), FORGET_SECONDS)
    except Exception as error:  # noqa: BLE001 - best effort: the sockets are closed next whatever happens here
        logger.warning("live: the channel layer's connections were not all closed (%s)", type(error).__name__)


FORGET_SECONDS = 2

# event loop -> its hub (one per process and channel layer; tests make many loops and layers)
_hubs: dict[asyncio.AbstractEventLoop, _Hub] = {}


async def _hub() -> _Hub:
    loop, layer = asyncio.get_running_loop(), get_channel_layer()
    hub = _hubs.get(loop)
    if hub is None or hub.layer is not layer or hub.dead:
        hub = _hubs[loop] = _Hub(layer, loop)
        for old in [key for key in _hubs if key.is_closed()]:
            del _hubs[old]
    return hub


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


class LiveConsumer(AsyncJsonWebsocketConsumer):
    """One socket per page: `/ws/live/?groups=flight-3,user-5`. Answers {"type": "joined", "groups": [...],
    "refused": [...], "fragments": {group: [region ids current]}} once (after the fragments newer than the page's),
    then {"type": "changed", "group": name} or a fragment for every change. Pushes come through the process's
    hub (_Hub), so the socket has no channel of the layer of its own."""

    channel_layer_alias = None  # no channel of its own: the hub reads the process's one

    async def __call__(self, scope, receive, send):
        """While Redis is away, a socket cannot join its groups (a page asking) nor hear them (a page open when it
        went): the socket ends, refused or closed, with one line in the log instead of a traceback for every page's
        every try. The page polls meanwhile and comes back within a few seconds of Redis, refetching once what it
        missed (js/live.js)."""
        try:
            await super().__call__(scope, receive, send)
        except (RedisError, OSError) as error:
            logger.warning("live socket ended: the channel layer does not answer (%s)", type(error).__name__)

    async def dispatch(self, message):
        """The handler for the message, without the thread hop channels makes before every message to close old
        database connections: with 2,000 pages open that hop (a worker thread, the context copied there and back)
        was the largest part of the socket process's work per push, once per socket. This consumer touches the
        database only through database_sync_to_async (the join check, a fragment's build), which closes old
        connections on its own thread around each call."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self):
        requested = _requested_groups(self.scope.get("query_string", b""))
        user = self.scope.get("user")
        joined, refused = await _check(user, requested)
        self.pending: list[dict] | None = []  # pushes that arrive before "joined" has gone: sent after it
        self.hub, self.joined = await _hub(), []
        try:
            for name in joined:
                await self.hub.join(self, name)
                self.joined.append(name)
        except BaseException:  # the layer went away mid-join: the socket ends, leaving nothing behind in the hub
            await self.disconnect(None)
            raise
        await self.accept()
        current = await self._send_current_fragments(joined)
        await self.send_json({"type": "joined", "groups": joined, "refused": refused, "fragments": current})
        pending, self.pending = self.pending, None
        for event in pending:
            await self.live_changed(event)

    def deliver(self, event: dict) -> None:
        """A push from the hub: handled on a task of its own (a page slow to read holds up only itself)."""
        if self.pending is not None:
            self.pending.append(event)
            return
        self.hub._keep(self.hub.loop.create_task(self._handle(event)))

    async def _handle(self, event: dict) -> None:
        try:
            await self.live_changed(event)
        except Exception:  # noqa: BLE001 - a socket closing meanwhile; its page reconnects
            logger.debug("live push to a closing socket dropped", exc_info=True)

    async def _send_current_fragments(self, joined: list[str]) -> dict[str, list[str]]:
        """Each asked fragment of a joined group that is newer than the version the page shows is sent now;
        returns group -> the region ids now current on the page (sent or already shown)."""
        self.fragments = requested_fragments(self.scope.get("query_string", b""))
        current = {}
        for name in joined:
            asked = self.fragments.get(name)
            if asked is None or name.partition("-")[0] not in _fragments:
                continue
            built = await current_fragment(name, asked[0])
            if built is None:
                continue
            if built.for_page(asked[1]):
                text = built.text_for(asked[1])
                asked[1] = built.version
                await self.send(text_data=text)
            current[name] = built.regions
        return current

    async def disconnect(self, code):
        """Leave every group joined, each even if leaving another failed (the layer already tried it again): a
        member left behind is sent every push until its group expires."""
        for name in getattr(self, "joined", []):
            try:
                await self.hub.leave(self, name)
            except RedisError as error:
                logger.warning("live socket could not leave %s (%s)", name, type(error).__name__)

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
        """A public group's page this socket asked a fragment of gets the fragment (built once per process and
        push: live_fragment), and nothing when it is no newer than what the page shows (a report that left the
        bracket as it was); every other page gets "changed" and refetches."""
        name = event["group"]
        if not hasattr(self, "fragments"):
            self.fragments = requested_fragments(self.scope.get("query_string", b""))
        asked = self.fragments.get(name)
        built = None
        if asked is not None and name.partition("-")[0] in _fragments:
            built = await live_fragment(name, asked[0], event.get("push") or uuid.uuid4().hex)
        if built is None:
            await self.send_json({"type": "changed", "group": name})
            return
        if built.for_page(asked[1]):
            text = built.text_for(asked[1])
            asked[1] = built.version
            await self.send(text_data=text)


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
