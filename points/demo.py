"""Demo data for event points: the finished demo event awards GammonPoints-style points. Runs after the
tournaments and ratings demos (the strength of field is the entrants' ratings); running it again only
awards the same points again."""

from points import services
from ratings.models import EventPoints, PointsScheme


def load(context) -> None:
    event = getattr(context, "finished_event", None)
    if event is None:
        return
    if not EventPoints.objects.filter(event=event).exists():
        services.set_event_scheme(actor=context.director, event=event, scheme=PointsScheme.GAMMONPOINTS)
    else:
        services.award_event_points(event=event)
