"""Deals through the form and the API, and taking back the last game: who may, only the last one, and the
confirmation step a page asks for before anything changes (services, pages, API)."""

import pytest
from django.utils import translation

from base.errors import Conflict, NotAllowed
from chouette import services
from chouette.models import LedgerEntry, SessionEvent
from tests.chouette.factories import table
from tests.chouette.test_views import page, signed_in
from tests.clubs.factories import MembershipFactory

pytestmark = pytest.mark.django_db




def api_url(session, tail=""):
    return f"/api/v1/chouette/sessions/{session.pk}/{tail}"


def ledger(session, number):
    rows = LedgerEntry.objects.filter(session=session, game_number=number).select_related("player")
    return {e.player.name: (int(e.points), e.deal) for e in rows}


# --- deals ----------------------------------------------------------------------------------------------------


def test_a_deal_entered_on_the_form_is_its_own_ledger_line_and_the_others_play_on(club):
    session, p, _ = table(club)
    client = signed_in(p["B"].user)
    form = {
        "expected_number": "1",
        f"cube_{p['B'].pk}": "",
        f"cube_{p['C'].pk}": "box:take",
        f"cube_{p['D'].pk}": "",
        f"deal_{p['C'].pk}": "2",  # the box doubled C, C took at 2, then settled for 2
        "winner": "box",
        "kind": "single",
    }
    with translation.override("en"):
        response = client.post(page(session, "games/"), form, follow=True)
    assert b"Game entered." in response.content
    assert ledger(session, 1) == {"B": (-1, False), "C": (2, True), "D": (-1, False), "A": (0, False)}
    assert "C deal: +2" in response.content.decode()  # the game's row says it was a deal
    event = SessionEvent.objects.get(session=session, game_number=1)
    assert event.payload["deals"] == [{"player": p["C"].pk, "points": 2, "after": 1}]


def test_a_deal_the_cube_does_not_allow_is_refused_on_the_form_and_nothing_is_stored(club):
    session, p, _ = table(club)
    client = signed_in(p["B"].user)
    form = {"expected_number": "1", f"cube_{p['C'].pk}": "", f"deal_{p['C'].pk}": "4", "winner": "team"}
    with translation.override("en"):
        response = client.post(page(session, "games/"), form, follow=True).content.decode()
    assert "C&#x27;s cube is at 1: a deal is worth at most 3 points either way" in response
    assert "from -3 to +3" in response
    assert not SessionEvent.objects.filter(session=session, kind="game").exists()


def test_the_api_takes_deals_in_order_with_the_doubles_and_refuses_them_where_the_rules_say_no(api_as, club):
    session, p, _ = table(club)
    client = api_as(p["A"].user)
    body = {
        "events": [
            {"doubler": "box", "responses": [{"player": p["C"].pk, "response": "take"}]},
            {"doubler": "team", "responses": [{"player": p["C"].pk, "response": "take"}]},
        ],
        "deals": [{"player": p["C"].pk, "points": -7, "after": 1}],  # at cube 2: at most 6
        "winner": "team",
    }
    with translation.override("en"):
        refused = client.post(api_url(session, "games/"), body, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "deal_too_large"
    assert "from -6 to +6" in refused.json()["detail"]
    body["deals"] = [{"player": p["C"].pk, "points": -7}]  # after both doubles (cube 4): at most 12
    answer = client.post(api_url(session, "games/"), body, format="json")
    assert answer.status_code == 201
    lines = {line["name"]: (line["points"], line["deal"]) for line in answer.json()["ledger"]}
    assert lines["C"] == ("-7.0", True) and lines["B"] == ("1.0", False)

    strict, q, _ = table(club, names=("E", "F", "G"), rules={"deals": False})
    with translation.override("en"):
        no = api_as(q["E"].user).post(
            api_url(strict, "games/"), {"deals": [{"player": q["G"].pk, "points": 1}], "winner": "team"}, format="json"
        )
    assert no.status_code == 400 and no.json()["code"] == "no_deals"
    assert "plays without deals" in no.json()["detail"]


def test_a_deal_with_the_box_or_a_stranger_is_refused_naming_them(api_as, club):
    session, p, _ = table(club)
    with translation.override("en"):
        refused = api_as(p["A"].user).post(
            api_url(session, "games/"), {"deals": [{"player": p["A"].pk, "points": 1}], "winner": "team"}, format="json"
        )
    assert refused.status_code == 400 and refused.json()["code"] == "deal_not_in_team"
    assert refused.json()["detail"].startswith("A is not on the team this game")


def test_a_correction_replays_a_deal_and_its_page_shows_it(club):
    session, p, director = table(club)
    services.record_game(actor=director, session=session, game={"winner": "team"})
    services.record_game(actor=director, session=session, game={"winner": "box"})  # B box, C captain: A at the end
    services.correct_game(
        actor=director,
        session=session,
        number=1,
        game={"deals": [{"player": p["B"].pk, "points": -1}], "winner": "team"},  # the captain dealt
        reason="B settled",
    )
    # B dealt, C captained and beat the box: C took the box, B went to the bottom before the old box A
    assert ledger(session, 1) == {"B": (-1, True), "C": (1, False), "D": (1, False), "A": (-1, False)}
    session.refresh_from_db()
    assert ledger(session, 2)["C"][0] > 0  # game 2 was replayed with C as box (the box won it)
    form = signed_in(p["B"].user).get(page(session, "games/1/correct/")).content.decode()
    assert f'name="deal_{p["B"].pk}" value="-1"' in form and '<details class="cube-action" open>' in form


# --- take back ------------------------------------------------------------------------------------------------


def test_only_the_one_who_entered_the_game_its_box_or_a_director_take_it_back(club):
    session, p, director = table(club)
    services.record_game(actor=p["C"].user, session=session, game={"winner": "team"})  # C entered, A was box
    for stranger in (p["B"].user, p["D"].user):
        with translation.override("en"), pytest.raises(NotAllowed) as caught:
            services.undo_last_game(actor=stranger, session=session)
        assert "Only C (who entered game 1), A (the box of that game) or a club director" in str(caught.value.message)
        assert "correct game 1 instead" in str(caught.value.message)
    assert SessionEvent.objects.get(session=session, game_number=1).is_current
    for allowed in (p["C"].user, p["A"].user, director):
        services.undo_last_game(actor=allowed, session=session, expected_number=1)
        assert not LedgerEntry.objects.filter(session=session).exists()
        services.record_game(actor=p["C"].user, session=session, game={"winner": "team"})


def test_only_the_last_game_is_taken_back_and_an_older_one_is_sent_to_the_correction(club):
    session, p, director = table(club)
    services.record_game(actor=director, session=session, game={"winner": "team"})
    services.record_game(actor=director, session=session, game={"winner": "box"})
    with translation.override("en"), pytest.raises(Conflict) as caught:
        services.undo_last_game(actor=director, session=session, expected_number=1)
    assert "Game 1 is not the last game (the last is game 2)" in str(caught.value.message)
    assert "Correct game 1 instead" in str(caught.value.message)
    client = signed_in(director)
    with translation.override("en"):
        preview = client.get(page(session, "games/undo/") + "?expected_number=1").content.decode()
    assert "Game 1 is not the last game" in preview and page(session, "games/1/correct/") in preview
    assert 'name="confirm"' not in preview


def test_the_page_asks_first_and_says_what_leaves_the_ledger(club):
    session, p, director = table(club)
    client = signed_in(p["A"].user)
    client.post(page(session, "games/"), {"winner": "team", "expected_number": "1"})
    with translation.override("en"):
        table_page = client.get(page(session)).content.decode()
    link = page(session, "games/undo/") + "?expected_number=1"
    assert link in table_page and "Take back game 1…" in table_page
    assert table_page.index("Enter the game") < table_page.index("Take back game 1")  # below, not above the form
    with translation.override("en"):
        preview = client.get(link).content.decode()
    assert "Take back game 1?" in preview and "This removes from the ledger" in preview
    assert "A</span> (box):\n  -3" in preview and "B</span>:\n  +1" in preview
    assert LedgerEntry.objects.filter(session=session).count() == 4  # looking changed nothing
    # a POST without the confirmation (an old page's button) only shows the question again
    client.post(page(session, "games/undo/"), {"expected_number": "1"})
    assert LedgerEntry.objects.filter(session=session).count() == 4
    with translation.override("en"):
        done = client.post(
            page(session, "games/undo/"), {"expected_number": "1", "confirm": "1"}, follow=True
        ).content.decode()
    assert "Game 1 taken back." in done and not LedgerEntry.objects.filter(session=session).exists()


def test_a_player_who_may_not_take_it_back_is_told_who_may_and_offered_the_correction(club):
    session, p, director = table(club)
    services.record_game(actor=director, session=session, game={"winner": "team"})
    client = signed_in(p["D"].user)
    with translation.override("en"):
        preview = client.get(page(session, "games/undo/")).content.decode()
        refused = client.post(page(session, "games/undo/"), {"expected_number": "1", "confirm": "1"})
    assert "A (the box of that game) or a club director can take it back" in preview
    assert 'name="confirm"' not in preview and page(session, "games/1/correct/") in preview
    assert refused.status_code == 403
    assert SessionEvent.objects.get(session=session, game_number=1).is_current


def test_the_api_refuses_a_take_back_by_a_crew_member_and_of_an_older_game(api_as, club):
    session, p, director = table(club)
    services.record_game(actor=p["B"].user, session=session, game={"winner": "team"})
    services.record_game(actor=p["B"].user, session=session, game={"winner": "team"})  # B box now, entered by B
    with translation.override("en"):
        crew = api_as(p["D"].user).post(api_url(session, "games/undo/"), {"expected_number": 2}, format="json")
        older = api_as(p["B"].user).post(api_url(session, "games/undo/"), {"expected_number": 1}, format="json")
    assert crew.status_code == 403 and crew.json()["code"] == "not_allowed_to_take_back"
    assert "Only B (who entered game 2), B (the box of that game)" in crew.json()["detail"]
    assert older.status_code == 409 and "Correct game 1 instead" in older.json()["detail"]
    member = MembershipFactory(club=club).player.user  # not at the table: not even asked
    assert api_as(member).post(api_url(session, "games/undo/"), {}, format="json").status_code == 403
    assert api_as(p["B"].user).post(api_url(session, "games/undo/"), {}, format="json").status_code == 200


def test_the_take_back_page_and_a_deal_refusal_read_in_german(club):
    from django.core.management import call_command

    call_command("compile_translations")
    session, p, _ = table(club)
    client = signed_in(p["A"].user)
    with translation.override("en"):  # the request activates German; leave the thread as it was for later tests
        client.post("/i18n/setlang/", {"language": "de", "next": "/"})
        form = {"expected_number": "1", f"cube_{p['C'].pk}": "", f"deal_{p['C'].pk}": "-4", "winner": "team"}
        refused = client.post(page(session, "games/"), form, follow=True).content.decode()
        client.post(page(session, "games/"), {"winner": "team", "expected_number": "1"})
        preview = client.get(page(session, "games/undo/")).content.decode()
    assert "gib einen Deal von -3 bis +3 ein" in refused
    assert "Spiel 1 zurücknehmen?" in preview and "Ja, Spiel 1 zurücknehmen" in preview
