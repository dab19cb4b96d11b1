"""XLSX exports: every CSV export also as a workbook, from the same Export class: the same header and rows, with
numbers as numbers, dates as dates, and text as text cells (a formula-like name is never run)."""

import datetime
import io
import zipfile

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import formats, translation
from openpyxl import load_workbook

from calcutta.models import Calcutta
from chouette.models import ChouetteSession
from clubs.models import Club, Membership
from data import exports
from tests.clients import web
from tests.dataport.test_exports import read
from tournaments.models import Flight

pytestmark = pytest.mark.django_db
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def workbook_rows(response) -> list[list]:
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == XLSX
    assert response["Content-Disposition"].startswith('attachment; filename="')
    assert response["Content-Disposition"].endswith('.xlsx"')
    sheet = load_workbook(io.BytesIO(response.content)).worksheets[0]
    return [list(row) for row in sheet.iter_rows()]


def as_csv_text(cell) -> str:
    """A workbook cell as the CSV writes the same value (English): what makes the two files comparable."""
    value = cell.value
    if value is None:
        return ""
    if isinstance(value, str):
        assert cell.data_type == "s"  # text, never a formula
        return exports.escape(value)
    if isinstance(value, datetime.datetime):
        if "HH" in cell.number_format:
            return formats.date_format(value, "SHORT_DATETIME_FORMAT")
        return formats.date_format(value.date(), "SHORT_DATE_FORMAT")
    if isinstance(value, bool):
        raise AssertionError("a flag is written as the CSV's yes/no text")
    places = len(cell.number_format.split(".", 1)[1]) if "." in cell.number_format else 0
    if isinstance(value, int) and not places:
        return str(value)
    return f"{value:.{places}f}"


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        from django.db import transaction

        with transaction.atomic():
            call_command("load_demo", stdout=io.StringIO())
            yield
            transaction.set_rollback(True)


def _every_export():
    club = Club.objects.get(slug="bc-berlin")
    swiss = Flight.objects.filter(event__club=club, format="swiss").select_related("event").first()
    session = ChouetteSession.objects.filter(club=club).first()
    calcutta = Calcutta.objects.filter(flight__event__club=club).first()
    event = {"club": club.slug, "slug": "spring-open"}
    return {
        "event-results": event,
        "federation-results": event,
        "flight-entries": {**event, "flight": "main"},
        "flight-standings": {"club": club.slug, "slug": swiss.event.slug, "flight": swiss.slug},
        "club-rated-matches": {"slug": club.slug},
        "club-standings": {"slug": club.slug},
        "club-members": {"slug": club.slug},
        "chouette-ledger": {"slug": club.slug, "pk": session.pk},
        "calcutta-settlement": {"pk": calcutta.pk},
    }


def test_every_export_s_workbook_holds_its_csv_rows(demo):
    club = Club.objects.get(slug="bc-berlin")
    director = Membership.objects.get(club=club, player__user__username="director").player.user
    client = web(director)
    every = _every_export()
    assert set(every) == set(exports.EXPORTS)  # a new export is checked here too
    with translation.override("en"):
        for key, names in every.items():
            header, rows, _text = read(client.get(reverse(f"data:{key}", kwargs=names)))
            book = workbook_rows(client.get(reverse(f"data:{key}-xlsx", kwargs=names)))
            assert [c.value for c in book[0]] == header, key
            assert [[as_csv_text(c) for c in row] for row in book[1:]] == rows, key
            assert rows, key  # the demo gives each export something to compare


def test_numbers_are_numbers_and_dates_are_dates(demo):
    club = Club.objects.get(slug="bc-berlin")
    director = Membership.objects.get(club=club, player__user__username="director").player.user
    calcutta = Calcutta.objects.filter(flight__event__club=club).first()
    book = workbook_rows(web(director).get(reverse("data:calcutta-settlement-xlsx", kwargs={"pk": calcutta.pk})))
    assert any(isinstance(c.value, (int, float)) and c.number_format == "0.00" for row in book[1:] for c in row)
    results = workbook_rows(web(director).get(reverse("data:federation-results-xlsx", kwargs={
        "club": club.slug, "slug": "spring-open"})))  # fmt: skip
    assert any(isinstance(c.value, datetime.datetime) and c.is_date for row in results[1:] for c in row)


def test_german_headers_in_german(demo):
    club = Club.objects.get(slug="bc-berlin")
    director = Membership.objects.get(club=club, player__user__username="director").player.user
    url = reverse("data:flight-entries-xlsx", kwargs={"club": club.slug, "slug": "spring-open", "flight": "main"})
    with translation.override("de"):
        book = workbook_rows(web(director).get(url, HTTP_ACCEPT_LANGUAGE="de"))
        header = exports.EXPORTS["flight-entries"](director, club=club.slug, slug="spring-open", flight="main").header()
    assert [c.value for c in book[0]] == header and header[0] == "Spieler"


@pytest.mark.parametrize("text", ["=1+1", "+49 30 1234", "-2+3", "@SUM(A1)", '=HYPERLINK("http://x")'])
def test_a_formula_like_cell_is_stored_as_text(text):
    data = exports.write_xlsx("test", ["name"], [[text, exports.Number(-2, 0)]])
    sheet = load_workbook(io.BytesIO(data)).worksheets[0]
    cell = sheet["A2"]
    assert (cell.value, cell.data_type) == (text, "s")
    assert (sheet["B2"].value, sheet["B2"].data_type) == (-2, "n")  # a typed negative number stays a number
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        xml = package.read("xl/worksheets/sheet1.xml").decode()
    assert "<f>" not in xml and "<f " not in xml  # no formula anywhere in the sheet
