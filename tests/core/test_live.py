"""The live-push socket (base.live): which groups a socket may join, and that a committed write (only a
committed one) reaches the sockets watching it."""

import json

import pytest
from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from django.db import transaction

from config.asgi import websocket_urls
from tests.clubs.factories import MembershipFactory, PlayerFactory
from tests.tournaments.builders import drawn_event, make_event, ready_slots, win
from tournaments import services

pytestmark = pytest.mark.django_db(transaction=True)


class Socket(ApplicationCommunicator):
    """A websocket client for the consumer (channels.testing's own needs daphne, which the site does not use)."""

    def __init__(self, path: str, user=None):
        from django.contrib.auth.models import AnonymousUser

        query = path.split("?", 1)[1] if "?" in path else ""
        scope = {
            "type": "websocket",
            "path": path.split("?", 1)[0],
            "query_string": query.encode(),
            "headers": [],
            "subprotocols": [],
            "user": user or AnonymousUser(),
        }
        super().__init__(URLRouter(websocket_urls), scope)

    async def connect(self) -> bool:
        await self.send_input({"type": "websocket.connect"})
        return (await self.receive_output(1))["type"] == "websocket.accept"

    async def receive_json_from(self, timeout=1) -> dict:
        return json.loads((await self.receive_output(timeout))["text"])

    async def disconnect(self) -> None:
        await self.send_input({"type": "websocket.disconnect", "code": 1000})
        await self.wait(1)


def joins(user, *groups):
    """Open a socket as `user` (None: anonymous) asking for groups; returns its first answer."""

    async def run():
        communicator = Socket("/ws/live/?groups=" + ",".join(groups), user)
        assert await communicator.connect()
        answer = await communicator.receive_json_from()
        await communicator.disconnect()
        return answer

    return async_to_sync(run)()


def test_a_public_flight_is_open_to_anyone_and_a_private_clubs_event_only_to_its_members(club, director_user):
    public = make_event(club, director_user)
    flight = services.add_flight(actor=director_user, event=public, name="Main")
    private = make_event(club, director_user, is_public=False)
    member = MembershipFactory(club=club).player.user
    outsider = PlayerFactory().user

    answer = joins(None, f"flight-{flight.pk}", f"event-{public.pk}", f"event-{private.pk}")
    assert answer == {
        "type": "joined",
        "groups": [f"flight-{flight.pk}", f"event-{public.pk}"],
        "refused": [f"event-{private.pk}"],
        "fragments": {},  # no page region named a fragment
    }
    assert joins(outsider, f"event-{private.pk}")["refused"] == [f"event-{private.pk}"]
    assert joins(member, f"event-{private.pk}")["groups"] == [f"event-{private.pk}"]
    assert joins(director_user, f"event-{private.pk}")["groups"] == [f"event-{private.pk}"]


def test_a_users_own_group_is_theirs_alone_and_unknown_or_malformed_groups_are_refused(member_user, outsider_user):
    mine = f"user-{member_user.pk}"
    assert joins(member_user, mine)["groups"] == [mine]
    assert joins(outsider_user, mine)["refused"] == [mine]
    assert joins(None, mine)["refused"] == [mine]
    answer = joins(member_user, "secrets-1", "flight-x", "flight-99999", "user-1;drop")
    assert answer["groups"] == []
    assert answer["refused"] == ["secrets-1", "flight-x", "flight-99999", "user-1;drop"]


def test_a_confirmed_result_reaches_the_bracket_the_dashboard_and_both_players_after_commit(club, director_user):
    event, flights = drawn_event(club, director_user, 4, length=3)
    flight = flights["main"]
    slot = ready_slots(flight)[0]
    player = slot.entry_a.player.user

    async def run():
        bracket = Socket(f"/ws/live/?groups=flight-{flight.pk},event-{event.pk}")
        home = Socket(f"/ws/live/?groups=user-{player.pk}", player)
        for socket in (bracket, home):
            assert await socket.connect()
            assert (await socket.receive_json_from())["refused"] == []

        @database_sync_to_async
        def rolled_back():
            with pytest.raises(RuntimeError), transaction.atomic():
                win(director_user, slot)
                raise RuntimeError("the director's connection dropped")

        await rolled_back()
        assert await bracket.receive_nothing(timeout=0.3)  # nothing was committed, nothing is pushed
        assert await home.receive_nothing(timeout=0.1)

        await database_sync_to_async(win)(director_user, slot)
        got = {(await bracket.receive_json_from(timeout=2))["group"] for _ in range(2)}
        assert got == {f"flight-{flight.pk}", f"event-{event.pk}"}
        assert await home.receive_json_from(timeout=2) == {"type": "changed", "group": f"user-{player.pk}"}
        for socket in (bracket, home):
            await socket.disconnect()

    async_to_sync(run)()


@pytest.fixture
def fresh_layer(monkeypatch):
    """A channel layer of this test's own, installed as the site's. The sockets of the tests before this one
    received on the shared layer and were cancelled on disconnect; channels_redis keeps its receive lock per layer
    and binds it to the event loop that took it, so the next loop's `receive` on that layer fails."""
    from channels.layers import DEFAULT_CHANNEL_LAYER, channel_layers

    layer = channel_layers.make_backend(DEFAULT_CHANNEL_LAYER)
    monkeypatch.setitem(channel_layers.backends, DEFAULT_CHANNEL_LAYER, layer)
    return layer


def test_one_write_that_tells_many_groups_sends_them_all_after_its_commit_in_one_go(fresh_layer):
    """A result tells every entrant's page: one commit callback sends to all of them together, each group once."""
    import asyncio

    from channels.layers import get_channel_layer

    from base.live import notify_group

    layer = get_channel_layer()
    assert layer is fresh_layer
    names = [f"user-{n}" for n in range(60)]

    async def subscribe():
        channels = {}
        for name in names:
            channels[name] = await layer.new_channel()
            await layer.group_add(name, channels[name])
        return channels

    channels = async_to_sync(subscribe)()
    with transaction.atomic():
        notify_group(*names, *names[:10])
        callbacks = list(transaction.get_connection().run_on_commit)
        assert len(callbacks) == 1

    async def received():
        got = {}
        for name, channel in channels.items():
            got[name] = (await asyncio.wait_for(layer.receive(channel), timeout=5))["group"]
        return got

    assert async_to_sync(received)() == {name: name for name in names}


def test_a_result_tells_the_own_pages_of_the_players_it_moved_not_every_entrants(club, director_user, monkeypatch):
    """A 16-player bracket: the winner, the loser and the opponent waiting in the next slot hear of the result;
    the other thirteen entrants' phones are not asked to refetch. The draw (every entrant's first match) tells all."""
    import tournaments.live

    told: list[set[str]] = []
    monkeypatch.setattr(tournaments.live, "notify_group", lambda *groups: told.append(set(groups)))
    event, flights = drawn_event(club, director_user, 16, length=3)
    flight = flights["main"]
    assert len({g for g in told[-1] if g.startswith("user-")}) == 16  # the release: everyone's first match

    first, second, *_rest = ready_slots(flight)
    win(director_user, first)  # the winner waits in round 2 for the winner of the second match
    told.clear()
    win(director_user, second, side=1)
    waiting, winner, loser = first.entry_a.player.user, second.entry_b.player.user, second.entry_a.player.user
    assert told == [
        {
            f"flight-{flight.pk}",
            f"event-{event.pk}",
            f"user-{waiting.pk}",
            f"user-{winner.pk}",
            f"user-{loser.pk}",
        }
    ]


def test_the_pushes_of_one_transaction_go_out_together_each_group_once():
    """A confirmation tells both players' pages from match play and again, with the bracket and the event, from
    the tournament: one send after the commit, each group once. A push waiting from a savepoint that rolls back
    goes with it; what the transaction tells afterwards still goes out."""
    from base import live

    sent: list[list[str]] = []
    original = live.send_all
    live.send_all = lambda names: sent.append(list(names))
    try:
        with transaction.atomic():
            live.notify_group("user-1", "user-2")
            live.notify_group("flight-3", "event-4", "user-1", "user-2")
            assert len(transaction.get_connection().run_on_commit) == 1
        assert sent == [["user-1", "user-2", "flight-3", "event-4"]]

        sent.clear()
        with transaction.atomic():
            try:
                with transaction.atomic():
                    live.notify_group("user-5")
                    raise RuntimeError("the savepoint rolls back")
            except RuntimeError:
                pass
            live.notify_group("user-6")
        assert sent == [["user-6"]]
    finally:
        live.send_all = original


def _redis_layer(prefix: str, address: str | None = None):
    from django.conf import settings

    from base.live import WatchingRedisLayer

    url = address or next(u for u in (settings.CHANNEL_LAYER_URL, settings.CELERY_BROKER_URL) if u.startswith("redis"))
    return WatchingRedisLayer(hosts=[url], prefix=prefix, expiry=30)


@pytest.mark.services
def test_a_push_is_sent_only_to_the_groups_a_socket_is_in(monkeypatch):
    """Most groups a result tells have no page open; Redis is asked which have one in one round trip, and only
    those are sent to. A watched group still hears the change."""
    import asyncio
    import uuid

    from channels.layers import DEFAULT_CHANNEL_LAYER, channel_layers

    from base import live

    layer = _redis_layer(f"t{uuid.uuid4().hex[:8]}")
    monkeypatch.setitem(channel_layers.backends, DEFAULT_CHANNEL_LAYER, layer)
    sent_to: list[str] = []
    group_send = layer.group_send

    async def recording(group, message):
        sent_to.append(group)
        await group_send(group, message)

    monkeypatch.setattr(layer, "group_send", recording)

    async def subscribe():
        channel = await layer.new_channel()
        await layer.group_add("user-1", channel)
        return channel

    channel = async_to_sync(subscribe)()
    live.send_all(["flight-3", "user-1", "user-2", "event-4"])
    assert sent_to == ["user-1"]

    async def received():
        return await asyncio.wait_for(layer.receive(channel), timeout=5)

    assert async_to_sync(received)()["group"] == "user-1"


@pytest.mark.services
def test_a_group_whose_sockets_left_or_expired_is_not_sent_to(monkeypatch):
    """The record of who watches (base.live.WatchingRedisLayer) follows the layer's own membership: a socket that
    leaves is struck off, and one that went away without a goodbye counts no longer than the layer's group expiry."""
    import time
    import uuid

    from channels.layers import DEFAULT_CHANNEL_LAYER, channel_layers

    from base import live

    layer = _redis_layer(f"t{uuid.uuid4().hex[:8]}")
    monkeypatch.setitem(channel_layers.backends, DEFAULT_CHANNEL_LAYER, layer)

    async def join_and_leave():
        staying, leaving = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("user-7", leaving)
        await layer.group_add("user-8", staying)
        await layer.group_discard("user-7", leaving)

    async_to_sync(join_and_leave)()
    assert live._watched(layer, ["user-7", "user-8", "user-9"]) == ["user-8"]
    # A socket recorded longer ago than the group expiry (its process died without leaving) is forgotten.
    long_ago = int(time.time()) - layer.watch_expiry - 5
    live._client(layer.watch_address).zadd(layer.watch_key("user-9"), {"gone!": long_ago})
    assert live._watched(layer, ["user-9"]) == []


def test_a_redis_that_does_not_answer_leaves_the_committed_write_standing(monkeypatch, caplog):
    """Nothing listens on port 1: the push fails at once, is logged, and the write it followed stays committed."""
    from channels.layers import DEFAULT_CHANNEL_LAYER, channel_layers

    from base import live
    from clubs.models import Player

    monkeypatch.setitem(channel_layers.backends, DEFAULT_CHANNEL_LAYER, _redis_layer("down", "redis://127.0.0.1:1/0"))
    with transaction.atomic():
        player = PlayerFactory()
        live.notify_group("user-1", f"flight-{player.pk}")
    assert Player.objects.filter(pk=player.pk).exists()
    assert "live push to" in caplog.text and "failed" in caplog.text


def socket_answer(message: dict) -> list[dict]:
    """Open a socket, send one raw websocket message, and return what the server sent after its first answer."""

    async def run():
        communicator = Socket("/ws/live/?groups=")
        assert await communicator.connect()
        await communicator.receive_json_from()
        await communicator.send_input({"type": "websocket.receive", **message})
        out = [await communicator.receive_output(2)]
        await communicator.wait(1)
        return out

    return async_to_sync(run)()


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ({"text": "[" * 200_000 + "]" * 200_000}, 1009),  # the attack walk's message: too big before too deep
        ({"text": '{"type": "ping", "x": ' + "[" * 9 + "]" * 9 + "}"}, 1008),  # small, but deeper than 8
        ({"text": "not json"}, 1008),
        ({"bytes": b'{"type": "ping"}'}, 1003),
    ],
    ids=["nested-400k", "nested-small", "not-json", "binary"],
)
def test_a_message_past_the_sockets_bounds_closes_that_socket_with_a_policy_code_and_no_traceback(
    message, code, caplog
):
    with caplog.at_level("WARNING"):
        out = socket_answer(message)
    assert out == [{"type": "websocket.close", "code": code}]
    records = [r for r in caplog.records if "live socket closed" in r.getMessage()]
    assert len(records) == 1 and records[0].exc_info is None
    assert not [r for r in caplog.records if r.levelname == "ERROR"]


def test_a_ping_within_the_bounds_with_brackets_in_its_strings_still_gets_a_pong():
    text = json.dumps({"type": "ping", "note": '[[[[[[[[[[{{{{{{{{{{ \\" ]]'})
    assert socket_answer({"text": text}) == [{"type": "websocket.send", "text": '{"type": "pong"}'}]


def test_a_socket_asked_for_while_redis_is_away_is_refused_with_one_line_and_no_traceback(monkeypatch, caplog):
    """Nothing listens on port 1: the handshake is refused at once, never accepted (the page polls and tries again
    within seconds), and the log says why in one line, not a traceback for every page's every try."""
    from channels.layers import DEFAULT_CHANNEL_LAYER, channel_layers

    user = PlayerFactory().user
    monkeypatch.setitem(channel_layers.backends, DEFAULT_CHANNEL_LAYER, _redis_layer("away", "redis://127.0.0.1:1/0"))

    async def run():
        communicator = Socket(f"/ws/live/?groups=user-{user.pk}", user)
        await communicator.send_input({"type": "websocket.connect"})
        await communicator.wait(5)  # the consumer ends (an exception here would fail the test)
        return await communicator.receive_nothing(0.1)

    assert async_to_sync(run)() is True  # no accept: the server refuses the handshake
    ended = [r for r in caplog.records if "live socket ended" in r.getMessage()]
    assert len(ended) == 1 and ended[0].exc_info is None
    assert "Traceback" not in caplog.text
