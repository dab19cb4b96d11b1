"""Live sockets under load, on a real Redis with the channel layer as the settings configure it (base.live,
WatchingRedisLayer): a socket stays up through a Redis read that waits longer than 5 s, and 1,000 sockets that close
at once leave no member behind in their group.

Measured before (uvicorn, 3 workers, 2 cores): redis-py's default 5 s read timeout raced the layer's 5 s blocking
read and dropped 3-9 sockets per run; 1,000-2,000 sockets closing at once logged 484-1,608 "Too many connections"
and stayed in their group until it expired. Both tests fail on that configuration (the stock pool and timeout)."""

import asyncio
import contextlib
import logging
import threading
import time
import uuid

import pytest
from asgiref.sync import async_to_sync
from channels.layers import DEFAULT_CHANNEL_LAYER, channel_layers
from django.conf import settings
from redis import Redis

from base import live
from tests.conftest import REQUIRE_SERVICES
from tests.core.test_live import Socket
from tests.private_redis import PrivateRedis, worker_port

pytestmark = [pytest.mark.services]

KIND = "sockettest"  # a group kind of these tests' own, open to anyone
# One port per pytest-xdist worker: this Redis is slowed down on purpose, and must not be another test's.
PORT = worker_port(6410)


def site_layer(monkeypatch, address: str | None = None) -> live.WatchingRedisLayer:
    """The layer exactly as the settings configure it (on `address` if given), with a prefix of this test's own,
    installed as the site's; a group kind anyone may join."""
    config = settings.CHANNEL_LAYERS["default"]
    if config["BACKEND"] != "base.live.WatchingRedisLayer":
        reason = "needs CHANNEL_LAYER_URL=redis://...: these tests measure the Redis channel layer"
        (pytest.fail if REQUIRE_SERVICES else pytest.skip)(reason)
    options = {**config["CONFIG"], "prefix": f"t{uuid.uuid4().hex[:8]}"}
    if address is not None:
        options["hosts"] = [{**options["hosts"][0], "address": address}]
    layer = live.WatchingRedisLayer(**options)
    monkeypatch.setitem(channel_layers.backends, DEFAULT_CHANNEL_LAYER, layer)
    monkeypatch.setitem(live._rules, KIND, lambda user, pk: True)
    return layer


@pytest.fixture
def slow_redis():
    """A Redis of this test's own that the test may put to sleep (DEBUG SLEEP), stopped after it."""
    redis = PrivateRedis(PORT, "--enable-debug-command", "local")
    if redis.up():  # one left by an interrupted run, perhaps without the debug command: a fresh one
        redis.stop()
    redis.start()
    yield redis.client
    redis.stop()


def test_a_socket_stays_up_through_a_redis_read_that_waits_longer_than_five_seconds(monkeypatch, slow_redis, caplog):
    """The socket waits for pushes in a 5 s blocking read; Redis stalls for 6 s in the middle of it (as a busy
    server does), so the read's answer comes after more than 5 s. The socket stays open, the push sent after the
    stall arrives, and a ping still gets its pong."""
    caplog.set_level(logging.WARNING, logger="base.live")
    layer = site_layer(monkeypatch, f"redis://127.0.0.1:{PORT}/0")
    group = f"{KIND}-1"

    def stall():
        Redis(host="127.0.0.1", port=PORT, socket_timeout=30).execute_command("DEBUG", "SLEEP", "6")

    async def run():
        socket = Socket(f"/ws/live/?groups={group}")
        assert await socket.connect()
        assert (await socket.receive_json_from())["groups"] == [group]
        await asyncio.sleep(1)  # the socket's blocking read is under way
        started = time.monotonic()
        sleeper = threading.Thread(target=stall)
        sleeper.start()
        await asyncio.to_thread(sleeper.join)
        assert time.monotonic() - started > 5.5
        await layer.group_send(group, {"type": "live.changed", "group": group})
        changed = await socket.receive_json_from(timeout=20)
        await socket.send_input({"type": "websocket.receive", "text": '{"type": "ping"}'})
        pong = await socket.receive_json_from()
        await socket.disconnect()
        await layer.close_pools()
        return changed, pong

    changed, pong = async_to_sync(run)()
    assert changed == {"type": "changed", "group": group}
    assert pong == {"type": "pong"}
    assert "live socket ended" not in caplog.text


def test_a_thousand_sockets_closing_at_once_leave_no_member_in_their_group(monkeypatch, caplog):
    """1,000 sockets of one process join one group: the layer counts the process once (its hub's channel), not each
    socket. Then all close at the same moment: afterwards the group has no member, neither in the layer's own
    membership nor in the record of who watches, and nothing failed."""
    caplog.set_level(logging.WARNING, logger="base.live")
    layer = site_layer(monkeypatch)
    group, count = f"{KIND}-2", 1000
    client = live._client(layer.watch_address)
    members, watching = layer._group_key(group), layer.watch_key(group)  # the layer's key: read here only

    async def run():
        sockets = [Socket(f"/ws/live/?groups={group}") for _ in range(count)]
        for socket in sockets:
            await socket.send_input({"type": "websocket.connect"})
        answers = await asyncio.gather(*(s.receive_output(30) for s in sockets))
        assert {a["type"] for a in answers} == {"websocket.accept"}
        joined = await asyncio.gather(*(s.receive_json_from(30) for s in sockets))
        assert all(j["groups"] == [group] for j in joined)
        assert (client.zcard(members), client.zcard(watching)) == (1, 1)  # one process, one member
        for socket in sockets:
            await socket.send_input({"type": "websocket.disconnect", "code": 1001})
        started = time.monotonic()
        while (client.zcard(members), client.zcard(watching)) != (0, 0) and time.monotonic() - started < 20:
            await asyncio.sleep(0.1)
        took = time.monotonic() - started
        await asyncio.sleep(0.5)  # what is still closing has its say
        left = (client.zcard(members), client.zcard(watching))
        # channels_redis may keep the one consumer that held its receive lock reading until the next message or
        # its 5 s read ends (a cancellation it outlives); it already left its group, and is stopped here.
        await asyncio.gather(*(s.wait(1) for s in sockets))
        await layer.close_pools()
        return left, took

    left, took = async_to_sync(run)()
    assert left == (0, 0)
    assert "live socket" not in caplog.text, caplog.text[:2000]
    assert took < 15


def test_when_redis_goes_away_every_open_socket_is_closed_and_a_new_one_hears_pushes_once_it_is_back(
    monkeypatch, slow_redis, caplog
):
    """The process's sockets hear their groups through one reader (base.live's hub). When Redis stops, that reader
    fails, and every socket of the process is closed, so each page reconnects and refetches what it missed,
    instead of staying open and deaf; with Redis back, a new socket joins and hears the next push.

    The connections the layer held before the outage are closed with the hub, so the new socket joins on a new
    client: a pooled connection from before a restart once took a join's command and never answered, and the page
    stayed off (a browser test under load, every time)."""
    caplog.set_level(logging.WARNING, logger="base.live")
    address = f"redis://127.0.0.1:{PORT}/0"
    layer = site_layer(monkeypatch, address)
    redis = PrivateRedis(PORT, "--enable-debug-command", "local")

    async def run():
        sockets = [Socket(f"/ws/live/?groups={KIND}-{n % 2 + 1}") for n in range(4)]
        for socket in sockets:
            assert await socket.connect()
            await socket.receive_json_from()  # joined
        before = layer.connection(0)
        await asyncio.to_thread(redis.stop)
        closed = await asyncio.gather(*(s.receive_output(20) for s in sockets))
        renewed = layer.connection(0) is not before
        await asyncio.to_thread(redis.start)
        for _ in range(50):  # the layer's pool reconnects on its own; a refused socket's page tries again
            again = Socket(f"/ws/live/?groups={KIND}-1")
            with contextlib.suppress(TimeoutError):  # refused: the consumer ended without an answer
                if await again.connect():
                    break
            await asyncio.sleep(0.2)
        await again.receive_json_from()
        await layer.group_send(f"{KIND}-1", {"type": "live.changed", "group": f"{KIND}-1"})
        heard = await again.receive_json_from(timeout=10)
        await again.disconnect()
        await layer.close_pools()
        return closed, renewed, heard

    closed, renewed, heard = async_to_sync(run)()
    assert [answer["type"] for answer in closed] == ["websocket.close"] * 4
    assert renewed, "the layer kept its connections from before the outage"
    assert heard == {"type": "changed", "group": f"{KIND}-1"}
    assert "live pushes stopped" in caplog.text


def test_a_hub_reads_only_while_it_has_sockets_so_nothing_of_it_outlives_them(monkeypatch):
    """The process's one reader (base.live's hub) starts with the first socket and stops with the last: once every
    socket of an event loop has closed, nothing of the hub is left receiving on the layer (channels_redis lets one
    event loop at a time receive on a layer; a reader left behind on a finished loop would refuse every later
    loop's). A socket opened afterwards starts a new reader and hears the next push."""
    layer = site_layer(monkeypatch)

    async def run():
        sockets = [Socket(f"/ws/live/?groups={KIND}-{n % 2 + 1}") for n in range(3)]
        for socket in sockets:
            assert await socket.connect()
            await socket.receive_json_from()  # joined
        hub = live._hubs[asyncio.get_running_loop()]
        reading = (len(hub.readers), sorted(hub.groups), layer.receive_count)
        for socket in sockets:
            await socket.disconnect()
        stopped = (hub.readers, hub.groups, hub.channel, layer.receive_count)
        again = Socket(f"/ws/live/?groups={KIND}-1")
        assert await again.connect()
        await again.receive_json_from()
        await layer.group_send(f"{KIND}-1", {"type": "live.changed", "group": f"{KIND}-1"})
        heard = await again.receive_json_from(timeout=5)
        await again.disconnect()
        await layer.close_pools()
        return reading, stopped, heard

    reading, stopped, heard = async_to_sync(run)()
    assert reading == (2, [f"{KIND}-1", f"{KIND}-2"], 1)  # one reader (and its renewal) for both groups
    assert stopped == ([], {}, None, 0)
    assert heard == {"type": "changed", "group": f"{KIND}-1"}
