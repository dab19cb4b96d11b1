"""The demo carries what the data app shows: membership numbers and federation ids, and where to try it."""

import csv
import io

import pytest
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse

from clubs.models import Club, Membership
from data import imports
from tests.clients import web

pytestmark = pytest.mark.django_db


def test_the_demo_has_numbers_and_ids_and_its_sample_file_previews_every_kind_of_row(capsys):
    call_command("load_demo")
    out = capsys.readouterr().out
    assert "/static/data/members-sample.csv" in out
    club = Club.objects.get(slug="bc-berlin")
    director = Membership.objects.get(club=club, player__user__username="director").player.user
    exported = web(director).get(reverse("data:club-members", kwargs={"slug": club.slug}))
    rows = list(csv.reader(io.StringIO(exported.content.decode("utf-8-sig"))))
    assert rows[0] == ["name", "email", "rating", "number"] and all(row[3].startswith("BC-") for row in rows[1:])
    sample = (settings.BASE_DIR / "static/data/members-sample.csv").read_text(encoding="utf-8")
    plan = imports.plan(club=club, text=sample)
    assert [row.action for row in plan.rows] == ["create", "create", "create", "refuse", "refuse"]
    call_command("load_demo")  # again: nothing new
    assert Membership.objects.filter(club=club, number__startswith="BC-").count() == len(rows) - 1
