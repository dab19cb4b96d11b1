"""The demo's pages read in German: no English text of the project's catalogues shows up on them.

Every msgid of the project's German catalogues whose German differs is a sentence that must not appear on a
German page; finding one means a string is not marked for translation, is marked under another wording, or a
catalogue lost its entry. Only literal texts of two words or more are looked for (placeholders and single words
such as "Box" or "Team" are the same in both languages or too short to tell)."""

import html
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.utils import translation

from calcutta.models import Calcutta
from chouette.models import ChouetteSession
from games.matchplay.selectors import reports_to_confirm
from games.records.selectors import visible_records

pytestmark = pytest.mark.django_db
User = get_user_model()

ROOT = Path(__file__).resolve().parents[2]


def catalogue_entries():
    """(msgid, msgstr) of every entry of the project's German catalogues."""
    for po in ROOT.glob("**/locale/de/LC_MESSAGES/django.po"):
        if ".venv" in po.parts:
            continue
        text = po.read_text(encoding="utf-8")
        for match in re.finditer(r'^msgid ((?:".*"\n)+)msgstr ((?:".*"\n?)+)', text, re.M):
            msgid = "".join(re.findall(r'"(.*)"', match.group(1))).replace('\\"', '"')
            msgstr = "".join(re.findall(r'"(.*)"', match.group(2))).replace('\\"', '"')
            yield msgid, msgstr


def english_msgids() -> set[str]:
    found = set()
    for msgid, msgstr in catalogue_entries():
        if msgstr and msgstr != msgid and "%" not in msgid and "{" not in msgid and len(msgid.split()) >= 2:
            found.add(msgid)
    return found


def template_msgids() -> list[tuple[str, str]]:
    """Every literal `{% translate "…" %}` of the project's templates, with the template that says it."""
    found = []
    for template in ROOT.glob("**/templates/**/*.html"):
        if ".venv" in template.parts:
            continue
        for match in re.finditer(r'{%\s*(?:translate|trans)\s+"([^"]+)"', template.read_text(encoding="utf-8")):
            found.append((str(template.relative_to(ROOT)), match.group(1)))
    return found


def german_msgstrs() -> dict[str, str]:
    table: dict[str, str] = {}
    for msgid, msgstr in catalogue_entries():
        table[msgid] = table.get(msgid) or msgstr
    return table


def test_every_literal_template_text_has_german():
    """A `{% translate %}` whose msgid no catalogue holds shows English on a German page, and the crawl below
    cannot see it (it only looks for msgids the catalogues know): a heading on the home page was one."""
    german = german_msgstrs()
    texts = template_msgids()
    assert len(texts) > 300  # the templates were read
    assert [(where, text) for where, text in texts if not german.get(text)] == []


def visible_text(page: str) -> str:
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"<[^>]+>", " ", page)
    return " ".join(html.unescape(page).split())


def test_the_demo_pages_show_no_english_catalogue_text_in_german():
    call_command("compile_translations")
    call_command("load_demo")
    client = Client()
    assert client.login(username="director", password="backgammon-demo")
    open_table = ChouetteSession.objects.filter(status="open").first()
    finished_table = ChouetteSession.objects.filter(status="finished").first()
    calcutta = Calcutta.objects.first()
    urls = [
        "/",
        "/events/",
        "/events/bc-berlin/spring-open/",
        "/events/bc-berlin/spring-open/main/",
        "/events/bc-berlin/spring-open/consolation/",
        "/events/bc-berlin/spring-open/prizes/",
        "/events/bc-berlin/spring-open/dashboard/",
        "/events/bc-berlin/club-championship/",
        "/events/bc-berlin/club-championship/main/",
        "/events/bc-berlin/club-championship/main/?projector=1",
        "/chouette/",
        open_table.get_absolute_url(),
        f"/chouette/bc-berlin/{finished_table.pk}/settlement/",
        "/calcuttas/",
        f"/calcuttas/{calcutta.pk}/",
        f"/calcuttas/{calcutta.pk}/board/",
        f"/calcuttas/{calcutta.pk}/settlement/",
        "/clubs/",
        "/clubs/bc-berlin/",
        "/matches/",
        "/records/",
        "/ratings/",
        "/events/next-match/",
    ]
    english = english_msgids()
    assert len(english) > 300  # the catalogues were read
    # A player's own pages: the personal home, their matches, a match with a result waiting for them, the table.
    player = Client()
    assert player.login(username="anna", password="backgammon-demo")
    anna = User.objects.get(username="anna")
    waiting = reports_to_confirm(user=anna).first()
    assert waiting is not None  # the demo leaves every login a result to confirm
    player_urls = [
        "/",
        "/matches/mine/",
        waiting.match.get_absolute_url(),
        open_table.get_absolute_url(),
    ]
    # The demo's records are the director's uploads: the list and each record (with its warnings) in German.
    urls += [record.get_absolute_url() for record in visible_records(user=User.objects.get(username="director"))]
    leaks = {}
    with translation.override("en"):  # the request activates German; leave the thread as it was for later tests
        client.post("/i18n/setlang/", {"language": "de", "next": "/"})
        player.post("/i18n/setlang/", {"language": "de", "next": "/"})
        for who, url in [(client, url) for url in urls] + [(player, url) for url in player_urls]:
            response = who.get(url)
            assert response.status_code == 200, url
            text = visible_text(response.content.decode())
            assert 'lang="de"' in response.content.decode(), url
            found = sorted(m for m in english if m in text and re.search(rf"(?<!\w){re.escape(m)}(?!\w)", text))
            if found:
                leaks[f"{'player' if who is player else 'director'} {url}"] = found
    assert leaks == {}
