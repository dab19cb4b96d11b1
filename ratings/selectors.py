"""Reads for ratings, standings and ladders."""

from __future__ import annotations

from collections.abc import Iterable

from ratings.core.fibs import START_RATING
from ratings.models import PlayerRating


def player_ratings(*, player_ids: Iterable[int], club_id: int | None = None) -> dict[int, float]:
    """Each player's current FIBS rating in the overall pool (club_id None) or that club's pool; 1500.0 for a
    player with no rated match there. One query whatever the number of players."""
    ids = list(player_ids)
    result = dict.fromkeys(ids, START_RATING)
    if not ids:
        return result
    rows = PlayerRating.objects.filter(player_id__in=ids)
    rows = rows.filter(pool__club__isnull=True) if club_id is None else rows.filter(pool__club_id=club_id)
    result.update(rows.values_list("player_id", "rating"))
    return result
