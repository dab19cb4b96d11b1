"""Matches with confirmed results, created through the match-play services as a director would."""

from datetime import timedelta

from django.utils import timezone

from games.matchplay import services as matchplay
from games.models.matches import Match, MatchContext

BASE = timezone.now() - timedelta(days=60)


def played(
    director,
    club,
    winner,
    loser,
    *,
    length=5,
    day=0,
    context=MatchContext.CLUB_NIGHT,
    loser_score=1,
    variant="standard",
):
    """A finished, confirmed, rated match `day` days after BASE (the director overrides, so it is confirmed)."""
    match = matchplay.create_match(
        actor=director, player_a=winner, player_b=loser, length=length, context=context, club=club, variant=variant
    )
    Match.objects.filter(pk=match.pk).update(finished_at=BASE + timedelta(days=day))
    match.refresh_from_db()
    matchplay.submit_report(
        actor=director, match=match, method="final_score", scores=(length, min(loser_score, length - 1)),
        as_director=True,
    )  # fmt: skip
    match.refresh_from_db()
    return match


def correct(director, match, *, winner_side):
    """A director's override giving the match to the other side."""
    scores = (match.length, 0) if winner_side == 0 else (0, match.length)
    matchplay.submit_report(actor=director, match=match, method="final_score", scores=scores, as_director=True)
    match.refresh_from_db()
    return match


def event_of(club, *, on=None, slug="cup"):
    """A finished event of the club (points awards need one)."""
    from tournaments.models import Event

    day = on or timezone.localdate()
    event, _created = Event.objects.get_or_create(
        club=club, slug=slug, defaults={"name": slug.title(), "starts_on": day, "ends_on": day, "status": "finished"}
    )
    return event
