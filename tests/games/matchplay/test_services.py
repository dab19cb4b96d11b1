"""Services: the scoresheet, reporting, confirmation, disputes, corrections, overrides and the hook."""

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from backgammon.scoring import ScoringError
from base.api import Conflict
from games.matchplay import hooks, messages, services
from games.models.matches import Match, MatchOutcome, MatchReport, MatchStatus
from tests.clubs.factories import MembershipFactory, PlayerFactory
from tests.games.matchplay.factories import MatchFactory
from tests.refusals import PermissionDenied, ValidationError

pytestmark = pytest.mark.django_db


def report_score(user, match, a, b, **kwargs):
    return services.submit_report(actor=user, match=match, method="final_score", scores=(a, b), **kwargs)[0]


def test_games_on_the_scoresheet_start_the_match_and_refuse_a_cube_in_the_crawford_game(match, user_a):
    services.record_game(actor=user_a, match=match, winner_side=0, kind="gammon", cube=2)
    match.refresh_from_db()
    assert match.status == MatchStatus.IN_PROGRESS and match.started_at is not None
    with pytest.raises(ValidationError) as exc:
        services.record_game(actor=user_a, match=match, winner_side=1, cube=2)
    assert "Crawford game" in exc.value.message_dict["cube"][0]
    game = services.record_game(actor=user_a, match=match, winner_side=1)
    assert game.crawford_game and (game.score_a_after, game.score_b_after) == (4, 1)


def test_games_after_the_match_is_decided_are_refused(match, user_a):
    services.record_game(actor=user_a, match=match, winner_side=0, kind="single", cube=8)
    with pytest.raises(ValidationError, match="already decided"):
        services.record_game(actor=user_a, match=match, winner_side=1)


def test_outsider_cannot_add_games_or_report(match, outsider_user):
    with pytest.raises(PermissionDenied):
        services.record_game(actor=outsider_user, match=match, winner_side=0)
    with pytest.raises(PermissionDenied):
        report_score(outsider_user, match, 5, 0)
    assert not match.games.exists() and not match.reports.exists()


def test_report_from_games_then_opponent_confirms(match, user_a, user_b):
    for _ in range(3):
        services.record_game(actor=user_a, match=match, winner_side=1, kind="gammon")
    report, created = services.submit_report(actor=user_a, match=match, method="games")
    assert created and report.score_b == 6 and report.winner == match.player_b and report.games[0]["points"] == 2
    assert not report.confirmed
    with pytest.raises(PermissionDenied, match="Your opponent"):
        services.confirm_report(actor=user_a, match=match, version=1)
    services.confirm_report(actor=user_b, match=match, version=1)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and (match.score_a, match.score_b) == (0, 6)
    assert match.winner == match.player_b and match.rated and match.outcome == MatchOutcome.PLAYED


def test_report_from_unfinished_scoresheet_is_refused(match, user_a):
    services.record_game(actor=user_a, match=match, winner_side=1)
    with pytest.raises(ValidationError, match="nobody has won yet"):
        services.submit_report(actor=user_a, match=match, method="games")


def test_unreachable_final_score_is_refused_and_nothing_is_written(match, user_a):
    with pytest.raises(ValidationError) as exc:
        report_score(user_a, match, 5, 5)
    assert "In a 5-point match the loser can have at most 4 points" in exc.value.message_dict["scores"][0]
    with pytest.raises(ValidationError) as exc:
        report_score(user_a, match, 21, 0)
    message = exc.value.message_dict["scores"][0]
    assert f"before the last game {match.player_a.name} had at least 0 and at most 4 points" in message
    assert "worth 17 to 21 points" in message and "16 or 24 come closest" in message
    match.refresh_from_db()
    assert not MatchReport.objects.exists() and match.started_at is None


def test_every_final_score_path_refuses_an_unreachable_score(match, user_a, director_user):
    """A player's report, a director's override and a score starting from penalty points all use the same rule."""
    with pytest.raises(ValidationError, match="come closest"):
        services.submit_report(actor=director_user, match=match, method="final_score", scores=(0, 21), as_director=True)
    services.record_lateness(actor=director_user, match=match, late_side=1, minutes_late=10)  # A starts at 2
    with pytest.raises(ValidationError) as exc:
        report_score(user_a, match, 13, 0)  # the last game from 2, 3 or 4 would be worth 11, 10 or 9
    assert "at least 2 and at most 4 points" in exc.value.message_dict["scores"][0]
    with pytest.raises(ValidationError, match=f"{match.player_a.name} starts this match with 2 points"):
        report_score(user_a, match, 1, 5)
    assert report_score(user_a, match, 10, 0).score_a == 10  # 2–0, then a gammon on a 4-cube


def test_confirming_one_version_retires_the_others(match, user_a, user_b):
    report_score(user_a, match, 5, 3)
    report_score(user_b, match, 5, 2)
    services.confirm_report(actor=user_b, match=match, version=1)
    confirmed = list(match.reports.filter(confirmed=True).values_list("version", flat=True))
    assert confirmed == [1]
    assert match.reports.get(version=2).retired
    with pytest.raises(Conflict):
        services.confirm_report(actor=user_a, match=match, version=2)


def test_confirming_twice_is_harmless(match, user_a, user_b):
    report_score(user_a, match, 5, 3)
    services.confirm_report(actor=user_b, match=match, version=1)
    services.confirm_report(actor=user_b, match=match, version=1)
    assert match.reports.filter(confirmed=True).count() == 1


def test_database_allows_only_one_confirmed_report(match, user_a):
    report_score(user_a, match, 5, 3)
    report_score(user_a, match, 5, 2)
    MatchReport.objects.filter(match=match, version=1).update(confirmed=True)
    with pytest.raises(IntegrityError), transaction.atomic():
        MatchReport.objects.filter(match=match, version=2).update(confirmed=True)


def test_database_refuses_a_match_shorter_than_one_point(club):
    with pytest.raises(IntegrityError), transaction.atomic():
        MatchFactory(club=club, length=0)


def test_same_idempotency_key_returns_the_first_report(match, user_a):
    first, created = services.submit_report(
        actor=user_a, match=match, method="final_score", scores=(5, 1), idempotency_key="phone-1"
    )
    again, created_again = services.submit_report(
        actor=user_a, match=match, method="final_score", scores=(5, 1), idempotency_key="phone-1"
    )
    assert created and not created_again and again.pk == first.pk
    assert match.reports.count() == 1


def test_dispute_is_recorded_and_shows_on_the_directors_list(match, user_a, user_b, director_user):
    from games.matchplay import selectors

    report_score(user_a, match, 5, 0)
    with pytest.raises(ValidationError):
        services.dispute_report(actor=user_b, match=match, version=1, comment=" ")
    dispute = services.dispute_report(actor=user_b, match=match, version=1, comment="It was 5-4, not 5-0")
    assert dispute.comment == "It was 5-4, not 5-0"
    queue = list(selectors.director_queue(user=director_user))
    assert queue == [match] and queue[0].has_dispute
    services.submit_report(actor=director_user, match=match, method="final_score", scores=(5, 4))
    dispute.refresh_from_db()
    assert dispute.resolved_at is not None
    assert list(selectors.director_queue(user=director_user)) == []


def test_director_override_is_confirmed_at_once_and_annul_clears_the_result(match, user_a, director_user):
    report_score(user_a, match, 5, 1)
    override, _ = services.submit_report(
        actor=director_user, match=match, method="final_score", scores=(2, 5), as_director=True
    )
    match.refresh_from_db()
    assert override.confirmed and match.winner == match.player_b
    services.annul_match(actor=director_user, match=match, comment="Wrong players")
    match.refresh_from_db()
    assert match.status == MatchStatus.ABANDONED and match.winner is None and not match.rated
    assert match.reports.filter(confirmed=True).get().outcome == MatchOutcome.ANNULLED
    with pytest.raises(Conflict):
        report_score(user_a, match, 5, 1)


def test_player_cannot_override_or_annul(match, user_a):
    with pytest.raises(PermissionDenied):
        services.submit_report(actor=user_a, match=match, method="final_score", scores=(5, 1), as_director=True)
    with pytest.raises(PermissionDenied):
        services.annul_match(actor=user_a, match=match, comment="no")


def test_player_may_correct_until_a_later_match_started_then_only_a_director(match, user_a, user_b, director_user):
    report_score(user_a, match, 5, 1)
    services.confirm_report(actor=user_b, match=match, version=1)
    report_score(user_b, match, 5, 3)  # a correction, waits for the opponent
    services.confirm_report(actor=user_a, match=match, version=2)
    match.refresh_from_db()
    assert match.score_b == 3
    later = MatchFactory(club=match.club, player_a=match.player_a, player_b=PlayerFactory())
    Match.objects.filter(pk=later.pk).update(started_at=timezone.now())
    with pytest.raises(Conflict, match="ask a director to override"):
        report_score(user_b, match, 5, 4)
    services.submit_report(actor=director_user, match=match, method="final_score", scores=(5, 4))
    match.refresh_from_db()
    assert match.score_b == 4


def test_a_correction_waiting_for_confirmation_cannot_be_confirmed_by_a_player_once_a_later_match_started(
    match, user_a, user_b, director_user
):
    report_score(user_a, match, 5, 1)
    services.confirm_report(actor=user_b, match=match, version=1)
    report_score(user_b, match, 5, 3)  # in time, but the opponent confirms only after the next match began
    later = MatchFactory(club=match.club, player_a=PlayerFactory(), player_b=match.player_b)
    services.submit_report(actor=director_user, match=later, method="final_score", scores=(0, 5), as_director=True)
    with pytest.raises(Conflict, match="ask a director to override"):
        services.confirm_report(actor=user_a, match=match, version=2)
    services.confirm_report(actor=director_user, match=match, version=2)
    match.refresh_from_db()
    assert match.score_b == 3


def test_a_match_reported_before_final_scores_set_a_start_still_counts_as_a_later_match(match, user_a, user_b):
    report_score(user_a, match, 5, 1)
    services.confirm_report(actor=user_b, match=match, version=1)
    later = MatchFactory(club=match.club, player_a=match.player_a, player_b=PlayerFactory())
    Match.objects.filter(pk=later.pk).update(finished_at=timezone.now(), started_at=None)
    with pytest.raises(Conflict):
        report_score(user_b, match, 5, 4)


def test_forfeits_are_results_but_not_rated(match, user_a, user_b):
    services.submit_report(actor=user_a, match=match, method="no_play", outcome="walkover", winner_side=0)
    services.confirm_report(actor=user_b, match=match, version=1)
    match.refresh_from_db()
    assert match.status == MatchStatus.FORFEITED and match.winner == match.player_a and not match.rated


def test_double_forfeit_has_no_winner(match, director_user):
    services.submit_report(actor=director_user, match=match, method="no_play", outcome="double_forfeit")
    match.refresh_from_db()
    assert match.status == MatchStatus.FORFEITED and match.winner is None


def test_lateness_gives_penalty_points_and_forfeits_past_half_the_length(match, director_user, user_a, user_b):
    services.record_lateness(actor=director_user, match=match, late_side=0, minutes_late=11)
    match.refresh_from_db()
    assert match.penalty_a == 2
    assert services.scoresheet_state(match).scores == (0, 2)
    report_score(user_a, match, 5, 2)
    services.confirm_report(actor=user_b, match=match, version=1)
    match.refresh_from_db()
    assert match.outcome == MatchOutcome.LATENESS and not match.rated


def test_lateness_beyond_half_the_length_is_a_forfeit(match, director_user):
    services.record_lateness(actor=director_user, match=match, late_side=1, minutes_late=16)
    match.refresh_from_db()
    assert match.status == MatchStatus.FORFEITED and match.winner == match.player_a and not match.rated


def test_record_report_is_refused_with_the_difference(match, user_a):
    verdict = {
        "valid": True,
        "match_length": 5,
        "players": [match.player_b.name, "Somebody Else"],
        "final_score": [5, 1],
        "winner": match.player_b.name,
        "games": [],
        "errors": [],
    }
    with pytest.raises(ValidationError) as exc:
        services.submit_report(actor=user_a, match=match, method="record", verdict=verdict)
    assert "Somebody Else" in exc.value.message_dict["game_record"][0]
    verdict["players"] = [match.player_b.name, match.player_a.name]
    report, _ = services.submit_report(actor=user_a, match=match, method="record", verdict=verdict)
    assert (report.score_a, report.score_b) == (1, 5) and report.winner == match.player_b


def test_hook_is_called_inside_the_transaction_and_can_abort(match, user_a, user_b):
    seen = []

    def remember(m, report):
        seen.append((m.pk, report.version, m.status))

    hooks.on_result_confirmed(remember)
    try:
        report_score(user_a, match, 5, 2)
        services.confirm_report(actor=user_b, match=match, version=1)
        assert seen == [(match.pk, 1, MatchStatus.FINISHED)]
        report_score(user_b, match, 5, 3)  # a correction, confirmed by the opponent
        services.confirm_report(actor=user_a, match=match, version=2)
        assert seen[-1] == (match.pk, 2, MatchStatus.FINISHED)
    finally:
        hooks.remove_result_callback(remember)

    def refuse(m, report):
        raise RuntimeError("ratings are down")

    hooks.on_result_confirmed(refuse)
    try:
        report_score(user_a, match, 5, 4)
        with pytest.raises(RuntimeError):
            services.confirm_report(actor=user_b, match=match, version=3)
    finally:
        hooks.remove_result_callback(refuse)
    match.refresh_from_db()
    assert match.score_b == 3 and match.reports.get(version=3).is_pending


def test_casual_match_by_a_player_club_match_only_by_a_director(club, member_user, director_user, outsider_user):
    own = member_user.player
    other = PlayerFactory()
    casual = services.create_match(actor=member_user, player_a=own, player_b=other, length=3)
    assert casual.context == "casual" and casual.created_by == member_user
    with pytest.raises(PermissionDenied):
        services.create_match(
            actor=member_user, player_a=own, player_b=other, length=3, context="club_night", club=club
        )
    with pytest.raises(PermissionDenied):
        services.create_match(actor=outsider_user, player_a=own, player_b=other, length=3)
    with pytest.raises(PermissionDenied, match="between players of the club"):
        services.create_match(  # a stranger's match is not the club's, even for its director
            actor=director_user, player_a=own, player_b=other, length=7, context="club_night", club=club
        )
    MembershipFactory(club=club, player=other)
    made = services.create_match(
        actor=director_user, player_a=own, player_b=other, length=7, context="club_night", club=club
    )
    assert made.user_is_director(director_user) and not made.user_is_director(member_user)
    with pytest.raises(ValidationError):
        services.create_match(actor=director_user, player_a=own, player_b=other, length=0, club=club)


def test_registered_director_check_extends_who_directs(match, outsider_user):
    from games.models.matches import _DIRECTOR_CHECKS, register_director_check

    def event_director(m, user):
        return user.pk == outsider_user.pk

    register_director_check(event_director)
    try:
        assert match.user_is_director(outsider_user)
    finally:
        _DIRECTOR_CHECKS.remove(event_director)
    assert not match.user_is_director(outsider_user)


def _game_record(uploader, verdict, sha="a"):
    from games.models.records import GameRecord

    return GameRecord.objects.create(
        name="m.mat",
        sha256=sha * 64,
        size=1,
        status="valid" if verdict["valid"] else "invalid",
        verdict=verdict,
        uploader=uploader,
    )


def test_report_from_an_uploaded_game_record(match, user_a, user_b):
    verdict = {
        "file": "m.mat",
        "valid": True,
        "match_length": 5,
        "players": [match.player_b.name, match.player_a.name],
        "final_score": [5, 3],
        "winner": match.player_b.name,
        "games": [],
        "errors": [],
    }
    record = _game_record(user_a, verdict)
    with pytest.raises(ValidationError, match="No verified game record"):
        services.submit_report(actor=user_b, match=match, method="record", game_record_id=record.pk)
    report, _ = services.submit_report(actor=user_a, match=match, method="record", game_record_id=record.pk)
    assert (report.score_a, report.score_b) == (3, 5) and report.game_record_id == record.pk


def test_invalid_game_record_is_refused_with_the_verifiers_message(match, user_a):
    error = {"game": 2, "move": 4, "line": 31, "player": "x", "text": "…", "code": "bad_cube", "message": "cube 3"}
    verdict = {"valid": False, "match_length": 5, "players": ["a", "b"], "final_score": [5, 0], "errors": [error]}
    record = _game_record(user_a, verdict, sha="b")
    with pytest.raises(ValidationError) as exc:
        services.submit_report(actor=user_a, match=match, method="record", game_record_id=record.pk)
    assert "did not pass verification: game 2: cube 3" in exc.value.message_dict["game_record"][0]


def test_a_refusal_without_its_numbers_falls_back_to_the_cores_words(match):
    assert messages.readable(ScoringError("no_deciding_game", "The core's words."), match) == "The core's words."
    assert messages.readable(ScoringError("unknown_code", "Other words."), match) == "Other words."


def test_a_director_cannot_use_a_strangers_record_to_read_it(club):
    """Found by probing: any director (of a club of their own) reported another user's private record against
    a match of theirs and read the record's players, length and errors in the refusal."""
    from games.records import services as record_services
    from games.records.services import UploadedFile
    from tests.paths import CORPUS
    from tests.refusals import ValidationError

    stranger = PlayerFactory().user
    data = (CORPUS / "gnubg" / "standard_0001_3p.mat").read_bytes()
    record = record_services.upload_records(uploader=stranger, files=[UploadedFile("private.mat", data)]).records.get()
    director = MembershipFactory(club=club, role="director").player.user
    a, b = MembershipFactory(club=club).player, MembershipFactory(club=club).player
    match = MatchFactory(club=club, player_a=a, player_b=b)
    with pytest.raises(ValidationError) as refused:
        services.submit_report(
            actor=director, match=match, method="record", game_record_id=record.pk, as_director=True
        )
    assert "No verified game record with this number" in str(refused.value)
    assert "gnubg" not in str(refused.value)
