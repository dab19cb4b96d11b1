"""Demo match play: a few finished club-night matches among the demo players (dated on past club nights), one
in progress, and for every demo login one result its opponent reported that waits for their confirmation.

Called from games/demo.py with the shared demo context (context.club, context.director, context.players).
Idempotent: a match is looked up by its players and club before it is created.
"""

from datetime import datetime, time, timedelta

from django.utils import timezone

from games.matchplay import services
from games.models.matches import Match, MatchContext

# (player index A, player index B, length, games as (winner side, kind, cube)); the last one stays in progress.
DEMO_MATCHES = [
    (
        0,
        1,
        5,
        [(0, "single", 2), (1, "single", 1), (0, "gammon", 1), (1, "single", 1), (1, "drop", 2), (0, "single", 1)],
    ),
    (2, 3, 5, [(1, "gammon", 2), (0, "single", 1), (1, "single", 1)]),
    (4, 5, 7, [(0, "single", 2), (0, "single", 1), (1, "backgammon", 1), (0, "single", 4)]),
    (0, 2, 7, [(0, "single", 2), (1, "gammon", 1)]),
]


def load(context) -> None:
    club, director, players = context.club, context.director, context.players
    if club is None or director is None or len(players) < 6:
        return
    created = 0
    for a, b, length, games in DEMO_MATCHES:
        player_a, player_b = players[a], players[b]
        if Match.objects.filter(club=club, player_a=player_a, player_b=player_b).exists():
            continue
        match = services.create_match(
            actor=director,
            player_a=player_a,
            player_b=player_b,
            length=length,
            context=MatchContext.CLUB_NIGHT,
            club=club,
        )
        for winner, kind, cube in games:
            services.record_game(actor=director, match=match, winner_side=winner, kind=kind, cube=cube)
        if services.scoresheet_state(match).is_over:
            services.submit_report(actor=director, match=match, method="games", comment="Demo club night")
            _date(match, days_ago=7 * (len(DEMO_MATCHES) - created) + 1)  # past Tuesdays, not all today
        created += 1
    if created:
        context.lines.append(f"Demo matches: {created} club-night matches (one in progress)")
    waiting = _waiting_for_confirmation(context)
    if waiting:
        context.lines.append(f"Results waiting for confirmation: {waiting} (each demo login has one on its home page)")


def _date(match: Match, *, days_ago: int) -> None:
    """Move a finished demo match to an evening `days_ago` days back (its games and report keep their times)."""
    start = timezone.make_aware(datetime.combine(timezone.localdate() - timedelta(days=days_ago), time(19, 30)))
    Match.objects.filter(pk=match.pk).update(
        scheduled_at=start, started_at=start, finished_at=start + timedelta(minutes=55), created_at=start
    )


def _waiting_for_confirmation(context) -> int:
    """For each demo player with a login: a casual 5-point match against the next player, whose final score that
        next player reported yesterday, so every demo login finds a result to confirm (or dispute) at the top of its
        home page. The reporter invites, the player accepts (as every casual match a player creates starts). Looked up
    by its players, so a second load adds nothing."""
    players = [p for p in context.players if p.user_id]
    created = 0
    for index, player in enumerate(players):
        reporter = players[(index + 1) % len(players)]
        if reporter.pk == player.pk:
            continue
        exists = Match.objects.filter(
            player_a=player, player_b=reporter, context=MatchContext.CASUAL, club=context.club
        ).exists()
        if exists:
            continue
        match = services.create_match(
            actor=reporter.user, player_a=player, player_b=reporter, length=5, context=MatchContext.CASUAL,
            club=context.club,
        )  # fmt: skip
        match = services.accept_invitation(actor=player.user, match=match)  # a casual match is an invitation
        scores = (5, 3) if index % 2 else (2, 5)
        services.submit_report(actor=reporter.user, match=match, method="final_score", scores=scores)
        start = timezone.now() - timedelta(days=1, hours=index % 5)
        Match.objects.filter(pk=match.pk).update(created_at=start, started_at=start)
        match.reports.update(created_at=start + timedelta(minutes=50))
        created += 1
    return created
