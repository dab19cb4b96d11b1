"""A director enters many players: a checklist of the club's members and a pasted list of names, matched to
the members (case, accents and spaces ignored; a name fitting two members is ambiguous), shown on a preview
page before anything is entered, then entered all or none through the entry service."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from base.api import Conflict
from tests.clubs.factories import MembershipFactory
from tournaments import services
from tournaments.core.names import match_names, name_key, split_names
from tournaments.forms import EntryListForm

from .builders import make_event, members

MEMBERS = [(1, "José Pérez"), (2, "Anna Schmidt"), (3, "Anna  Schmidt"), (4, "Ben Okafor"), (5, "Zoë Brandt")]


def test_a_name_matches_whatever_its_case_accents_and_spaces():
    assert name_key("  JOSE   perez ") == name_key("José Pérez") == "jose perez"
    found = match_names(["jose perez", "BEN OKAFOR", "  Zoe   Brandt "], MEMBERS)
    assert found.matched == [("jose perez", 1), ("BEN OKAFOR", 4), ("  Zoe   Brandt ", 5)]
    assert found.is_clean


def test_a_name_of_two_members_is_ambiguous_and_an_unknown_name_is_reported_not_guessed():
    found = match_names(["anna schmidt", "Carla Nobody", "Ben Okafo"], MEMBERS)
    assert found.matched == []
    assert found.ambiguous == [("anna schmidt", (2, 3))]
    assert found.unknown == ["Carla Nobody", "Ben Okafo"]
    assert not found.is_clean


def test_members_already_entered_are_set_apart_and_a_member_named_twice_counts_once():
    found = match_names(["Ben Okafor", "José Pérez", "jose perez"], MEMBERS, entered={4})
    assert found.already == [("Ben Okafor", 4)]
    assert found.ids == [1]


def test_a_pasted_text_splits_on_lines_and_commas_and_drops_blanks_and_repeats():
    text = "José Pérez, Ben Okafor\n\n  zoë   brandt  ;\r\nJOSE PEREZ,"
    assert split_names(text) == ["José Pérez", "Ben Okafor", "zoë brandt"]


@pytest.mark.django_db
def test_the_form_joins_ticked_members_and_pasted_names(club):
    players = members(club, 4)
    players[0].name, players[1].name = "Jürgen Groß", "Eva Lind"
    form = EntryListForm(
        {"players": [str(players[2].pk), str(players[3].pk)], "names": "jurgen  GROSS\nEva Lind, Nobody"},
        members=players,
        entered={players[3].pk},
    )
    assert form.is_valid(), form.errors
    assert form.matching.ids == [players[2].pk, players[0].pk, players[1].pk]
    assert [pk for _name, pk in form.matching.already] == [players[3].pk]
    assert form.matching.unknown == ["Nobody"]


@pytest.mark.django_db
def test_the_form_refuses_an_id_that_is_no_member_offered_and_an_empty_list(club):
    players = members(club, 2)
    assert not EntryListForm({"players": ["99999"]}, members=players, entered=()).is_valid()
    empty = EntryListForm({"names": " \n , "}, members=players, entered=())
    assert not empty.is_valid()
    assert "Tick the players to enter or paste their names." in empty.non_field_errors()


@pytest.mark.django_db
def test_the_service_enters_all_or_none(club, director_user):
    event = make_event(club, director_user)
    main = services.add_flight(actor=director_user, event=event, name="Main", entry_fee=10)
    players = members(club, 3)
    services.register(actor=director_user, flight=main, player=players[2])
    with pytest.raises(Conflict) as refused:
        services.register_all(actor=director_user, flight=main, players=players)
    assert "Nobody was entered." in str(refused.value.detail) and players[2].name in str(refused.value.detail)
    assert main.entries.count() == 1  # the two that could have been entered were not
    entered = services.register_all(actor=director_user, flight=main, players=players[:2])
    assert [e.player for e in entered] == players[:2] and {e.fee for e in entered} == {10}


def _url(club, event, flight="main"):
    return reverse("tournaments:flight-register", args=[club.slug, event.slug, flight])


@pytest.mark.django_db
def test_the_event_page_lists_every_member_with_those_entered_marked_and_a_hidden_filter(client, club, director_user):
    event = make_event(club, director_user)
    main = services.add_flight(actor=director_user, event=event, name="Main")
    players = members(club, 3)
    services.register(actor=director_user, flight=main, player=players[0])
    client.force_login(director_user)
    page = client.get(event.get_absolute_url()).content.decode()
    box = page[page.index('id="id_members_main"') :].split("</ul>")[0]
    assert f'value="{players[0].pk}" checked disabled> {players[0].name} <small class="muted">(entered)' in box
    assert f'value="{players[1].pk}">' in box
    assert '<p class="member-filter" hidden>' in page  # shown by the script only: without it, a plain checklist
    assert "tournaments/entry_list" in page and "<script>" not in page


@pytest.mark.django_db
def test_pasted_names_are_previewed_first_and_entered_only_on_confirmation(client, club, director_user):
    event = make_event(club, director_user)
    main = services.add_flight(actor=director_user, event=event, name="Main")
    players = members(club, 4)
    players[0].name = "José Pérez"
    players[0].save()
    twin = MembershipFactory(club=club, player__name=players[1].name).player
    services.register(actor=director_user, flight=main, player=players[3])
    client.force_login(director_user)
    names = f"jose PEREZ, {players[1].name}\n{players[2].name.upper()}\nCarla Nobody\n{players[3].name}"
    page = client.post(_url(club, event), {"names": names}).content.decode()
    assert main.entries.count() == 1  # nothing entered by the preview
    assert "2 players to enter" in page and "José Pérez" in page
    assert f"“{players[1].name}”: 2 members" in page and f'value="{twin.pk}"' in page
    assert "Carla Nobody" in page.split('class="unknown"')[1].split("</ul>")[0]
    assert players[3].name in page.split('class="already"')[1].split("</ul>")[0]
    assert "Enter these 2 players" in page
    done = client.post(
        _url(club, event), {"players": [players[0].pk, players[2].pk], "confirmed": "1"}, follow=True
    ).content.decode()
    assert "2 players entered in Main" in done
    assert set(main.entries.values_list("player_id", flat=True)) == {players[0].pk, players[2].pk, players[3].pk}


@pytest.mark.django_db
def test_a_confirmation_naming_a_player_entered_meanwhile_enters_nobody(client, club, director_user):
    event = make_event(club, director_user)
    main = services.add_flight(actor=director_user, event=event, name="Main")
    players = members(club, 3)
    services.register(actor=director_user, flight=main, player=players[1])
    client.force_login(director_user)
    page = client.post(
        _url(club, event), {"players": [p.pk for p in players], "confirmed": "1"}, follow=True
    ).content.decode()
    assert "Nobody was entered." in page and main.entries.count() == 1


@pytest.mark.django_db
def test_ticking_one_of_two_namesakes_on_the_preview_settles_the_name(client, club, director_user):
    event = make_event(club, director_user)
    services.add_flight(actor=director_user, event=event, name="Main")
    anna = members(club, 1)[0]
    twin = MembershipFactory(club=club, player__name=anna.name).player
    client.force_login(director_user)
    page = client.post(_url(club, event), {"names": anna.name, "players": [twin.pk]}).content.decode()
    assert 'class="ambiguous"' not in page and "Enter this player" in page


@pytest.mark.django_db
def test_the_preview_takes_as_many_queries_for_nine_names_as_for_two(client, club, director_user):
    event = make_event(club, director_user)
    services.add_flight(actor=director_user, event=event, name="Main")
    players = members(club, 12)
    client.force_login(director_user)

    def queries(names):
        with CaptureQueriesContext(connection) as captured:
            response = client.post(_url(club, event), {"names": "\n".join(p.name for p in names)})
        assert response.status_code == 200
        return len(captured)

    assert queries(players[:2]) == queries(players[:9])

    def page_queries():
        with CaptureQueriesContext(connection) as captured:
            assert client.get(event.get_absolute_url()).status_code == 200
        return len(captured)

    before = page_queries()
    members(club, 5)
    assert page_queries() == before  # the checklist grows, the queries do not


@pytest.mark.django_db
def test_the_preview_reads_in_german(client, club, director_user):
    from django.utils import translation

    event = make_event(club, director_user)
    services.add_flight(actor=director_user, event=event, name="Main")
    players = members(club, 2)
    client.force_login(director_user)
    with translation.override("en"):  # the middleware switches the thread; leave it as it was
        page = client.post(
            _url(club, event),
            {"names": f"{players[0].name}, {players[1].name}, Niemand"},
            headers={"accept-language": "de"},
        ).content.decode()
    assert "2 Spieler einzutragen" in page and "Diese 2 Spieler eintragen" in page
    assert "Namen, die auf kein Mitglied passen (nicht eingetragen)" in page and "Alle oder keiner" in page
