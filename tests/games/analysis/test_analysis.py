"""Engine analysis of uploaded records (games.analysis): the task end to end with the real GNU Backgammon,
consent, the sweep after a dead worker, the record page with its biggest errors, the player page, the API."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from backgammon.analysis import runner
from base.errors import Conflict
from games.analysis import selectors, services
from games.models import AnalysisStatus, GameRecord, PlayerAnalysis, RecordAnalysis
from games.records import services as record_services
from tests.clubs.factories import PlayerFactory
from tests.conftest import REQUIRE_SERVICES
from tests.games.matchplay.factories import MatchFactory
from tests.paths import CORPUS

needs_gnubg = pytest.mark.skipif(
    not runner.available() and not REQUIRE_SERVICES,  # CI requires the services and installs gnubg: it fails there
    reason="GNU Backgammon is not installed at /usr/games/gnubg (CI installs it)",
)
RECORD = CORPUS / "gnubg" / "standard_0001_3p.mat"  # 3 points, gnubg against root


def _match(*, consent="yes", club_consent=True, consent_b=None):
    a = PlayerFactory(name="gnubg", analysis_consent=consent)
    b = PlayerFactory(name="root", analysis_consent=consent_b or consent)
    match = MatchFactory(player_a=a, player_b=b, length=3)
    match.club.analyse_records = club_consent
    match.club.save()
    return match


def _upload(match) -> GameRecord:
    batch = record_services.upload_records(
        uploader=match.player_a.user,
        files=[record_services.UploadedFile(RECORD.name, RECORD.read_bytes())],
        match=match,
    )
    return batch.records.get()


@pytest.fixture
def one_ply(settings):
    settings.RECORD_ANALYSIS_PLIES = 1


@needs_gnubg
@pytest.mark.django_db(transaction=True)
def test_a_verified_record_is_analysed_by_the_real_engine_with_both_players_figures(one_ply):
    match = _match()
    record = _upload(match)  # verified in-process, then analysed (eager tasks) once committed
    analysis = RecordAnalysis.objects.get(record=record)
    assert analysis.status == AnalysisStatus.DONE, analysis.reason
    assert (analysis.engine, analysis.plies) == ("gnubg", 1)
    assert analysis.version.startswith("1.07") and "MET" in analysis.met
    assert analysis.games_done == analysis.games_total == len(analysis.games) >= 1
    figures = {p.side: p for p in analysis.players.all()}
    assert (figures[0].player, figures[1].player) == (match.player_a, match.player_b)
    # the match figures are what the program itself prints for the same record and ply (runner, tested there)
    direct = runner.analyse_with_gnubg(RECORD.read_bytes(), plies=1).players
    for side in (0, 1):
        assert figures[side].error_rate == direct[side].error_rate
        assert figures[side].checker_error_rate == direct[side].checker_error_rate
        assert figures[side].errors == direct[side].errors
        assert figures[side].blunders == direct[side].very_bad
    losses = [e["loss"] for e in analysis.biggest_errors]
    assert losses == sorted(losses, reverse=True)
    assert all(e["position"] and e["played"] != e["best"] for e in analysis.biggest_errors)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("who", ["player", "club"])
def test_without_consent_nothing_runs_and_the_page_says_why(client, who):
    match = _match(consent="no" if who == "player" else "yes", club_consent=who != "club")
    record = _upload(match)
    assert not RecordAnalysis.objects.exists()
    client.force_login(match.player_a.user)
    with translation.override("en"):
        page = client.get(record.get_absolute_url()).content.decode()
        posted = client.post(reverse("games:record-analyse", args=[record.pk]), follow=True).content.decode()
    expected = "has not allowed the analysis" if who == "player" else "does not analyse the records of its matches"
    assert expected in page and expected in posted
    assert not RecordAnalysis.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_consent_withdrawn_after_queueing_stops_the_run(monkeypatch):
    match = _match()
    monkeypatch.setattr(services, "enqueue_many_on_commit", lambda *a, **k: None)  # the broker holds it
    record = _upload(match)
    analysis = RecordAnalysis.objects.get(record=record)
    type(match.player_b).objects.filter(pk=match.player_b.pk).update(analysis_consent="no")
    ran = services.run_analysis(analysis_id=analysis.pk)
    assert ran.status == AnalysisStatus.FAILED and "has not allowed" in ran.reason
    assert not PlayerAnalysis.objects.exists()


@needs_gnubg
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_analysis_is_resumed_by_the_sweep_into_one_analysis(monkeypatch, settings):
    settings.RECORD_ANALYSIS_PLIES = 0
    match = _match()
    sent = []
    monkeypatch.setattr(services, "enqueue_many_on_commit", lambda task, calls, **k: sent.extend(calls))
    record = _upload(match)
    analysis = RecordAnalysis.objects.get(record=record)

    # a worker claims it and dies at the first game's progress (the engine is killed with it)
    def dies(done, total):
        raise SystemExit("worker killed")

    real = services.engine.review_with_gnubg
    monkeypatch.setattr(
        services.engine, "review_with_gnubg", lambda data, **kw: real(data, **{**kw, "on_progress": dies})
    )
    with pytest.raises(SystemExit):
        services.run_analysis(analysis_id=analysis.pk)
    analysis.refresh_from_db()
    assert analysis.status == AnalysisStatus.RUNNING and analysis.attempts == 1
    monkeypatch.setattr(services.engine, "review_with_gnubg", real)

    # a second delivery of the same task while the claim is fresh does nothing
    assert services.run_analysis(analysis_id=analysis.pk) is None
    assert services.sweep_due_analyses() == 0  # not stale yet

    RecordAnalysis.objects.filter(pk=analysis.pk).update(
        claimed_at=timezone.now() - services.stale_claim() - timedelta(seconds=1)
    )
    sent.clear()
    assert services.sweep_due_analyses() == 1
    assert sent == [(analysis.pk,)]
    for (pk,) in sent * 2:  # delivered twice: the claim runs it once
        services.run_analysis(analysis_id=pk)
    assert RecordAnalysis.objects.filter(record=record).count() == 1
    analysis.refresh_from_db()
    assert analysis.status == AnalysisStatus.DONE and analysis.attempts == 2
    assert PlayerAnalysis.objects.filter(analysis=analysis).count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_missing_engine_is_a_clear_verdict_and_the_page_says_so(client, monkeypatch, settings):
    settings.RECORD_ANALYSIS_ENGINE = "gnubg"  # the program asked for by name, and not there
    monkeypatch.setattr("backgammon.analysis.runner.available", lambda program: False)
    match = _match()
    record = _upload(match)
    analysis = RecordAnalysis.objects.get(record=record)
    assert analysis.status == AnalysisStatus.FAILED
    assert analysis.reason == "analysis failed: engine not installed"
    client.force_login(match.player_b.user)
    with translation.override("en"):
        assert "analysis failed: engine not installed" in client.get(record.get_absolute_url()).content.decode()


@pytest.mark.django_db(transaction=True)
def test_without_the_program_the_gnubg_nn_package_analyses_checker_play_and_says_so(client, monkeypatch, one_ply):
    """A fresh clone without the program ("auto"): the gnubg-nn package analyses the record at 1 ply, the figures
    name their engine, the page says they are checker play only, and a deeper ply is refused with the reason."""
    monkeypatch.setattr("backgammon.analysis.runner.available", lambda program=None: False)
    match = _match()
    record = _upload(match)
    analysis = RecordAnalysis.objects.get(record=record)
    assert analysis.status == AnalysisStatus.DONE, analysis.reason
    assert (analysis.engine, analysis.plies) == ("gnubg-nn", 1)
    figures = {p.side: p for p in analysis.players.all()}
    assert (figures[0].player, figures[1].player) == (match.player_a, match.player_b)
    assert all(f.unforced_decisions > 0 and f.cube_error_rate == 0 for f in figures.values())
    assert analysis.biggest_errors and analysis.games_done == analysis.games_total >= 1
    assert all(error["line"] for error in analysis.biggest_errors)  # each linked to its line in the record
    client.force_login(match.player_b.user)
    with translation.override("en"):
        page = client.get(record.get_absolute_url()).content.decode()
        assert "checker play only, cubeless money equities" in page
        with pytest.raises(Conflict, match="Deeper plies need the GNU Backgammon program"):
            services.request_deeper_analysis(actor=match.player_a.user, record=record, plies=2)


@needs_gnubg
@pytest.mark.django_db(transaction=True)
def test_the_record_page_shows_the_figures_and_the_biggest_errors_with_their_positions(
    client, one_ply, django_assert_max_num_queries
):
    match = _match()
    record = _upload(match)
    analysis = RecordAnalysis.objects.get(record=record)
    assert analysis.biggest_errors, "the 3-point corpus match has checker errors at 1 ply"
    client.force_login(match.player_b.user)
    with translation.override("en"), django_assert_max_num_queries(14):
        page = client.get(record.get_absolute_url()).content.decode()
    assert "Biggest errors" in page
    shown = min(len(analysis.biggest_errors), selectors.SHOWN_ERRORS)
    assert page.count('<svg class="board"') == shown
    first = analysis.biggest_errors[0]
    assert first["played"] in page and first["best"] in page
    assert f"lost {first['loss']:.3f} EMG" in page
    # each error links to its line in the record: the line of its roll, with its dice written there
    text = RECORD.read_text().splitlines()
    for error in analysis.biggest_errors:
        assert error["line"], error
        if error["kind"] == "move":
            assert "{}{}:".format(*error["dice"]) in text[error["line"] - 1], (error, text[error["line"] - 1])
    assert f'href="?lines=1#L{first["line"]}"' in page


@needs_gnubg
@pytest.mark.django_db(transaction=True)
def test_the_player_page_shows_the_running_error_rate_and_the_tally(client, django_assert_max_num_queries):
    match = _match()
    _upload(match)
    client.force_login(match.player_a.user)
    url = reverse("ratings:player-rating", args=[match.player_a.pk])
    with translation.override("en"), django_assert_max_num_queries(16):
        page = client.get(url).content.decode()
    assert "Error rate over analysed matches" in page
    assert "PR-like figure at or under" in page


def test_a_position_is_drawn_with_every_checker_and_both_pip_counts():
    from backgammon.analysis.drawing import drawing

    start = drawing("4HPwATDgc/ABMA")
    assert (start.my_pips, start.their_pips) == (167, 167)
    assert sum(1 for c in start.checkers if c.mine) == sum(1 for c in start.checkers if not c.mine) == 15
    assert all(0 <= c.x <= start.width and 0 <= c.y <= start.height for c in start.checkers)


@needs_gnubg
@pytest.mark.django_db(transaction=True)
def test_the_record_api_carries_the_figures_only_to_whoever_sees_the_record(api_as, settings):
    settings.RECORD_ANALYSIS_PLIES = 0
    match = _match()
    record = _upload(match)
    body = api_as(match.player_b.user).get(f"/api/v1/game-records/{record.pk}/").json()
    (analysis,) = body["analyses"]
    assert (analysis["engine"], analysis["plies"], analysis["status"]) == ("gnubg", 0, "done")
    assert [p["player"] for p in analysis["players"]] == [match.player_a.pk, match.player_b.pk]
    assert api_as(PlayerFactory().user).get(f"/api/v1/game-records/{record.pk}/").status_code == 404


@needs_gnubg
@pytest.mark.django_db(transaction=True)
def test_a_cube_error_is_among_the_biggest_errors_with_the_action_taken_and_the_right_one(client, settings):
    settings.RECORD_ANALYSIS_PLIES = 0
    wrong_pass = CORPUS / "analysis" / "wrong_pass_11p.mat"  # gnubg passes a double it should take
    match = _match()
    match.length = 11
    match.save()
    batch = record_services.upload_records(
        uploader=match.player_a.user,
        files=[record_services.UploadedFile(wrong_pass.name, wrong_pass.read_bytes())],
        match=match,
    )
    record = batch.records.get()
    analysis = RecordAnalysis.objects.get(record=record)
    assert analysis.status == AnalysisStatus.DONE, analysis.reason
    (cube,) = [e for e in analysis.biggest_errors if e["kind"] == "cube" and e["game"] == 2]
    assert (cube["side"], cube["played"], cube["best"]) == (0, "pass", "take")
    client.force_login(match.player_b.user)
    with translation.override("en"):
        page = client.get(record.get_absolute_url()).content.decode()
    caption = page[page.index("Game 2, gnubg's cube decision") :]
    caption = caption[: caption.index("</figcaption>")]
    assert "Played: <code>Pass</code>" in caption and "Best: <code>Take</code>" in caption
    assert f"lost {cube['loss']:.3f} EMG" in caption
