"""Panels on the player page (ratings) and the club page (leaderboard), added through RatingsConfig.panels."""

from django.template.loader import render_to_string

from games.models.matches import MatchStatus
from games.models.variants import GameVariant
from ratings import selectors
from ratings.core.fibs import win_probability


def player_panel(request, player):
    return render_to_string(
        "ratings/_player_panel.html",
        {"player": player, "ratings": selectors.ratings_of_player(player=player, user=request.user)},
        request,
    )


def club_panel(request, club):
    return render_to_string(
        "ratings/_club_panel.html", {"club": club, "top": selectors.club_top_ratings(club=club, limit=5)}, request
    )


def my_home(request, _obj):
    """The signed-in user's overall rating on their home page."""
    rating = selectors.my_overall_rating(user=request.user)
    return render_to_string("ratings/_my_home.html", {"rating": rating}, request)


OPEN = (MatchStatus.INVITED, MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS)


def match_panel(request, match):
    """Both players' chances on an open standard match's page, by the FIBS formula from their current overall
    ratings and the match's length (one query: the two ratings)."""
    if match.status not in OPEN or match.variant != GameVariant.STANDARD:
        return None
    ratings = selectors.player_ratings(player_ids=[match.player_a_id, match.player_b_id])
    a, b = ratings[match.player_a_id], ratings[match.player_b_id]
    chance_a = win_probability(a, b, match.length)
    context = {"match": match, "rating_a": a, "rating_b": b, "chance_a": chance_a, "chance_b": 1.0 - chance_a}
    return render_to_string("ratings/_match_chances.html", context, request)
