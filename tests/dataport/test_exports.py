"""CSV exports: what a downloaded file holds, in which format, and for whom."""

import csv
import datetime
import io

import pytest
from django.urls import reverse
from django.utils import translation

from calcutta import services as calcutta_services
from chouette import services as chouette_services
from clubs.models import Membership
from data import exports
from games.matchplay import services as match_services
from tests.chouette.factories import table
from tests.clients import web
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.tournaments.builders import drawn_event, play_all
from tests.tournaments.rounds_builders import play_round, swiss_event
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db
GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de"}  # a request the page answers in German


def read(response) -> tuple[list[str], list[list[str]], str]:
    """The file's header and rows, split on the delimiter the file was written with; and the raw text."""
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="')
    raw = response.content.decode("utf-8")
    assert raw.startswith("\ufeff")
    text = raw[1:]
    delimiter = ";" if text.split("\r\n", 1)[0].count(";") else ","
    rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    return rows[0], rows[1:], text


# --- the writer ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["=1+1", "+49 30 1234", "-2+3", "@SUM(A1)", "\tcmd", "\rcmd"])
def test_a_text_cell_a_spreadsheet_would_run_gets_a_leading_apostrophe(text):
    assert exports.cell(text) == "'" + text


def test_plain_text_and_typed_numbers_are_written_as_they_are():
    with translation.override("en"):
        assert exports.cell("Anna = Bernd") == "Anna = Bernd"
        assert exports.cell(exports.Money(-1250)) == "-12.50"  # a typed number is no formula, even negative
        assert exports.cell(exports.Number(1612.345, 2)) == "1612.35"
        assert exports.cell(None) == ""


def test_german_writes_decimal_commas_and_semicolons_and_its_own_dates():
    with translation.override("de"):
        text = exports.write_csv(["a", "b", "c"], [[exports.Money(123456), datetime.date(2026, 11, 21), "x;y"]])
    assert text == '\ufeffa;b;c\r\n1234,56;21.11.2026;"x;y"\r\n'
    with translation.override("en"):
        text = exports.write_csv(["a", "b"], [[exports.Money(123456), "x,y"]])
    assert text == '\ufeffa,b\r\n1234.56,"x,y"\r\n'


# --- the exports ---------------------------------------------------------------------------------------------


def _url(key, **kwargs):
    return reverse(f"data:{key}", kwargs=kwargs)


def test_a_flight_s_entries_escape_a_name_written_as_a_formula(club, director_user):
    event, flights = drawn_event(club, director_user, 4)
    entry = flights["main"].entries.order_by("pk").first()
    entry.player.name = '=HYPERLINK("http://evil")'
    entry.player.save()
    url = _url("flight-entries", club=club.slug, slug=event.slug, flight="main")
    with translation.override("en"):
        header, rows, _text = read(web().get(url))
    assert header[:3] == ["Player", "Team", "Status"]
    assert len(rows) == 4
    assert '\'=HYPERLINK("http://evil")' in [row[0] for row in rows]


def test_the_results_give_each_flight_s_places_and_matches_won_and_lost(club, director_user):
    event, flights = drawn_event(club, director_user, 4)
    play_all(director_user, [flights["main"]])  # player A of every match wins
    with translation.override("en"):
        header, rows, _text = read(web().get(_url("event-results", club=club.slug, slug=event.slug)))
    assert header == ["Flight", "Place", "Player", "Matches won", "Matches lost"]
    by_place = sorted((int(row[1]), int(row[3]), int(row[4])) for row in rows)
    assert by_place == [(1, 2, 0), (2, 1, 1), (3, 0, 1), (3, 0, 1)]


def test_the_federation_file_carries_the_federation_id(club, director_user):
    event, flights = drawn_event(club, director_user, 4)
    play_all(director_user, [flights["main"]])
    winner = flights["main"].entries.get(place=1).player
    winner.federation_id = "DBGV-0042"
    winner.save()
    header, rows, _text = read(web().get(_url("federation-results", club=club.slug, slug=event.slug), **GERMAN))
    assert header == ["player", "federation_id", "event", "date", "flight", "place", "won", "lost"]
    first = next(row for row in rows if row[5] == "1")
    assert first[:2] == [winner.name, "DBGV-0042"]
    assert first[3] == "01.05.2026"
    assert first[6:] == ["2", "0"]


def test_a_swiss_standings_table_has_the_tie_break_columns_in_effect(club, director_user):
    event, flight = swiss_event(club, director_user, 4, rounds=2, tiebreaks=["wins", "buchholz", "points_difference"])
    tournament_services.start_round(actor=director_user, flight=flight)
    play_round(director_user, flight)
    with translation.override("en"):
        header, rows, _text = read(web().get(_url("flight-standings", club=club.slug, slug=event.slug, flight="swiss")))
    assert header == ["Rank", "Player", "Withdrawn", "Wins", "Losses", "Byes", "Buchholz", "Points difference"]
    assert [row[3] for row in rows] == ["1", "1", "0", "0"]
    assert sorted(int(row[7]) for row in rows) == sorted(
        line.points_difference for line in (r.line for r in _standings(flight))
    )


def _standings(flight):
    from tournaments.selectors import rounds

    return rounds.flight_standings(flight=flight)


def test_a_knockout_has_no_standings_file(club, director_user):
    event, _flights = drawn_event(club, director_user, 4)
    assert web().get(_url("flight-standings", club=club.slug, slug=event.slug, flight="main")).status_code == 404


def test_a_private_club_s_exports_show_nothing_to_outsiders(director_user, outsider_user):
    hidden = ClubFactory(is_public=False)
    director = MembershipFactory(club=hidden, role="director").player.user
    event, flights = drawn_event(hidden, director, 4)
    session, _players, _actor = table(hidden, director=director)
    urls = [
        _url("flight-entries", club=hidden.slug, slug=event.slug, flight="main"),
        _url("event-results", club=hidden.slug, slug=event.slug),
        _url("federation-results", club=hidden.slug, slug=event.slug),
        _url("club-rated-matches", slug=hidden.slug),
        _url("club-standings", slug=hidden.slug),
        _url("club-members", slug=hidden.slug),
        _url("chouette-ledger", slug=hidden.slug, pk=session.pk),
    ]
    for client in (web(), web(outsider_user)):
        assert [client.get(url).status_code for url in urls] == [404] * len(urls)
    assert {web(director).get(url).status_code for url in urls} == {200}


def test_a_chouette_ledger_is_for_the_table_s_players_and_directors_only(club, member_user):
    session, players, director = table(club, stake_cents=250)
    chouette_services.record_game(actor=director, session=session, game={"winner": "team"})
    url = _url("chouette-ledger", slug=club.slug, pk=session.pk)
    assert web(member_user).get(url).status_code == 403
    assert web().get(url).status_code == 403
    header, rows, _text = read(web(players["B"].user).get(url, **GERMAN))
    assert header == ["Spiel", "Gespielt", "Spieler", "Rolle", "Deal", "Punkte", "Geld"]
    money = {row[2]: row[6] for row in rows}
    assert len(rows) == 4
    assert money["A"].startswith("-") and "," in money["A"]  # the box lost to the team: a negative number
    assert sum(float(v.replace(",", ".")) for v in money.values()) == 0


def test_a_calcutta_settlement_lists_each_owner_and_the_total(club, director_user):
    event = tournament_services.create_event(
        actor=director_user, club=club, name="Cup", starts_on=datetime.date(2026, 11, 22)
    )
    flight = tournament_services.add_flight(actor=director_user, event=event, name="Main")
    for name in ["Anna", "Bernd"]:
        player = MembershipFactory(club=club, player__name=name).player
        tournament_services.register(actor=director_user, flight=flight, player=player)
    calcutta = calcutta_services.create_calcutta(
        actor=director_user, flight=flight, payout_places=["100"], minimum_opening_bid=1000, increment=500
    )
    entries = list(flight.entries.order_by("pk"))
    calcutta_services.set_lots(actor=director_user, calcutta=calcutta, groups=[[e.pk] for e in entries])
    calcutta_services.set_order(actor=director_user, calcutta=calcutta, order=[1, 2])
    owners = [
        calcutta_services.register_bidder(actor=director_user, calcutta=calcutta, name=name)
        for name in ("@owner one", "owner two")
    ]
    step = calcutta_services.auctioneer_step
    step(actor=director_user, calcutta=calcutta, action="open")
    for number, owner in enumerate(owners, start=1):
        step(actor=director_user, calcutta=calcutta, action="open_next_lot")
        calcutta_services.place_bid(
            actor=director_user, calcutta=calcutta, lot_number=number, bidder=owner, amount=2500 * number
        )
        for action in ("going_once", "going_twice", "sell"):
            step(actor=director_user, calcutta=calcutta, action=action)
    step(actor=director_user, calcutta=calcutta, action="close")
    tournament_services.draw_flight(actor=director_user, flight=flight, seed=7)
    tournament_services.confirm_draw(actor=director_user, flight=flight)
    tournament_services.release_draw(actor=director_user, flight=flight)
    slot = flight.slots.get(result="ready")
    match_services.submit_report(
        actor=director_user, match=slot.match, method="final_score", scores=(7, 0), as_director=True
    )
    with translation.override("en"):
        header, rows, _text = read(web(director_user).get(_url("calcutta-settlement", pk=calcutta.pk)))
    assert header == ["Owner", "Paid in", "Won", "Net"]
    assert [row[0] for row in rows] == ["'@owner one", "owner two", "Total"]
    assert rows[-1][1] == "75.00"  # 25 + 50 paid in
    assert rows[-1][2] == "67.50"  # the pool less the house's 10 %, all to the one payout place
    assert web().get(_url("calcutta-settlement", pk=calcutta.pk)).status_code != 200  # an owner's money is private


def test_the_members_file_is_for_the_club_s_directors(club, director_user, member_user):
    membership = Membership.objects.get(player__user=member_user)
    membership.number = "M-7"
    membership.email = "m7@example.org"
    membership.rating = 1612.5
    membership.save()
    url = _url("club-members", slug=club.slug)
    assert web(member_user).get(url).status_code == 403
    with translation.override("en"):
        header, rows, _text = read(web(director_user).get(url))
    assert header == ["name", "email", "rating", "number"]
    assert [membership.player.name, "m7@example.org", "1612.50", "M-7"] in rows


def test_a_club_s_standings_by_season_and_its_rated_matches(club, director_user):
    event, flights = drawn_event(club, director_user, 4)
    play_all(director_user, [flights["main"]])
    with translation.override("en"):
        header, rows, _text = read(web().get(_url("club-standings", slug=club.slug)))
        assert header[:4] == ["Rank", "Player", "Season", "Points"]
        assert len(rows) == Membership.objects.filter(club=club, is_active=True).count()
        header, rows, _text = read(web().get(_url("club-rated-matches", slug=club.slug)))
        assert header[:4] == ["Played", "Variant", "Winner", "Loser"]
    assert web().get(_url("club-standings", slug=club.slug) + "?season=999").status_code == 404


def test_a_player_sets_their_own_federation_id_through_the_api(member_user, outsider_user, api_as):
    player = member_user.player
    url = f"/api/v1/players/{player.pk}/"
    assert api_as(outsider_user).patch(url, {"federation_id": "X-1"}, format="json").status_code == 403
    answer = api_as(member_user).patch(url, {"federation_id": "DBGV-77"}, format="json")
    assert answer.status_code == 200 and answer.json()["federation_id"] == "DBGV-77"
    player.refresh_from_db()
    assert player.federation_id == "DBGV-77"
