"""Every refusal reads the same way: each code a pure core raises has an English and a German message, and the
API answers it as `{code, detail, field}` with 409 for a state the request cannot change, 400 for bad input.

The codes are read from the source (every `SomeDomainError("code", ...)` in the apps' code), so a new raise site
without a message fails here, not in front of a user.
"""

import ast
import re

import pytest
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils import translation
from rest_framework import exceptions

from backgammon.verification import CODES, WARNING_CODES
from base import messages
from base.api import Conflict, exception_handler
from base.errors import DomainError, Refusal
from games.messages import VERIFICATION
from tests.paths import REPO
from tests.tournaments.builders import make_event
from tournaments import services

APP_CODE = [
    "accounts",
    "backgammon",
    "base",
    "calcutta",
    "chouette",
    "clubs",
    "games",
    "notifications",
    "points",
    "ratings",
    "tournaments",
]


def _error_classes() -> dict[str, type[DomainError]]:
    found, todo = {}, [DomainError]
    while todo:
        klass = todo.pop()
        for sub in klass.__subclasses__():
            found[sub.__name__] = sub
            todo.append(sub)
    return found


CLASSES = _error_classes()


# Functions that build a core error from their arguments, as the class they build.
BUILDERS = {"_err": "ChouetteError"}
# Errors that take the message first, with one fixed code: counted as that code of the class named here.
READERS = {
    "NardyRecordError": ("NardyError", "format"),
    "DaveRecordError": ("DaveError", "format"),
    "NotationError": ("NardyError", "illegal_move"),
}


def _raise_sites() -> set[tuple[str, str]]:
    """(class name, code) of every construction of a core error with a literal code in the apps' code."""
    sites = set()
    for app in APP_CODE:
        for source in (REPO / app).rglob("*.py"):
            if "migrations" in source.parts:
                continue
            for node in ast.walk(ast.parse(source.read_text())):
                if not isinstance(node, ast.Call) or not node.args:
                    continue
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                name = BUILDERS.get(name, name)
                if name in READERS:
                    sites.add(READERS[name])
                    continue
                first = node.args[0]
                if name in CLASSES and isinstance(first, ast.Constant) and isinstance(first.value, str):
                    sites.add((name, first.value))
    return sites


SITES = _raise_sites()
# A verifier's private error (`_GameError`) stops a replay inside it and never leaves it: not a core's refusal.
# The services' refusals (base.errors.Refusal and its kinds) carry their own translated message: not a core's.
CORES = {
    name: klass
    for name, klass in CLASSES.items()
    if name not in READERS and not name.startswith("_") and not issubclass(klass, Refusal)
}
CODES_BY_CLASS = sorted(SITES | {(name, code) for name, klass in CORES.items() for code in klass.conflicts})


def test_the_scan_finds_every_core_and_its_codes():
    assert {"ScoringError", "BracketError", "RecordFormatError", "IdFormatError", "CalcuttaError"} <= set(CLASSES)
    assert {"ChouetteError", "LadderError", "NumberError"} <= set(CLASSES)
    by_class = {name for name, _ in SITES}
    assert by_class == set(CORES), "a DomainError subclass that nothing raises, or a raise the scan misses"
    assert len(SITES) > 230


@pytest.mark.parametrize("name", sorted(CORES))
def test_every_conflict_code_is_raised_somewhere(name):
    assert CLASSES[name].conflicts <= {code for klass, code in SITES if klass == name}


@pytest.mark.parametrize("name, code", CODES_BY_CLASS)
def test_every_code_is_snake_case_and_has_an_english_and_a_german_message(name, code):
    assert re.fullmatch(r"[a-z][a-z0-9_]*", code)
    template = messages.template(CLASSES[name], code)
    assert template is not None, f"{name} {code!r} has no message"
    with translation.override("en"):
        english = str(template)
    with translation.override("de"):
        german = str(template)
    assert english and german != english, f"{name} {code!r} has no German message"
    assert sorted(re.findall(r"%\((\w+)\)", german)) == sorted(re.findall(r"%\((\w+)\)", english))


def _refusal(name: str, code: str) -> tuple[DomainError, str]:
    """The error as a core raises it, with every param its message names, and its English message."""
    klass = CLASSES[name]
    template = str(messages.template(klass, code))
    params = dict.fromkeys(re.findall(r"%\((\w+)\)", template), 7)
    params.pop("line", None)  # RecordFormatError takes the line as an argument of its own
    error = klass(code, "The core's English words.", **params)
    error.field = "amount"
    return error, template


@pytest.mark.parametrize("name, code", CODES_BY_CLASS)
def test_every_code_answers_its_status_with_the_translated_text(name, code):
    error, template = _refusal(name, code)
    with translation.override("de"):
        response = exception_handler(error, {})
    conflict = code in CLASSES[name].conflicts
    assert response.status_code == (409 if conflict else 400)
    body = response.data
    assert (body["code"], body["field"]) == (code, "amount")
    with translation.override("de"):
        expected = messages.translate(error)
    assert body["detail"] == expected and body["detail"] != "The core's English words."
    if not conflict:
        assert body["errors"] == {"amount": [expected]}


def test_every_verification_code_reads_as_words_on_the_record_page():
    assert set(VERIFICATION) == set(CODES) | set(WARNING_CODES)


def test_a_message_falls_back_to_the_cores_words_when_it_cannot_be_filled():
    scoring = CLASSES["ScoringError"]
    assert messages.translate(scoring("no_deciding_game", "The core's words.")) == "The core's words."
    assert messages.translate(scoring("no_such_code", "Other words.")) == "Other words."
    with translation.override("de"):
        assert messages.translate(scoring("bad_cube", "…", cube=3)) == "Ein Doppelwürfel zeigt 1, 2, 4, 8, … – nicht 3."


# --- the handler, for the errors the framework and the services raise ----------------------------------------


def test_a_django_validation_error_answers_with_its_fields_and_its_code():
    response = exception_handler(
        DjangoValidationError({"name": [DjangoValidationError("Give a name.", code="name_missing")], "slug": "Bad."}),
        {},
    )
    assert response.status_code == 400
    assert response.data == {
        "code": "name_missing",
        "detail": "Give a name.",
        "field": "name",
        "errors": {"name": ["Give a name."], "slug": ["Bad."]},
    }
    whole = exception_handler(DjangoValidationError("Not now."), {}).data
    assert whole == {
        "code": "invalid",
        "detail": "Not now.",
        "field": None,
        "errors": {"non_field_errors": ["Not now."]},
    }


def test_a_nested_drf_validation_error_names_each_field_with_dots():
    detail = {"payout": [{"percent": ["Too much."]}, {}], "non_field_errors": ["Check the total."]}
    body = exception_handler(exceptions.ValidationError(detail), {}).data
    assert body["code"] == "invalid" and (body["field"], body["detail"]) == ("payout.0.percent", "Too much.")
    assert body["errors"] == {"payout.0.percent": ["Too much."], "non_field_errors": ["Check the total."]}


def test_a_conflict_carries_its_code_and_drf_errors_keep_theirs():
    body = exception_handler(Conflict("Already open.", code="already_open"), {}).data
    assert body == {"code": "already_open", "detail": "Already open.", "field": None}
    assert exception_handler(Conflict(), {}).data["code"] == "conflict"
    throttled = exception_handler(exceptions.Throttled(wait=12.2), {})
    assert (throttled.status_code, throttled.data["code"], throttled.data["retry_after"]) == (429, "throttled", 13)


def test_refusals_through_the_api_read_the_same_way(api, api_as, member_user, club):
    anonymous = api.post("/api/v1/clubs/", {"name": "X"}, format="json")
    assert anonymous.status_code == 403 and anonymous.json()["code"] == "not_authenticated"
    missing = api.get("/api/v1/clubs/no-such-club/")
    assert missing.status_code == 404 and missing.json() == {
        "code": "not_found",
        "detail": missing.json()["detail"],
        "field": None,
    }
    member = api_as(member_user)
    unreadable = member.post("/api/v1/clubs/", "{not json", content_type="application/json")
    assert unreadable.status_code == 400 and unreadable.json()["code"] == "parse_error"
    wrong_type = member.post("/api/v1/clubs/", "name=X", content_type="text/plain")
    assert wrong_type.status_code == 415 and wrong_type.json()["code"] == "unsupported_media_type"
    forbidden = member.patch(f"/api/v1/clubs/{club.slug}/", {"name": "Mine now"}, format="json")
    assert forbidden.status_code == 403 and forbidden.json()["code"] == "permission_denied"
    invalid = member.post("/api/v1/clubs/", {"name": ""}, format="json")
    assert invalid.status_code == 400 and invalid.json()["code"] == "invalid"
    assert invalid.json()["field"] == "name" and invalid.json()["errors"]["name"] == [invalid.json()["detail"]]


def test_a_refusal_reads_in_german_through_the_api(api_as, member_user):
    german = api_as(member_user).post("/api/v1/clubs/", {"name": ""}, format="json", HTTP_ACCEPT_LANGUAGE="de")
    english = api_as(member_user).post("/api/v1/clubs/", {"name": ""}, format="json")
    assert german.json()["code"] == english.json()["code"] == "invalid"
    assert german.json()["detail"] != english.json()["detail"]


def test_a_page_shows_a_core_refusal_as_the_api_reads_it(client, club, director_user):
    """The web views (base.web.attempt) show the same translated text by code as the API's `detail`."""
    from ratings.services import ladders as ladder_services
    from tests.clubs.factories import MembershipFactory

    ladder = ladder_services.create_ladder(actor=director_user, club=club, name="Club ladder")
    members = [MembershipFactory(club=club).player for _ in range(5)]
    for member in members:
        ladder_services.join_ladder(actor=member.user, ladder=ladder)
    client.force_login(members[4].user)
    url = f"/clubs/{club.slug}/ladders/club-ladder/challenge/"
    page = client.post(url, {"defender": members[0].pk}, follow=True, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Du kannst höchstens 3 Plätze über dir fordern." in page
    assert "out_of_reach" not in page


def test_a_change_naming_a_field_the_input_does_not_take_is_refused_and_nothing_changes(api_as, club, director_user):
    """`PATCH {"entry_fee": "25.00", "name": ...}` on a flight answered 200 and left the fee as it was (DRF drops
    unknown fields): the director believed it changed. Now the whole change is refused, naming the field and the
    fields the input takes, in the caller's language."""
    event = make_event(club, director_user)
    flight = services.add_flight(actor=director_user, event=event, name="Main", entry_fee="10.00")
    url = f"/api/v1/events/{club.slug}/{event.slug}/flights/{flight.slug}/"
    api = api_as(director_user)
    delay = flight.clock_delay_seconds
    refused = api.patch(url, {"entry_fee": "25.00", "clock_delay_seconds": delay + 5}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "invalid"
    assert refused.json()["field"] == "entry_fee"
    assert "entry_fee" in refused.json()["detail"] and "clock_delay_seconds" in refused.json()["detail"]
    flight.refresh_from_db()
    assert (str(flight.entry_fee), flight.clock_delay_seconds) == ("10.00", delay)  # nothing half-applied
    german = api.patch(url, {"entry_fee": "25.00"}, format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert german.json()["detail"].startswith("Diese Eingabe ändert entry_fee nicht.")
    event_url = f"/api/v1/events/{club.slug}/{event.slug}/"
    assert api.patch(event_url, {"starts_on": "2027-01-01"}, format="json").json()["field"] == "starts_on"
    assert api.patch(url, {"clock_delay_seconds": delay + 5}, format="json").json()["clock_delay_seconds"] == delay + 5
    flood = api.patch(url, {f"k{n}": 0 for n in range(20_000)}, format="json")  # a message per key was unbounded
    assert flood.status_code == 400 and len(flood.json()["errors"]) == 5 and len(flood.content) < 5_000


def test_an_api_address_without_its_slash_answers_308_in_the_error_body_and_a_page_301(api_as, client, member_user):
    """A client that left out the trailing slash sends the same method and body again where the Location says
    (308); Django answered 301 with an HTML body, and clients sent the POST again as a GET."""
    answer = api_as(member_user).post("/api/v1/clubs", {"name": "Slash Club"}, format="json")
    assert answer.status_code == 308 and answer["Location"] == "/api/v1/clubs/"
    assert answer["Content-Type"] == "application/json"
    assert answer.json()["code"] == "trailing_slash" and "/api/v1/clubs/" in answer.json()["detail"]
    followed = api_as(member_user).post(answer["Location"], {"name": "Slash Club"}, format="json")
    assert followed.status_code == 201
    assert api_as(member_user).get("/api/v1/clubs?page=2")["Location"] == "/api/v1/clubs/?page=2"
    page = client.get("/clubs")
    assert page.status_code == 301 and page["Location"] == "/clubs/"
