"""The demo's analysed records: real GNU Backgammon figures (0-ply) on the consenting demo players' pages and in
the club's ranking; Clara's ("only for me") nowhere but on her own page."""

import io

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation

from clubs.models import Club, Player
from games.analysis import selectors
from games.analysis.demo import DEMO_ANALYSED, DEMO_PLIES
from games.models import AnalysisStatus, RecordAnalysis
from tests.games.analysis.test_analysis import needs_gnubg

pytestmark = [pytest.mark.django_db]


@needs_gnubg
def test_the_demo_analyses_its_club_nights_records_once_with_the_real_engine(client, monkeypatch):
    monkeypatch.setenv("DEMO_PASSWORD", "demo-password-1")
    call_command("load_demo", stdout=io.StringIO())
    out = io.StringIO()
    call_command("load_demo", stdout=out)  # a second load adds nothing
    analyses = RecordAnalysis.objects.filter(plies=DEMO_PLIES, record__match__isnull=False)
    assert analyses.count() == len(DEMO_ANALYSED)
    assert set(analyses.values_list("status", "engine", flat=False)) == {(AnalysisStatus.DONE, "gnubg")}
    assert all(a.version.startswith("1.07") for a in analyses)
    assert f"Analysed records: {len(DEMO_ANALYSED)} of {len(DEMO_ANALYSED)}" in out.getvalue()

    club = Club.objects.get(slug="bc-berlin")
    anna, bernd, clara = (Player.objects.get(name=n) for n in ("Anna Becker", "Bernd Hoffmann", "Clara Wagner"))
    ranking = selectors.club_error_ranking(club=club)
    assert (ranking.engine, ranking.plies) == ("gnubg", DEMO_PLIES)
    assert {r.name for r in ranking.ranked} == {"Anna Becker", "Bernd Hoffmann"}
    assert "Clara Wagner" not in {r.name for r in ranking.ranked}

    client.force_login(bernd.user)
    with translation.override("en"):
        assert (
            "Error rate over analysed matches"
            in client.get(reverse("ratings:player-rating", args=[anna.pk])).content.decode()
        )
        assert (
            "Error rate over analysed matches"
            not in client.get(reverse("ratings:player-rating", args=[clara.pk])).content.decode()
        )
        page = client.get(reverse("ratings:error-ranking", args=[club.slug])).content.decode()
    assert "Anna Becker" in page and "Bernd Hoffmann" in page
    client.force_login(clara.user)
    with translation.override("en"):
        assert (
            "Error rate over analysed matches"
            in client.get(reverse("ratings:player-rating", args=[clara.pk])).content.decode()
        )


def test_without_the_program_the_demo_is_analysed_by_the_gnubg_nn_package(monkeypatch):
    """A fresh clone's `make run` has no gnubg program: the demo's records are analysed by the gnubg-nn package
    (checker play only), so the pages still show figures, named for their engine."""
    monkeypatch.setattr("backgammon.analysis.runner.available", lambda program=None: False)
    monkeypatch.setenv("DEMO_PASSWORD", "demo-password-1")
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    analyses = RecordAnalysis.objects.filter(plies=DEMO_PLIES, record__match__isnull=False)
    assert set(analyses.values_list("status", "engine", flat=False)) == {(AnalysisStatus.DONE, "gnubg-nn")}
    assert f"Analysed records: {len(DEMO_ANALYSED)} of {len(DEMO_ANALYSED)} (gnubg-nn" in out.getvalue()
