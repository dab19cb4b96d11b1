"""Panels on the player page (ratings) and the club page (leaderboard), added through RatingsConfig.panels."""

from django.template.loader import render_to_string

from ratings import selectors


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
