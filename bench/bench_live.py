"""Live pages: how long a "changed" push takes to reach every one of 200 open sockets watching one group (a full
room on a tournament day with the public bracket open on every phone).

In-process: the real ASGI websocket app (config.asgi, base.live.LiveConsumer) driven by asgiref's communicator,
no server and no browser, with the in-memory channel layer (named in the printed figure), whatever the settings
say. p99 is over every socket's delay in every round."""

import asyncio
import json
import time

from asgiref.testing import ApplicationCommunicator
from channels.layers import InMemoryChannelLayer, channel_layers, get_channel_layer
from channels.routing import URLRouter
from django.contrib.auth.models import AnonymousUser

from base.live import register_group
from config.asgi import websocket_urls

SOCKETS = 200
ROUNDS = 30
GROUP = "benchroom-1"


async def _open(app) -> ApplicationCommunicator:
    scope = {
        "type": "websocket",
        "path": "/ws/live/",
        "query_string": f"groups={GROUP}".encode(),
        "headers": [],
        "subprotocols": [],
        "user": AnonymousUser(),
    }
    socket = ApplicationCommunicator(app, scope)
    await socket.send_input({"type": "websocket.connect"})
    assert (await socket.receive_output(5))["type"] == "websocket.accept"
    joined = json.loads((await socket.receive_output(5))["text"])
    assert joined["groups"] == [GROUP], joined
    return socket


async def _arrival(socket: ApplicationCommunicator, sent: float) -> float:
    await socket.receive_output(5)
    return time.perf_counter() - sent


async def _fanout() -> list[float]:
    app = URLRouter(websocket_urls)
    sockets = [await _open(app) for _ in range(SOCKETS)]
    layer = get_channel_layer()
    delays = []
    for _ in range(ROUNDS):
        sent = time.perf_counter()

        waiting = [asyncio.ensure_future(_arrival(socket, sent)) for socket in sockets]
        await layer.group_send(GROUP, {"type": "live.changed", "group": GROUP})
        delays.extend(await asyncio.gather(*waiting))
    for socket in sockets:
        await socket.send_input({"type": "websocket.disconnect", "code": 1000})
        await socket.wait(5)
    return delays


def main() -> None:
    register_group("benchroom", lambda user, pk: True)  # the bench's own room: no database rows needed
    channel_layers.backends["default"] = InMemoryChannelLayer()  # one process: no server, no Redis
    delays = sorted(asyncio.run(_fanout()))
    p99 = delays[int(len(delays) * 0.99) - 1] * 1000
    print(f"push_fanout_p99_inprocess_memory: {p99:.1f} ms ({SOCKETS} sockets, {ROUNDS} pushes)")
