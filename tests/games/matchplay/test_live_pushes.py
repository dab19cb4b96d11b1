"""What every match event pushes (the table in games/live.py), through the channel layer the site uses in tests
(in memory) after a real commit, and what the told pages then show: the opponent's home page lists the result to
confirm and the header counts it, without anyone reloading on the reporter's side."""

import asyncio

import pytest
from asgiref.sync import async_to_sync
from django.test import Client
from django.urls import reverse

from games.matchplay import services
from tests.clubs.factories import MembershipFactory
from tests.games.matchplay.factories import MatchFactory
from tests.tournaments.rounds_builders import open_tables, swiss_event
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def layer(monkeypatch):
    """An in-memory channel layer of this test's own, installed as the site's."""
    from channels.layers import DEFAULT_CHANNEL_LAYER, channel_layers

    layer = channel_layers.make_backend(DEFAULT_CHANNEL_LAYER)
    monkeypatch.setitem(channel_layers.backends, DEFAULT_CHANNEL_LAYER, layer)
    return layer


def told(layer, groups, action) -> set[str]:
    """Which of `groups` a page watching it would hear about after `action` commits."""
    channels = {}

    async def watch():
        for group in groups:
            channels[group] = await layer.new_channel()
            await layer.group_add(group, channels[group])

    async def heard():
        got = set()
        for group, channel in channels.items():
            try:
                message = await asyncio.wait_for(layer.receive(channel), timeout=0.2)
            except TimeoutError:
                continue
            assert message == {"type": "live.changed", "group": group, "push": message["push"]}  # push: one build
            got.add(group)
        return got

    async_to_sync(watch)()
    action()
    return async_to_sync(heard)()


@pytest.fixture
def table(club, director_user):
    """Round 1, table 1 of a Swiss at `club`: (match, flight, event)."""
    event, flight = swiss_event(club, director_user, 4, rounds=3)
    tournament_services.start_round(actor=director_user, flight=flight)
    match = open_tables(flight)[0].match
    return match, flight, event


def groups_of(match, flight, event, outsider):
    return {
        "match": f"match-{match.pk}",
        "a": f"user-{match.player_a.user_id}",
        "b": f"user-{match.player_b.user_id}",
        "desk": f"desk-{match.club_id}",
        "flight": f"flight-{flight.pk}",
        "event": f"event-{event.pk}",
        "outsider": f"user-{outsider.pk}",  # nobody else's pages refetch
    }


def report(match, user=None):
    return services.submit_report(
        actor=user or match.player_a.user, match=match, method="final_score", scores=(match.length, 1)
    )[0]


EVERYONE = {"match", "a", "b", "desk", "flight", "event"}


@pytest.mark.parametrize(
    ("event_name", "expected"),
    [
        ("started", {"match", "a", "b", "flight", "event"}),  # nothing to decide at the desk yet
        ("reported", EVERYONE),
        ("disputed", EVERYONE),
        ("confirmed", EVERYONE),
        ("overridden", EVERYONE),
        ("annulled", EVERYONE),
    ],
)
def test_every_match_event_reaches_the_groups_its_row_of_the_table_names(
    layer, table, director_user, outsider_user, event_name, expected
):
    match, flight, event = table
    assert match.club_id is not None
    player_b = match.player_b.user
    if event_name in ("disputed", "confirmed"):
        version = report(match).version
    if event_name == "overridden":  # a director corrects a confirmed result
        services.confirm_report(actor=player_b, match=match, version=report(match).version)
    actions = {
        "started": lambda: services.start_match(actor=match.player_a.user, match=match),
        "reported": lambda: report(match),
        "disputed": lambda: services.dispute_report(actor=player_b, match=match, version=version, comment="It was 1–5"),
        "confirmed": lambda: services.confirm_report(actor=player_b, match=match, version=version),
        "overridden": lambda: services.submit_report(
            actor=director_user, match=match, method="final_score", scores=(1, match.length), as_director=True
        ),
        "annulled": lambda: services.annul_match(actor=director_user, match=match, comment="Wrong players seated"),
    }
    groups = groups_of(match, flight, event, outsider_user)
    heard = told(layer, list(groups.values()), actions[event_name])
    assert heard == {groups[name] for name in expected}


def test_a_casual_matchs_events_reach_both_players_and_its_page_and_nobody_else(layer, outsider_user):
    a, b = MembershipFactory().player, MembershipFactory().player
    match = MatchFactory(club=None, player_a=a, player_b=b, context="casual")
    groups = [f"match-{match.pk}", f"user-{a.user_id}", f"user-{b.user_id}", f"user-{outsider_user.pk}"]
    assert told(layer, groups, lambda: report(match)) == set(groups[:3])
    version = match.reports.get().version
    confirmed = told(layer, groups, lambda: services.confirm_report(actor=b.user, match=match, version=version))
    assert confirmed == set(groups[:3])


def test_a_rolled_back_report_pushes_nothing(layer, table):
    from django.db import transaction

    match, flight, event = table

    def rolled_back():
        with pytest.raises(RuntimeError), transaction.atomic():
            report(match)
            raise RuntimeError("the phone's request died")

    assert (
        told(layer, [f"match-{match.pk}", f"user-{match.player_b.user_id}", f"flight-{flight.pk}"], rolled_back)
        == set()
    )


def test_after_a_report_the_opponents_home_page_and_header_show_the_result_to_confirm(table):
    match, flight, event = table
    opponent = Client()
    opponent.force_login(match.player_b.user)
    before = opponent.get(reverse("home")).content.decode()
    assert f'data-to-confirm="{match.pk}"' not in before and "1 to confirm" not in before
    report(match)
    page = opponent.get(reverse("home")).content.decode()  # what the pushed page refetches
    home = page.split('id="live-home"', 1)[1]
    assert f'data-to-confirm="{match.pk}"' in home
    assert f"{match.player_a.name} reported" in home and f"{match.length}–1" in home
    assert f"{event.name} · {flight.name} · Round 1" in home  # which of two look-alike matches it is
    header = page.split('<span class="me" id="live-me"', 1)[1].split('class="menu-toggle"', 1)[0]
    assert header.startswith(f' data-live-groups="user-{match.player_b.user_id}"')  # the region the push swaps
    assert "1 to confirm" in header


# --- where a match belongs, on its cards ----------------------------------------------------------------------


def head_to_head(club, director, players, n, prefix):
    """n Swiss events of one round in which the same two players meet: n look-alike matches between them."""
    from tests.tournaments.builders import make_event

    matches = []
    for number in range(n):
        event = make_event(club, director, name=f"{prefix} Swiss {number + 1}")
        flight = tournament_services.add_flight(actor=director, event=event, name="Main", format="swiss", rounds=1)
        for player in players:
            tournament_services.register(actor=director, flight=flight, player=player)
        tournament_services.start_round(actor=director, flight=flight)
        matches.append(open_tables(flight)[0].match)
    return matches


def queries_of(client, url) -> tuple[int, str]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries), response.content.decode()


@pytest.mark.parametrize("page", ["home", "games:match-queue"])
def test_the_cards_of_look_alike_matches_name_their_event_and_cost_the_same_queries_for_one_and_four(
    club, director_user, page
):
    from tests.tournaments.builders import members

    counts = []
    for n in (1, 4):
        anna, ben = members(club, 2)
        matches = head_to_head(club, director_user, [anna, ben], n, prefix=f"Night{n}")
        for match in matches:
            reporter = match.player_a.user if match.player_b == anna else match.player_b.user
            report(match, reporter)  # each waits for Anna's confirmation
        client = Client()
        client.force_login(anna.user if page == "home" else director_user)
        count, html = queries_of(client, reverse(page))
        for number in range(1, n + 1):
            assert f"Night{n} Swiss {number} · Main · Round 1" in html
        counts.append(count)
    assert counts[0] == counts[1]


def test_the_to_decide_list_and_the_match_page_name_a_bracket_matchs_event_flight_and_round(club, director_user):
    from tests.tournaments.builders import drawn_event, ready_slots

    event, flights = drawn_event(club, director_user, 8, length=3)
    match = ready_slots(flights["main"])[0].match
    report(match)
    director = Client()
    director.force_login(director_user)
    label = f"{event.name} · Main · Quarter-finals"
    queue = director.get(reverse("games:match-queue")).content.decode()
    assert label in queue
    assert f'data-live-groups="desk-{club.pk}"' in queue  # and it refetches when a result of the club changes
    assert label in director.get(match.get_absolute_url()).content.decode()


def test_a_round_tables_match_knows_its_flight(table):
    from tournaments import selectors

    match, flight, _event = table
    assert selectors.match_flight(match=match) == flight
    casual = MatchFactory(club=None, context="casual")
    assert selectors.match_flight(match=casual) is None


def test_a_clubs_desk_is_its_directors_and_a_matchs_page_group_whoever_sees_the_match(
    club, director_user, member_user, outsider_user
):
    from base.live import may_join

    private = MatchFactory(club=club, is_public=False)
    assert may_join(director_user, f"desk-{club.pk}")
    assert not may_join(member_user, f"desk-{club.pk}") and not may_join(None, f"desk-{club.pk}")
    assert may_join(member_user, f"match-{private.pk}") and may_join(private.player_a.user, f"match-{private.pk}")
    assert not may_join(outsider_user, f"match-{private.pk}") and not may_join(None, f"match-{private.pk}")


def test_a_dispute_reaches_the_bell_of_the_clubs_directors(layer, table, director_user):
    """The directors hear of a dispute by a line on their bell (notifications): their pages refetch to count it."""
    match, _flight, _event = table
    version = report(match).version
    dispute = lambda: services.dispute_report(  # noqa: E731
        actor=match.player_b.user, match=match, version=version, comment="It was 1–7"
    )
    assert told(layer, [f"user-{director_user.pk}"], dispute) == {f"user-{director_user.pk}"}


def test_the_match_lists_name_a_tournament_matchs_event_flight_and_round(club, director_user, table):
    match, flight, event = table
    player = Client()
    player.force_login(match.player_a.user)
    label = f"{event.name} · {flight.name} · Round 1"
    assert label in player.get(reverse("games:my-matches")).content.decode()
    assert label in player.get(reverse("games:match-list")).content.decode()


def test_a_team_matchs_board_names_its_round_and_board_and_is_pushed_to_its_flight(layer, club, director_user):
    from tests.tournaments.test_team_matches import boards_of, ready, team_flight

    flight, _entries = team_flight(club, director_user, 4)  # two semi-finals, three boards each
    board = boards_of(ready(flight)[0])[1]
    match = board.match
    director = Client()
    director.force_login(director_user)
    report(match)
    assert (
        f"{flight.event.name} · Nations Cup · Semi-finals, board 2"
        in director.get(match.get_absolute_url()).content.decode()
    )
    version = match.reports.get().version
    confirm = lambda: services.confirm_report(actor=match.player_b.user, match=match, version=version)  # noqa: E731
    assert told(layer, [f"flight-{flight.pk}", f"event-{flight.event_id}"], confirm) == {
        f"flight-{flight.pk}",
        f"event-{flight.event_id}",
    }


def test_the_table_in_the_docstring_is_the_table_the_code_reads():
    """games/live.py writes down who hears of each match event once, for readers; the code must say the same."""
    from games import live

    columns = [live.MATCH_PAGE, live.PLAYERS, live.DESK, live.TOURNAMENT]
    read = {}
    for line in live.__doc__.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0].split(" ")[0] in live.TOLD:
            read[cells[0].split(" ")[0]] = tuple(c for c, told in zip(columns, cells[1:], strict=True) if told == "yes")
    assert read == live.TOLD
