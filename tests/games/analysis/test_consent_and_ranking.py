"""The "only for me" answer (analysed, figures shown to the player alone), its migration, and the club's
ranking of its members by error rate over a season, of one engine and ply only."""

from datetime import UTC, date, datetime, timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from django.utils import translation

from games.analysis import selectors, services
from games.models import AnalysisStatus, GameRecord, PlayerAnalysis, RecordAnalysis, RecordStatus
from ratings.models import ClubSeason
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory
from tests.games.matchplay.factories import MatchFactory

pytestmark = pytest.mark.django_db


def analysed(match, *, rates=(8.0, 12.0), plies=1, engine="gnubg", decisions=100, when=None, errors=None):
    """A done analysis of a record of `match` as the worker stores it: side 0 is player A, side 1 player B; an
    error rate r stands for r / 1000 × decisions EMG lost."""
    record = (
        GameRecord.objects.create(
            file="game_records/x.mat",
            name="x.mat",
            sha256=f"{match.pk:064d}",
            size=1,
            status=RecordStatus.VALID,
            verdict={"players": [match.player_a.name, match.player_b.name], "match_length": 3, "variant": "standard"},
            uploader=match.player_a.user,
            match=match,
        )
        if not match.game_records.exists()
        else match.game_records.get()
    )
    analysis = RecordAnalysis.objects.create(
        record=record,
        engine=engine,
        plies=plies,
        version="1.07.001",
        met="Kazaross XG2 25 point MET",
        status=AnalysisStatus.DONE,
        finished_at=when or datetime.now(UTC),
        biggest_errors=errors or [],
    )
    for side, (player, rate) in enumerate(zip((match.player_a, match.player_b), rates, strict=True)):
        PlayerAnalysis.objects.create(
            analysis=analysis,
            side=side,
            name=player.name,
            player=player,
            error_rate=rate,
            checker_error_rate=rate,
            cube_error_rate=0.0,
            error_total=rate * decisions / 1000.0,
            unforced_decisions=decisions,
            errors=1,
            blunders=0,
            luck_total=0.0,
            luck_rate=0.0,
            pr_like=rate / 2,
        )
    return analysis


def _pair(consent_a="yes", consent_b="yes", club=None, when=None):
    a = PlayerFactory(name="Anna", analysis_consent=consent_a)
    b = PlayerFactory(name="Bert", analysis_consent=consent_b)
    match = MatchFactory(player_a=a, player_b=b, length=3, **({"club": club} if club else {}))
    if when is not None:
        type(match).objects.filter(pk=match.pk).update(finished_at=when)
    match.club.analyse_records = True
    match.club.save()
    return match


def test_only_for_me_is_analysed_and_no_is_not():
    match = _pair(consent_a="only_me")
    record = GameRecord.objects.create(
        file="x.mat", name="x.mat", sha256="1" * 64, size=1, status=RecordStatus.VALID,
        verdict={"players": ["Anna", "Bert"], "match_length": 3}, uploader=match.player_a.user, match=match,
    )  # fmt: skip
    assert selectors.refusal(record) == ""
    type(match.player_a).objects.filter(pk=match.player_a.pk).update(analysis_consent="no")
    record.match.player_a.refresh_from_db()
    with translation.override("en"):
        assert "Anna has not allowed" in selectors.refusal(record)


def test_only_for_me_figures_show_to_the_player_alone_on_the_record_page_and_the_rating_page(client):
    match = _pair(consent_a="only_me")
    errors = [
        {"game": 1, "index": 3, "side": 0, "position": "4HPwATDgc/ABMA", "score": [0, 0], "dice": [6, 5],
         "played": "24/13", "best": "24/18 13/8", "loss": 0.25},
        {"game": 1, "index": 4, "side": 1, "position": "4HPwATDgc/ABMA", "score": [0, 0], "dice": [3, 1],
         "played": "8/5 24/23", "best": "8/5 6/5", "loss": 0.125},
    ]  # fmt: skip
    analysis = analysed(match, rates=(7.5, 12.5), errors=errors)
    page_for = {}
    for who in (match.player_a, match.player_b):
        client.force_login(who.user)
        with translation.override("en"):
            page_for[who.name] = client.get(analysis.record.get_absolute_url()).content.decode()
    other = page_for["Bert"]
    assert "12.5" in other and "7.5" not in other  # Bert sees his own figures, not Anna's
    assert "Anna keeps their figures to themself." in other
    assert "8/5 24/23" in other and "24/18 13/8" not in other  # nor Anna's errors
    own = page_for["Anna"]
    assert "7.5" in own and "24/18 13/8" in own and "keeps their figures" not in own

    url = reverse("ratings:player-rating", args=[match.player_a.pk])
    client.force_login(match.player_b.user)
    with translation.override("en"):
        assert "Error rate over analysed matches" not in client.get(url).content.decode()
    client.force_login(match.player_a.user)
    with translation.override("en"):
        assert "Error rate over analysed matches" in client.get(url).content.decode()


def test_the_api_leaves_out_figures_kept_to_the_player(api_as):
    match = _pair(consent_b="only_me")
    record = analysed(match).record
    url = f"/api/v1/game-records/{record.pk}/"
    seen_by_a = api_as(match.player_a.user).get(url).json()["analyses"][0]["players"]
    seen_by_b = api_as(match.player_b.user).get(url).json()["analyses"][0]["players"]
    assert [p["player"] for p in seen_by_a] == [match.player_a.pk]
    assert [p["player"] for p in seen_by_b] == [match.player_a.pk, match.player_b.pk]


def test_the_settings_page_saves_the_three_answers_and_the_clubs_ranking_switch(client):
    membership = MembershipFactory(role="admin")
    player, club = membership.player, membership.club
    client.force_login(player.user)
    url = reverse("games:analysis-settings")
    with translation.override("en"):
        page = client.get(url).content.decode()
    assert 'value="only_me"' in page and "Only for me" in page
    for answer in ("only_me", "yes", "no"):
        client.post(url, {"consent": answer})
        player.refresh_from_db()
        assert player.analysis_consent == answer
    client.post(url, {"consent": "maybe"})
    player.refresh_from_db()
    assert player.analysis_consent == "no"  # an unknown answer changes nothing
    client.post(url, {"club": club.slug, "allowed": "on", "rank": "on"})
    club.refresh_from_db()
    assert club.analyse_records and club.rank_error_rates
    client.post(url, {"club": club.slug, "allowed": "on"})
    club.refresh_from_db()
    assert club.analyse_records and not club.rank_error_rates


def test_only_the_player_changes_their_answer():
    from base.errors import NotAllowed

    player, other = PlayerFactory(), PlayerFactory()
    with pytest.raises(NotAllowed):
        services.set_player_consent(actor=other.user, player=player, consent="yes")


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_each_players_yes_and_no():
    before, after = [("clubs", "0006_player_display_name")], [("clubs", "0007_player_analysis_consent")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    Player = executor.loader.project_state(before).apps.get_model("clubs", "Player")
    yes, no = Player.objects.create(name="Yes", analyse_records=True), Player.objects.create(name="No")
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    Player = executor.loader.project_state(after).apps.get_model("clubs", "Player")
    assert Player.objects.get(pk=yes.pk).analysis_consent == "yes"
    assert Player.objects.get(pk=no.pk).analysis_consent == "no"
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


# --- the club's ranking ----------------------------------------------------------------------------------


def _club_with_members(*names_and_answers, rank=True):
    club = ClubFactory(rank_error_rates=rank)
    players = []
    for name, answer in names_and_answers:
        player = PlayerFactory(name=name, analysis_consent=answer)
        MembershipFactory(club=club, player=player)
        players.append(player)
    return club, players


def _play(club, a, b, rates, *, plies=1, when=None, times=1):
    for _ in range(times):
        match = MatchFactory(player_a=a, player_b=b, length=3, club=club)
        if when is not None:
            type(match).objects.filter(pk=match.pk).update(finished_at=when)
        analysed(match, rates=rates, plies=plies)


def test_the_ranking_counts_matches_of_one_ply_and_only_members_who_said_yes(client, django_assert_max_num_queries):
    club, (anna, bert, cora, dirk) = _club_with_members(
        ("Anna", "yes"), ("Bert", "yes"), ("Cora", "only_me"), ("Dirk", "yes")
    )
    _play(club, anna, bert, (5.0, 9.0), times=3)  # 3 matches each: both ranked
    _play(club, anna, cora, (7.0, 1.0), times=1)  # Cora keeps her figures: never ranked
    _play(club, dirk, bert, (2.0, 9.0), times=1)  # Dirk: 1 match, fewer than the minimum
    _play(club, bert, anna, (1.0, 1.0), plies=2, times=4)  # 2-ply: another ranking, never mixed in
    ranking = selectors.club_error_ranking(club=club)
    assert (ranking.engine, ranking.plies) == ("gnubg", 1)  # most analyses are 1-ply
    assert [(r.name, r.matches) for r in ranking.ranked] == [("Anna", 4), ("Bert", 4)]
    assert ranking.ranked[0].error_rate == pytest.approx((5.0 * 3 + 7.0) / 4)  # weighed by decisions
    assert ranking.unranked == 1 and ranking.minimum == selectors.MIN_RANKED_MATCHES == 3
    assert "Cora" not in [r.name for r in ranking.ranked]
    deeper = selectors.club_error_ranking(club=club, engine="gnubg", plies=2)
    assert [(r.name, r.matches, r.error_rate) for r in deeper.ranked] == [("Anna", 4, 1.0), ("Bert", 4, 1.0)]

    url = reverse("ratings:error-ranking", args=[club.slug])
    client.force_login(anna.user)
    with translation.override("en"), django_assert_max_num_queries(9):
        page = client.get(url).content.decode()
    assert "Anna" in page and "Bert" in page and "Cora" not in page
    assert "1-ply only" in page and "ranked from 3 analysed matches on" in page
    assert "1 more member has analysed matches, but fewer than 3." in page
    with translation.override("en"):
        page = client.get(url, {"kind": "gnubg:2"}).content.decode()
    assert "2-ply only" in page


def test_the_ranking_takes_the_season_running_today_or_the_dates_asked_for(client):
    club, (anna, bert) = _club_with_members(("Anna", "yes"), ("Bert", "yes"))
    today = date.today()
    season = ClubSeason.objects.create(
        club=club, name="Now", starts_on=today - timedelta(days=30), ends_on=today + timedelta(days=30)
    )
    long_ago = datetime.now(UTC) - timedelta(days=400)
    _play(club, anna, bert, (5.0, 9.0), times=3)
    _play(club, anna, bert, (50.0, 1.0), when=long_ago, times=3)  # before the season
    in_season = selectors.club_error_ranking(club=club, starts_on=season.starts_on, ends_on=season.ends_on)
    assert [(r.name, r.matches) for r in in_season.ranked] == [("Anna", 3), ("Bert", 3)]
    all_time = selectors.club_error_ranking(club=club)
    assert [(r.name, r.matches) for r in all_time.ranked] == [("Bert", 6), ("Anna", 6)]
    client.force_login(anna.user)
    url = reverse("ratings:error-ranking", args=[club.slug])
    with translation.override("en"):
        page = client.get(url).content.decode()
        assert "Season Now" in page and page.index("Anna") < page.index("Bert")
        page = client.get(url, {"season": "", "from": (today - timedelta(days=500)).isoformat()}).content.decode()
        assert page.index(">Bert<") < page.index(">Anna<")
        assert client.get(url, {"from": "soon"}).status_code == 404


def test_a_club_that_does_not_rank_shows_no_figures_and_no_link(client):
    club, (anna, bert) = _club_with_members(("Anna", "yes"), ("Bert", "yes"), rank=False)
    _play(club, anna, bert, (5.0, 9.0), times=3)
    assert selectors.club_error_ranking(club=club) is None
    client.force_login(anna.user)
    with translation.override("en"):
        page = client.get(reverse("ratings:error-ranking", args=[club.slug])).content.decode()
        assert "does not rank its members by error rate" in page and "5.0" not in page
    link = reverse("ratings:error-ranking", args=[club.slug])
    assert link not in client.get(club.get_absolute_url()).content.decode()
    club.rank_error_rates = True
    club.save()
    assert link in client.get(club.get_absolute_url()).content.decode()


# --- the chart of the running error rate -------------------------------------------------------------------


def test_the_rating_page_draws_the_running_error_rate_and_keeps_the_table(client, django_assert_max_num_queries):
    import re

    club, (anna, bert) = _club_with_members(("Anna", "yes"), ("Bert", "yes"))
    start = datetime(2026, 3, 1, 12, tzinfo=UTC)
    for day, rate in enumerate((10.0, 6.0, 2.0)):
        match = MatchFactory(player_a=anna, player_b=bert, length=3, club=club)
        analysed(match, rates=(rate, 5.0), when=start + timedelta(days=day))
    client.force_login(bert.user)
    with translation.override("en"), django_assert_max_num_queries(10):
        page = client.get(reverse("ratings:player-rating", args=[anna.pk])).content.decode()
    begins = page.index('<figure class="rating-chart error-chart">')
    ends = page.index("</figure>", begins)
    figure = page[begins:ends]
    assert 'role="img"' in figure and '<title id="error-chart-title">Running error rate' in figure
    # each match weighs by its 100 decisions: 10, then (10 + 6) / 2 = 8, then 6
    assert (
        "3 analysed matches: a running error rate of 10.0 after the first" in figure
        and ", 6.0 after the last" in figure
    )
    dots = re.findall(r'<circle class="dot" cx="([\d.]+)" cy="([\d.]+)"', figure)
    assert len(dots) == 3
    heights = [float(y) for _x, y in dots]
    assert heights[0] < heights[1] < heights[2]  # a falling rate: each dot lower on the chart (larger y)
    assert all(0 <= float(x) <= 600 for x, _y in dots)
    assert "<table" in page[ends:]  # every value, for screen readers too


def test_the_chart_core_draws_a_series_without_a_start_value():
    from ratings.core.chart import history_chart

    drawn = history_chart([("a", 1.0), ("b", 1.5)], start=None, min_span=4)
    assert len(drawn.dots) == 2 and drawn.baseline_y is None
    assert drawn.y_ticks[0][1] == 0  # a low rate keeps the axis at 0
    assert len(drawn.points.split()) == 2


# --- a deeper ply on request ---------------------------------------------------------------------------------


def test_the_uploader_asks_for_a_deeper_ply_once_and_the_figures_stay_apart(client, monkeypatch, settings):
    settings.RECORD_ANALYSIS_PLIES = 1
    sent = []
    monkeypatch.setattr(services, "enqueue_many_on_commit", lambda task, calls, **k: sent.extend(calls))
    match = _pair()
    first = analysed(match, rates=(8.0, 12.0), plies=1)
    record = first.record
    url = reverse("games:record-analyse", args=[record.pk])

    client.force_login(match.player_b.user)  # neither the uploader nor a director
    with translation.override("en"):
        page = client.get(record.get_absolute_url()).content.decode()
        assert "Analyse at 2-ply" not in page
        assert client.post(url, {"plies": "2"}).status_code == 403
    assert not RecordAnalysis.objects.filter(plies=2).exists()

    client.force_login(match.player_a.user)  # the uploader
    with translation.override("en"):
        assert "Analyse at 2-ply" in client.get(record.get_absolute_url()).content.decode()
        client.post(url, {"plies": "2"})
        client.post(url, {"plies": "2"})  # asked twice: one analysis
        refused = client.post(url, {"plies": "7"}, follow=True).content.decode()
    assert "Ask for a ply deeper than 1, up to 2." in refused
    deeper = RecordAnalysis.objects.get(record=record, plies=2)
    assert deeper.status == AnalysisStatus.QUEUED and sent == [(deeper.pk,)]
    first.refresh_from_db()
    assert first.status == AnalysisStatus.DONE and first.players.count() == 2  # the 1-ply one is not redone
    with translation.override("en"):
        page = client.get(record.get_absolute_url()).content.decode()
    assert "2-ply: Waiting for the engine" in page and "Analyse at 2-ply" not in page

    # the 2-ply figures once done: the player's history and the club ranking keep each ply apart
    RecordAnalysis.objects.filter(pk=deeper.pk).update(status=AnalysisStatus.DONE, version="1.07.001")
    for side, player in enumerate((match.player_a, match.player_b)):
        PlayerAnalysis.objects.create(
            analysis=deeper, side=side, name=player.name, player=player, error_rate=1.0, checker_error_rate=1.0,
            cube_error_rate=0.0, error_total=0.1, unforced_decisions=100, errors=0, blunders=0, luck_total=0.0,
            luck_rate=0.0, pr_like=0.5,
        )  # fmt: skip
    history = selectors.player_error_history(player=match.player_a, user=match.player_a.user)
    assert (history.plies, history.left_out) in {(1, 1), (2, 1)}
    assert [round(running, 3) for _row, running in history.rows] in ([8.0], [1.0])
    with translation.override("en"):
        page = client.get(record.get_absolute_url()).content.decode()
    assert "GNU Backgammon (gnubg 1.07.001), 2-ply" in page  # the deepest done analysis is shown
    assert "1-ply: Analysed" in page


def test_a_director_of_the_match_may_ask_for_a_deeper_ply_too(client, monkeypatch, settings):
    settings.RECORD_ANALYSIS_PLIES = 0
    monkeypatch.setattr(services, "enqueue_many_on_commit", lambda *a, **k: None)
    match = _pair()
    record = analysed(match, plies=0).record
    director = MembershipFactory(club=match.club, role="director").player.user
    analysis = services.request_deeper_analysis(actor=director, record=record, plies=1)
    assert (analysis.plies, analysis.status) == (1, AnalysisStatus.QUEUED)
