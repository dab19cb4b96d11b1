"""Demo match play: a few finished club-night matches among the demo players and one in progress.

Called from games/demo.py with the shared demo context (context.club, context.director, context.players).
Idempotent: a match is looked up by its players and club before it is created.
"""

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
        created += 1
    if created:
        context.lines.append(f"Demo matches: {created} club-night matches (one in progress)")
