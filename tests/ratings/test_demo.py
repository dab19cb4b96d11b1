import pytest
from django.core.management import call_command

from ratings.models import Ladder, LadderPosition, PlayerRating, RatedMatch, RatingPool

pytestmark = pytest.mark.django_db


def test_demo_gives_the_club_real_ratings_and_is_idempotent(client, capsys):
    call_command("load_demo")
    counts = (RatedMatch.objects.count(), PlayerRating.objects.count(), LadderPosition.objects.count())
    call_command("load_demo")
    assert (RatedMatch.objects.count(), PlayerRating.objects.count(), LadderPosition.objects.count()) == counts
    assert "club-night matches rated" in capsys.readouterr().out
    pool = RatingPool.objects.get(club__slug="bc-berlin", variant="standard")  # the long nardy night has its own
    assert RatedMatch.objects.filter(pool=pool).count() >= 36
    assert not RatingPool.objects.filter(recompute_pending=True).exists()
    top = PlayerRating.objects.filter(pool=pool).order_by("-rating").first()
    assert top.rating > 1500
    assert Ladder.objects.get(club__slug="bc-berlin").positions.count() == 16
    board = client.get("/clubs/bc-berlin/leaderboard/").content.decode()
    assert f"{top.rating:.2f}" in board
    chart = client.get(f"/players/{top.player_id}/rating/?club=bc-berlin").content.decode()
    assert "<polyline" in chart
