"""One date format and one date-time format per language on every page and chart (config/formats): English
"28 Nov 2026" and "28 Nov 2026, 14:30", German "28.11.2026" and "28.11.2026, 14:30"; numbers with one decimal
separator per language. A set of pages is rendered in both languages and every date in its visible text (the
SVG chart's labels included) must be of its language's one pattern: before, one English page read "Nov. 28,
2026" and "11/28/2026", and the rating chart labelled "08.09." on an English page."""

import datetime
import html
import re

import pytest
from django.test import Client
from django.utils import timezone, translation

from tests.clubs.factories import MembershipFactory
from tests.ratings.builders import played
from tournaments import services

from ..tournaments.builders import members

pytestmark = pytest.mark.django_db

MONTHS_EN = "Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec"
MONTHS_DE = "Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember"
ONE_DATE = {
    "en": re.compile(rf"\b\d{{1,2}} (?:{MONTHS_EN}) \d{{4}}\b"),
    "de": re.compile(r"\b\d{2}\.\d{2}\.\d{4}\b"),
}
# Every other way a date has been or could be written: none may show on a page of either language.
OTHER_DATES = [
    re.compile(r"\b\d{1,2}/\d{1,2}/\d{2,4}\b"),  # 11/28/2026
    re.compile(r"\b\d{4}-\d{2}-\d{2}\b"),  # 2026-11-28
    re.compile(rf"\b(?:{MONTHS_EN})\.? \d{{1,2}}, \d{{4}}\b"),  # Nov. 28, 2026
    re.compile(rf"\b\d{{1,2}}\. (?:{MONTHS_DE}) \d{{4}}\b"),  # 28. November 2026
    re.compile(r"(?<![\d.])(?:0?[1-9]|[12]\d|3[01])\.(?:0?[1-9]|1[0-2])\.(?!\d)"),  # 08.09. (no year)
]

# A decimal number written with the other language's separator (ratings such as 1517.91, money such as 10.00).
FOREIGN_DECIMAL = {"en": r"\b\d+,\d{2}\b", "de": r"\b\d+\.\d{2}\b"}


def visible_text(page: str) -> str:
    """What a reader sees: no scripts or styles, no tags or attributes (a form's value="2026-05-01" is for the
    browser, not the reader); the SVG chart's <text> and <title> stay."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def dates_of(text: str, language: str) -> tuple[list[str], list[str]]:
    """The dates of the language's one pattern, and any date written another way."""
    own = ONE_DATE[language].findall(text)
    rest = ONE_DATE[language].sub(" ", text)
    others = [m.group(0) for pattern in OTHER_DATES for m in pattern.finditer(rest)]
    other_language = ONE_DATE["de" if language == "en" else "en"]
    return own, others + other_language.findall(rest)


@pytest.fixture
def site(club, director_user):
    """An event over two days with a flight drawn today, rated matches for the chart, and a director's home."""
    director = director_user.player
    event = services.create_event(
        actor=director_user,
        club=club,
        name="Autumn Open",
        starts_on=datetime.date(2026, 11, 28),
        ends_on=datetime.date(2026, 11, 29),
    )
    main = services.add_flight(actor=director_user, event=event, name="Main")
    services.register(actor=director_user, flight=main, player=director)
    for player in members(club, 3):
        services.register(actor=director_user, flight=main, player=player)
    deadline = timezone.make_aware(datetime.datetime(2026, 11, 28, 14, 30))
    services.update_flight(actor=director_user, flight=main, check_in_deadline=deadline)
    rival = MembershipFactory(club=club, player__name="Bernd").player
    played(director_user, club, director, rival, day=1, length=5)
    played(director_user, club, rival, director, day=9, length=3)
    client = Client()
    client.force_login(director_user)
    pages = {
        "home": "/",
        "event": event.get_absolute_url(),
        "flight": main.get_absolute_url(),
        "rating chart": f"/players/{director.pk}/rating/",
        "match list": "/matches/",
    }
    return client, pages


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_date_on_the_pages_is_written_the_one_way_of_the_language(site, language):
    client, pages = site
    seen = 0
    for name, url in pages.items():
        with translation.override("en"):  # the middleware switches the thread; leave it as it was
            response = client.get(url, headers={"accept-language": language})
        assert response.status_code == 200, name
        own, others = dates_of(visible_text(response.content.decode()), language)
        assert not others, f"{name} ({language}) writes dates another way: {others}"
        seen += len(own)
        numbers = ONE_DATE[language].sub(" ", visible_text(response.content.decode()))
        foreign = re.findall(FOREIGN_DECIMAL[language], numbers)
        assert not foreign, f"{name} ({language}) writes numbers with the other decimal separator: {foreign}"
    assert seen >= len(pages)  # the pages do show dates, so the check above checked something


@pytest.mark.parametrize(
    ("language", "label", "foreign"), [("en", "28 Nov 2026", "28.11."), ("de", "28.11.2026", "Nov")]
)
def test_the_event_reads_its_days_and_the_check_in_time_in_the_language(site, language, label, foreign):
    client, pages = site
    with translation.override("en"):
        page = visible_text(client.get(pages["event"], headers={"accept-language": language}).content.decode())
    assert label in page and foreign not in page
    check_in = "28 Nov 2026, 14:30" if language == "en" else "28.11.2026, 14:30"
    assert check_in in page


@pytest.mark.parametrize(("language", "separator"), [("en", "."), ("de", ",")])
def test_the_rating_chart_labels_its_dates_and_numbers_in_the_pages_language(site, language, separator):
    client, pages = site
    with translation.override("en"):
        page = client.get(pages["rating chart"], headers={"accept-language": language}).content.decode()
    chart = page[page.index('<figure class="rating-chart"') :].split("</figure>")[0]
    labels = re.findall(r'<text class="tick"[^>]*text-anchor="middle">([^<]+)</text>', chart)
    assert labels and all(ONE_DATE[language].fullmatch(label) for label in labels), labels
    titles = re.findall(r"<title>([^<]+)</title>", chart)[1:]  # each dot: "<date>: <rating>"
    assert titles and all(re.fullmatch(rf".+: \d{{4}}\{separator}\d\d", t) for t in titles), titles
