"""A stranger's probes of the round formats' API, each a request that once answered wrongly: the answer must
be a 4xx with a message saying what would work (in the caller's language), and nothing may be stored."""

import pytest
from django.urls import reverse

from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.tournaments.builders import make_event
from tests.tournaments.rounds_builders import open_tables, swiss_event
from tournaments import services
from tournaments.models import BracketChange, Flight, Pairing

pytestmark = pytest.mark.django_db


def _paired(api_as, club, director, n):
    event, flight = swiss_event(club, director, n)
    base = f"/api/v1/events/{club.slug}/{event.slug}/flights/{flight.slug}/"
    assert api_as(director).post(base + "rounds/", {}, format="json").status_code == 200
    return flight, base


def test_a_correction_whose_winner_contradicts_its_score_is_refused(api_as, club, director_user):
    """Winner B with a 7–1 score for A once stored A as the winner while the preview had shown B winning."""
    flight, base = _paired(api_as, club, director_user, 4)
    table = open_tables(flight)[0]
    body = {"winner_side": 1, "outcome": "played", "score_a": flight.length, "score_b": 1, "comment": "misread"}
    answer = api_as(director_user).post(base + f"pairings/{table.pk}/correction/", body, format="json")
    assert answer.status_code == 400
    assert answer.json()["field"] == "winner_side"
    table.refresh_from_db()
    assert table.result == "pending" and table.winner_id is None
    assert not BracketChange.objects.filter(flight=flight).exists()
    german = api_as(director_user).post(
        base + f"pairings/{table.pk}/correction/", body, format="json", HTTP_ACCEPT_LANGUAGE="de"
    )
    assert german.status_code == 400
    assert "Punkte" in german.json()["detail"]


def test_a_correction_whose_winner_agrees_with_its_score_still_applies(api_as, club, director_user):
    flight, base = _paired(api_as, club, director_user, 4)
    table = open_tables(flight)[0]
    body = {"winner_side": 1, "outcome": "played", "score_a": 1, "score_b": flight.length, "comment": "misread"}
    answer = api_as(director_user).post(base + f"pairings/{table.pk}/correction/", body, format="json")
    assert answer.status_code == 200
    assert answer.json()["winner"] == table.entry_b_id


def test_the_correction_preview_of_a_bye_is_refused_like_the_correction(api_as, club, director_user):
    """The preview once showed the bye turned into a double forfeit, a change the correction itself refuses."""
    flight, base = _paired(api_as, club, director_user, 5)
    bye = Pairing.objects.get(flight=flight, round=1, entry_b__isnull=True)
    url = base + f"pairings/{bye.pk}/correction/"
    preview = api_as(director_user).post(url + "preview/", {"winner_side": 1}, format="json")
    walkover = {"winner_side": 1, "outcome": "walkover", "comment": "x"}
    correction = api_as(director_user).post(url, walkover, format="json")
    assert preview.status_code == correction.status_code == 409
    assert preview.json()["code"] == correction.json()["code"] == "no_match"
    german = api_as(director_user).post(url + "preview/", {}, format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert german.json()["detail"] == "Ein Freilos hat kein Match, das man korrigieren könnte."


@pytest.mark.parametrize("rounds", [{"0": 3}, {"-1": 3}, {str(2**63): 3}, {str(n): 3 for n in range(1, 2001)}])
def test_match_lengths_by_round_name_real_rounds(api_as, club, director_user, rounds):
    """Lengths for round 0, -1 or 2**63 (or thousands of rounds) were once stored as the flight's settings."""
    event = make_event(club, director_user)
    url = f"/api/v1/events/{club.slug}/{event.slug}/flights/"
    answer = api_as(director_user).post(url, {"name": "Main", "round_lengths": rounds}, format="json")
    assert answer.status_code == 400
    assert answer.json()["field"] == "round_lengths"
    assert not Flight.objects.filter(event=event).exists()


def test_a_length_for_a_real_round_is_kept(api_as, club, director_user):
    event = make_event(club, director_user)
    url = f"/api/v1/events/{club.slug}/{event.slug}/flights/"
    answer = api_as(director_user).post(url, {"name": "Main", "round_lengths": {"3": 9}}, format="json")
    assert answer.status_code == 201
    assert answer.json()["round_lengths"] == {"3": 9}


def test_another_clubs_director_reaches_no_table_entry_or_round_of_this_flight(api_as, club, director_user):
    """IDOR: a stranger directing their own club uses this flight's ids, in this flight's URLs and in their own."""
    flight, base = _paired(api_as, club, director_user, 4)
    other = ClubFactory()
    stranger = MembershipFactory(club=other, role="admin").player.user
    own_flight, own_base = _paired(api_as, other, stranger, 4)
    table = open_tables(flight)[0]
    api = api_as(stranger)
    ours = [[table.entry_a_id, table.entry_b_id]]
    body = {"winner_side": 0, "score_a": flight.length, "score_b": 1, "comment": "x"}
    assert api.post(base + "rounds/", {}, format="json").status_code == 403
    assert api.post(base + "rounds/current/edit/", {"pairs": ours}, format="json").status_code == 403
    assert api.post(base + f"pairings/{table.pk}/correction/", body, format="json").status_code == 403
    assert api.post(base + f"entries/{table.entry_a_id}/drop/", {}, format="json").status_code == 403
    assert api.post(own_base + f"pairings/{table.pk}/correction/", body, format="json").status_code == 404
    assert api.post(own_base + f"entries/{table.entry_a_id}/drop/", {}, format="json").status_code == 404
    mixed = ours + [[p.entry_a_id, p.entry_b_id] for p in open_tables(own_flight)]
    assert api.post(own_base + "rounds/current/edit/", {"pairs": mixed}, format="json").status_code == 400
    table.refresh_from_db()
    assert table.result == "pending"


@pytest.mark.parametrize(
    "pairs",
    [
        "x" * 1_000_000,
        [[1, 2]] * 10_000,
        [[2**63, 1]],
        [[-1, 1]],
        [[None, 1]],
        {"a": 1},
    ],
)
def test_malformed_pairs_are_refused(api_as, club, director_user, pairs):
    flight, base = _paired(api_as, club, director_user, 4)
    before = list(Pairing.objects.filter(flight=flight).values_list("pk", flat=True))
    answer = api_as(director_user).post(base + "rounds/current/edit/", {"pairs": pairs}, format="json")
    assert answer.status_code == 400
    assert list(Pairing.objects.filter(flight=flight).values_list("pk", flat=True)) == before


def test_nan_and_infinity_in_pairs_are_refused(api_as, club, director_user):
    flight, base = _paired(api_as, club, director_user, 4)
    for raw in ('{"pairs": [[NaN, 1]]}', '{"pairs": [[1e999999, 1]]}'):
        answer = api_as(director_user).post(base + "rounds/current/edit/preview/", raw, content_type="application/json")
        assert answer.status_code == 400


def test_the_same_entry_twice_or_two_byes_are_refused_in_german(api_as, club, director_user):
    flight, base = _paired(api_as, club, director_user, 5)
    ids = [e for p in open_tables(flight) for e in (p.entry_a_id, p.entry_b_id)]
    ids += [Pairing.objects.get(flight=flight, entry_b__isnull=True).entry_a_id]
    twice = [[ids[0], ids[0]], [ids[1], ids[2]], [ids[3], None]]
    two_byes = [[ids[0], None], [ids[1], None], [ids[2], ids[3]]]
    for pairs in (twice, two_byes):
        answer = api_as(director_user).post(
            base + "rounds/current/edit/preview/", {"pairs": pairs}, format="json", HTTP_ACCEPT_LANGUAGE="de"
        )
        assert answer.status_code == 400
        assert answer.json()["detail"] == "Setze jeden Spieler der Runde genau einmal."


@pytest.mark.parametrize("path", ["rounds/0/", f"rounds/{2**63}/", "rounds/abc/", "pairings/abc/correction/"])
def test_out_of_range_path_ids_are_not_found(api_as, club, director_user, path):
    flight, base = _paired(api_as, club, director_user, 4)
    assert api_as(director_user).get(base + path).status_code in (404, 405)


@pytest.mark.parametrize("shown", ["²", "١٢"])
@pytest.mark.parametrize("sheet", [{}, {"print": "1"}])
def test_the_public_round_page_reads_only_plain_round_numbers(client, club, director_user, shown, sheet):
    """`?round=²` passed str.isdigit, which int() then refused: a server error for anyone, signed in or not."""
    event, flight = swiss_event(club, director_user, 4)
    services.start_round(actor=director_user, flight=flight)
    page = reverse("tournaments:flight-bracket", args=[club.slug, event.slug, flight.slug])
    answer = client.get(page, {"round": shown, **sheet})
    assert answer.status_code == 200
    assert answer.context["round_number"] == 1


@pytest.mark.parametrize("number", ["²", "9" * 5000])
def test_the_repairing_page_refuses_numbers_int_cannot_read(client, club, director_user, number):
    """A table's player posted as "²" or as 5000 digits (more than int() reads) was a server error; now the
    page says which players to pair, and the round stays as it was."""
    event, flight = swiss_event(club, director_user, 4)
    services.start_round(actor=director_user, flight=flight)
    before = list(Pairing.objects.filter(flight=flight).values_list("pk", "entry_a", "entry_b"))
    client.force_login(director_user)
    edit = reverse("tournaments:flight-edit-round", args=[club.slug, event.slug, flight.slug])
    table = open_tables(flight)[0]
    for row in ({"a_1": number, "b_1": str(table.entry_b_id)}, {"a_1": str(table.entry_a_id), "b_1": number}):
        answer = client.post(edit, {**row, "confirm": "1"}, HTTP_ACCEPT_LANGUAGE="de")
        assert answer.status_code == 200
        assert answer.context["error"]
    assert list(Pairing.objects.filter(flight=flight).values_list("pk", "entry_a", "entry_b")) == before


def test_entering_players_by_an_unreadable_number_names_them_instead_of_failing(client, club, director_user):
    """`players=²` passed str.isdigit and then made int() raise: a server error on the flight's entry form."""
    event = make_event(club, director_user)
    flight = services.add_flight(actor=director_user, event=event, name="Main")
    client.force_login(director_user)
    url = reverse("tournaments:flight-register", args=[club.slug, event.slug, flight.slug])
    answer = client.post(url, {"players": ["²"]})
    assert answer.status_code == 302
    assert not flight.entries.exists()


@pytest.mark.parametrize("field", ["count", "grace_minutes", "board"])
def test_the_boards_page_ignores_numbers_int_cannot_read(client, club, director_user, field):
    event = make_event(club, director_user)
    client.force_login(director_user)
    url = reverse("tournaments:calling", args=[club.slug, event.slug])
    post = {"do": "setup", "count": "4", "grace_minutes": "5", field: "²"}
    assert client.post(url, post).status_code in (302, 200)
    assert client.post(url, {"do": "free", "board": "9" * 5000}).status_code == 404


def test_board_features_name_real_boards_only(api_as, club, director_user):
    """Tags for board "²" were a server error, and 10,000 tags for boards that do not exist one query each."""
    event = make_event(club, director_user)
    url = f"/api/v1/events/{club.slug}/{event.slug}/boards/"
    tags = {"²": ["clock"], str(2**63): ["clock"], "1": ["step-free"]} | {str(n): ["x"] for n in range(5, 10_005)}
    answer = api_as(director_user).put(url, {"count": 4, "tags": tags}, format="json")
    assert answer.status_code == 200
    assert [line["board"]["tags"] for line in answer.json()["boards"]] == [["step-free"], [], [], []]


def test_groups_and_a_double_round_robin_can_be_created_through_the_api(api_as, club, director_user):
    """The flight page offered groups and a double round robin, the API took neither: every groups flight
    was refused for a group size the API had no field for."""
    event = make_event(club, director_user)
    api = api_as(director_user)
    url = f"/api/v1/events/{club.slug}/{event.slug}/flights/"
    groups = api.post(url, {"name": "Groups", "format": "groups", "group_size": 4, "advance": 2}, format="json")
    assert groups.status_code == 201
    assert (groups.json()["group_size"], groups.json()["advance"], groups.json()["cycles"]) == (4, 2, 1)
    double = api.post(url, {"name": "Double", "format": "round_robin", "cycles": 2}, format="json")
    assert double.status_code == 201 and double.json()["cycles"] == 2
    too_many = {"name": "Bad", "format": "groups", "group_size": 4, "advance": 4}
    refused = api.post(url, too_many, format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert refused.status_code == 400 and refused.json()["field"] == "advance"
    assert refused.json()["detail"] == "Aus jeder Gruppe können 1 bis 3 Spieler weiterkommen."
    knockout_twice = api.post(url, {"name": "KO", "cycles": 2}, format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert knockout_twice.status_code == 400 and knockout_twice.json()["field"] == "cycles"
    assert knockout_twice.json()["detail"].startswith("Nur ")
    assert api.post(url, {"name": "Huge", "format": "groups", "group_size": 2**63}, format="json").status_code == 400
    slugs = sorted(Flight.objects.filter(event=event).values_list("slug", flat=True))
    assert slugs == ["double", "groups", "groups-cut"]  # groups bring their knockout along


@pytest.mark.parametrize(
    ("body", "german"),
    [
        ({"round_lengths": {"x": 3}}, 'Gib die Längen nach Runde an, etwa {"3": 9}.'),
        ({"round_lengths": {"0": 3}}, "Runden sind von 1 bis 999 nummeriert."),
        ({"feed_rule": "cut", "source": "main"}, "Ein Cut ist ein K.-o.-Hauptfeld"),
    ],
)
def test_flight_refusals_read_in_german(api_as, club, director_user, body, german):
    """These refusals once came back in English to a German caller (no German entry for their text)."""
    event = make_event(club, director_user)
    services.add_flight(actor=director_user, event=event, name="Main", slug="main")
    url = f"/api/v1/events/{club.slug}/{event.slug}/flights/"
    answer = api_as(director_user).post(url, {"name": "Second", **body}, format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert answer.status_code == 400
    assert answer.json()["detail"].startswith(german)
