"""Live pages at many watchers: a result costs the server one rendering of the public bracket and one
message per open page, whatever the number of pages, and no HTTP request; what is pushed is what a reload shows.
Private pages keep "changed" + refetch."""

import asyncio
import json
import re

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.core.signals import request_started
from django.db import connection
from django.test import Client
from django.test.signals import template_rendered
from django.test.utils import CaptureQueriesContext

from base import htmlparts, live
from tests.core.test_live import Socket
from tests.tournaments.builders import drawn_event, ready_slots, win

pytestmark = pytest.mark.django_db(transaction=True)

BODY = "tournaments/_bracket_body.html"


@pytest.fixture
def fresh_layer(monkeypatch):
    """A channel layer of this test's own (see tests/core/test_live.py: channels_redis binds its receive lock to
    the event loop that took it)."""
    from channels.layers import DEFAULT_CHANNEL_LAYER, channel_layers

    layer = channel_layers.make_backend(DEFAULT_CHANNEL_LAYER)
    monkeypatch.setitem(channel_layers.backends, DEFAULT_CHANNEL_LAYER, layer)
    return layer


@pytest.fixture
def counted():
    """The bracket body's renderings and the HTTP requests the site starts, counted from Django's own signals."""
    seen = {"renders": 0, "requests": 0}

    def rendered(sender, template, **kwargs):
        seen["renders"] += template.name == BODY

    def started(sender, **kwargs):
        seen["requests"] += 1

    template_rendered.connect(rendered)
    request_started.connect(started)
    yield seen
    template_rendered.disconnect(rendered)
    request_started.disconnect(started)


async def settled() -> None:
    """Wait for the fragment builds this loop still runs (a push's build outlives the sockets that asked for it):
    a build left running when the test's event loop closes would wait for the test's own thread forever."""
    loop = asyncio.get_running_loop()
    running = [t for t in (*live._built.values(), *live._gathering.values()) if t.get_loop() is loop and not t.done()]
    await asyncio.gather(*running, return_exceptions=True)


def public_page(url: str) -> tuple[str, str, int]:
    """(the page's HTML, the variant and the version its bracket region names), as an anonymous phone gets it."""
    html = Client().get(url).content.decode()
    region = re.search(r'id="live-bracket"[^>]*data-live-fragment="([^"]+)" data-live-version="([0-9]+)"', html)
    assert region, "the public bracket names its fragment's variant and version"
    return html, region.group(1), int(region.group(2))


@pytest.mark.parametrize("watchers", [50, 500])
def test_a_result_renders_the_public_bracket_once_and_sends_it_to_every_open_page_without_http(
    club, director_user, fresh_layer, counted, watchers
):
    event, flights = drawn_event(club, director_user, 8, length=3)
    flight = flights["main"]
    slot = ready_slots(flight)[0]
    group = f"flight-{flight.pk}"
    _html, variant, shown = public_page(flight.get_absolute_url())
    shown_region = live._fragments["flight"](flight.pk, variant).regions["live-bracket"]  # from the cache
    player = slot.entry_a.player.user

    async def run():
        pages = [Socket(f"/ws/live/?groups={group}&fragments={group}:{variant}:{shown}") for _ in range(watchers)]
        plain = Socket(f"/ws/live/?groups={group}")  # a page without the public region (a director's): refetches
        own = Socket(f"/ws/live/?groups=user-{player.pk}", player)  # a private page: refetches
        for socket in (*pages, plain, own):
            assert await socket.connect()
            assert (await socket.receive_json_from(timeout=30))["refused"] == []
        counted.update(renders=0, requests=0)

        await database_sync_to_async(win)(director_user, slot)
        texts = [(await socket.receive_output(30))["text"] for socket in pages]
        assert await plain.receive_json_from(timeout=5) == {"type": "changed", "group": group}
        assert await own.receive_json_from(timeout=5) == {"type": "changed", "group": f"user-{player.pk}"}
        assert await pages[0].receive_nothing(timeout=0.2)  # one message per page and result
        renders, requests = counted["renders"], counted["requests"]

        # a push that leaves the bracket as it was (a report) sends the fragment pages nothing
        await database_sync_to_async(live.send_all)([group])
        assert await plain.receive_json_from(timeout=5) == {"type": "changed", "group": group}
        assert await pages[-1].receive_nothing(timeout=0.3)
        for socket in (*pages, plain, own):
            await socket.disconnect()
        await settled()
        return texts, renders, requests

    texts, renders, requests = async_to_sync(run)()
    assert renders == 1  # rendered once for all the pages, not once per page
    assert requests == 0  # and no page asked over HTTP
    assert len(texts) == watchers and len(set(texts)) == 1  # encoded once: the very same text to every page
    message = json.loads(texts[0])
    assert message["type"] == "fragment" and message["group"] == group and message["version"] > shown
    if "patches" in message:  # the connects built the version the pages show: the changed parts are sent
        assert message["base"] == shown
        fragment = htmlparts.patched(shown_region, message["patches"]["live-bracket"], message["version"])
    else:
        fragment = message["regions"]["live-bracket"]
    assert slot.entry_a.player.name in fragment

    html, _variant, version = public_page(flight.get_absolute_url())  # a reload shows the same, from the cache
    assert version == message["version"]
    assert fragment in html and fragment.startswith('<div class="bracket-page"')
    assert counted["renders"] == 1


def test_a_fragment_built_again_reads_the_cached_rendering_with_one_query(club, director_user, counted):
    """What each uvicorn process pays per push once the bracket is rendered: one query (the flight, its event and
    version), one cache read, no rendering; a variant no page can name builds nothing."""
    event, flights = drawn_event(club, director_user, 4, length=3)
    flight = flights["main"]
    html, variant, version = public_page(flight.get_absolute_url())
    counted.update(renders=0)
    build = live._fragments["flight"]
    with CaptureQueriesContext(connection) as queries:
        fragment = build(flight.pk, variant)
    assert len(queries) == 1 and counted["renders"] == 0
    assert fragment.version == version and fragment.regions["live-bracket"] in html
    assert build(flight.pk, "xx.0") is None and build(flight.pk, "en.7") is None


def test_a_german_page_gets_its_fragment_in_german(club, director_user):
    event, flights = drawn_event(club, director_user, 4, length=3)
    flight = flights["main"]
    html = Client(headers={"accept-language": "de"}).get(flight.get_absolute_url()).content.decode()
    assert 'data-live-fragment="de.0"' in html
    fragment = live._fragments["flight"](flight.pk, "de.0")
    assert fragment.regions["live-bracket"] in html


def test_pages_back_after_an_outage_get_what_is_newer_at_once_and_need_no_refetch(
    club, director_user, fresh_layer, counted, monkeypatch
):
    """A restarted node's pages reconnect together naming the version each shows: the ones behind get the
    fragment before "joined", every one hears which regions are now current (live.js refetches only the rest),
    and the sockets connecting together share a build instead of a GET each."""
    event, flights = drawn_event(club, director_user, 8, length=3)
    flight = flights["main"]
    slot = ready_slots(flight)[0]
    group = f"flight-{flight.pk}"
    _html, variant, shown = public_page(flight.get_absolute_url())
    win(director_user, slot)  # went by while the pages were away
    _html, _variant, now = public_page(flight.get_absolute_url())
    assert now > shown

    builds = []
    build = live._fragments["flight"]
    monkeypatch.setitem(live._fragments, "flight", lambda pk, v: builds.append(pk) or build(pk, v))
    watchers = 100

    async def run():
        behind = [Socket(f"/ws/live/?groups={group}&fragments={group}:{variant}:{shown}") for _ in range(watchers)]
        current = Socket(f"/ws/live/?groups={group}&fragments={group}:{variant}:{now}")
        plain = Socket(f"/ws/live/?groups={group}")  # no public region on the page
        counted.update(renders=0, requests=0)
        assert all(await asyncio.gather(*(socket.connect() for socket in (*behind, current, plain))))
        firsts = [await socket.receive_json_from(timeout=30) for socket in behind]
        joined = [await socket.receive_json_from(timeout=30) for socket in behind]
        answers = (await current.receive_json_from(timeout=30), await plain.receive_json_from(timeout=30))
        for socket in (*behind, current, plain):
            await socket.disconnect()
        await settled()
        return firsts, joined, answers

    firsts, joined, (current_joined, plain_joined) = async_to_sync(run)()
    assert {message["type"] for message in firsts} == {"fragment"}
    assert {message["version"] for message in firsts} == {now}
    assert slot.entry_a.player.name in firsts[0]["regions"]["live-bracket"]
    assert all(message["fragments"] == {group: ["live-bracket"]} for message in joined)
    assert current_joined["type"] == "joined" and current_joined["fragments"] == {group: ["live-bracket"]}
    assert plain_joined["fragments"] == {}  # a page without the region refetches what went by
    assert counted["requests"] == 0 and counted["renders"] <= 1
    assert 1 <= len(builds) <= watchers // 10, f"{len(builds)} builds for {watchers + 1} sockets"


def test_a_round_result_pushes_the_standings_and_tables_once_and_only_the_two_players_own_tables_refetch(
    club, director_user, fresh_layer, counted
):
    """A flight played in rounds: its public body (standings, the round's tables) is the fragment; the viewer's
    own table is a region of their user group, so a result makes the two players' pages refetch that, and every
    other open page refetches nothing."""
    from tests.tournaments.rounds_builders import open_tables, report, swiss_event
    from tournaments import services

    event, flight = swiss_event(club, director_user, 6, rounds=2)
    services.start_round(actor=director_user, flight=flight)
    table, elsewhere = open_tables(flight)[:2]
    group = f"flight-{flight.pk}"
    html = Client().get(flight.get_absolute_url()).content.decode()
    found = re.search(r'id="live-rounds"[^>]*data-live-fragment="([^"]+)" data-live-version="([0-9]+)"', html)
    assert found, "the rounds region names its fragment's variant and version"
    variant, shown = found.group(1), int(found.group(2))
    winner, bystander = table.entry_a.player.user, elsewhere.entry_a.player.user

    async def run():
        pages = [Socket(f"/ws/live/?groups={group}&fragments={group}:{variant}:{shown}") for _ in range(20)]
        own = Socket(f"/ws/live/?groups=user-{winner.pk}", winner)
        other = Socket(f"/ws/live/?groups=user-{bystander.pk}", bystander)
        for socket in (*pages, own, other):
            assert await socket.connect()
            assert (await socket.receive_json_from(timeout=30))["refused"] == []
        counted.update(requests=0)
        await database_sync_to_async(report)(director_user, table, 0, loser_points=2)
        texts = {(await socket.receive_output(30))["text"] for socket in pages}
        own_heard = await own.receive_json_from(timeout=5)
        other_quiet = await other.receive_nothing(timeout=0.3)
        for socket in (*pages, own, other):
            await socket.disconnect()
        await settled()
        return texts, own_heard, other_quiet

    texts, own_heard, other_quiet = async_to_sync(run)()
    assert len(texts) == 1  # the same encoded text to every page
    message = json.loads(texts.pop())
    assert message["type"] == "fragment" and message["version"] > shown
    assert f"<strong>{table.entry_a.name}</strong>" in message["regions"]["live-rounds"]
    assert own_heard == {"type": "changed", "group": f"user-{winner.pk}"}
    assert other_quiet  # a player whose table did not change is not told to refetch
    assert counted["requests"] == 0


def test_every_open_calcutta_board_is_sent_the_boards_data_with_each_step_not_a_fetch_each(
    club, director_user, fresh_layer, counted
):
    """An auction room of phones: a bid sends every open board the board's data itself (what the board API answers
    in the page's language), built once; a write that takes no step (a payment ticked off) still reaches them."""
    from calcutta import services as calcutta_services
    from tests.calcutta.rows import entry_ids, make_flight

    flight = make_flight(club)
    calcutta = calcutta_services.create_calcutta(
        actor=director_user, flight=flight, payout_places=["60", "40"], minimum_opening_bid=1000, increment=500
    )
    groups = [entry_ids(flight, "Anna"), entry_ids(flight, "Bernd")]
    calcutta_services.set_lots(actor=director_user, calcutta=calcutta, groups=groups)
    calcutta_services.set_order(actor=director_user, calcutta=calcutta, order=[1, 2])
    paul = calcutta_services.register_bidder(actor=director_user, calcutta=calcutta, name="paul")
    calcutta_services.auctioneer_step(actor=director_user, calcutta=calcutta, action="open")
    calcutta_services.auctioneer_step(actor=director_user, calcutta=calcutta, action="open_next_lot")
    html = Client().get(f"/calcuttas/{calcutta.pk}/board/").content.decode()
    found = re.search(r'data-live-fragment="([a-z]+)" data-live-version="([0-9]+)"', html)
    assert found, "the board names its fragment's variant and version"
    variant, shown = found.group(1), int(found.group(2))
    group = f"calcutta-{calcutta.pk}"

    async def run():
        boards = [Socket(f"/ws/live/?groups={group}&fragments={group}:{variant}:{shown}") for _ in range(30)]
        for socket in boards:
            assert await socket.connect()
            # data goes even at the version shown (a write may change it without a step), then "joined"
            assert (await socket.receive_json_from(timeout=30))["version"] == shown
            assert (await socket.receive_json_from(timeout=30))["fragments"] == {group: []}
        counted.update(requests=0)
        await database_sync_to_async(calcutta_services.place_bid)(
            actor=director_user, calcutta=calcutta, lot_number=1, bidder=paul, amount=1500
        )
        after_bid = {(await socket.receive_output(30))["text"] for socket in boards}
        await database_sync_to_async(calcutta_services.set_paid)(
            actor=director_user, calcutta=calcutta, bidder=paul, paid=True
        )
        after_setting = await boards[0].receive_json_from(timeout=10)
        for socket in boards:
            await socket.disconnect()
        await settled()
        return after_bid, after_setting

    after_bid, after_setting = async_to_sync(run)()
    assert len(after_bid) == 1  # encoded once, the same text to every board
    message = json.loads(after_bid.pop())
    assert message["type"] == "fragment" and message["version"] > shown
    assert message["data"]["current"]["high_bid_display"] == "15.00"
    assert message["data"]["current"]["high_bidder"] == "paul"
    assert after_setting["type"] == "fragment" and after_setting["version"] == message["version"]
    assert counted["requests"] == 0
    api = Client().get(f"/api/v1/calcuttas/{calcutta.pk}/board/").json()
    assert api == after_setting["data"]  # what the board API answers, pushed


def test_a_result_sends_only_the_slots_it_changed_and_the_pages_then_show_what_a_reload_shows(
    club, director_user, fresh_layer
):
    """Results on open pages: the pages' connects built the version they show, so each result sends every page
    only the changed slots (the same text to each, a small part of the region), and the region with them swapped
    is the one a reload serves. A page that connects showing an older version is sent the whole region."""
    event, flights = drawn_event(club, director_user, 16, length=3)
    flight = flights["main"]
    first, second = ready_slots(flight)[:2]
    group = f"flight-{flight.pk}"
    _html, variant, shown = public_page(flight.get_absolute_url())
    region = live._fragments["flight"](flight.pk, variant).regions["live-bracket"]

    async def run():
        pages = [Socket(f"/ws/live/?groups={group}&fragments={group}:{variant}:{shown}") for _ in range(20)]
        for socket in pages:
            assert await socket.connect()
            assert (await socket.receive_json_from(timeout=30))["refused"] == []
        pushes = []
        for slot, side in ((first, 0), (second, 1)):
            await database_sync_to_async(win)(director_user, slot, side)
            pushes.append([(await socket.receive_output(30))["text"] for socket in pages])
        late = Socket(f"/ws/live/?groups={group}&fragments={group}:{variant}:{shown}")  # a page behind
        assert await late.connect()
        caught_up = json.loads((await late.receive_output(30))["text"])
        for socket in (*pages, late):
            await socket.disconnect()
        await settled()
        return pushes, caught_up

    pushes, caught_up = async_to_sync(run)()
    version = shown
    for texts in pushes:
        assert len(set(texts)) == 1  # built and encoded once
        patch = json.loads(texts[0])
        assert patch["base"] == version and patch["version"] > version
        parts = patch["patches"]["live-bracket"]
        # the match, the slot its winner moves to, later slots whose labels name its players, the entries' places
        # and the place chances (every entrant's row moves with a result); the other slots stay on the page
        assert "bracket-entries" in parts and "place-chances" in parts
        assert len([part for part in parts if part.startswith("slot-")]) <= 5 < region.count('id="slot-')
        assert len(texts[0]) < len(region)
        region, version = htmlparts.patched(region, parts, patch["version"]), patch["version"]
    assert f"slot-{second.pk}" in parts

    html, _variant, reloaded = public_page(flight.get_absolute_url())
    assert reloaded == version
    assert region in html  # the region patched twice is what a reload serves
    assert "patches" not in caught_up and caught_up["version"] == version  # the whole region for a page behind
    assert caught_up["regions"]["live-bracket"] == region
