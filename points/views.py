"""The event points page: an event's scheme and awards; its directors choose the scheme here."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from base.errors import NotAllowed
from base.web import attempt
from clubs import selectors as club_selectors
from points import selectors, services
from ratings import selectors as ratings_selectors
from ratings.models import PointsScheme


def event_points(request, slug, event):
    """An event's points: the scheme and the awards; its directors choose the scheme here."""
    club = get_object_or_404(club_selectors.visible_clubs(user=request.user), slug=slug)
    event = get_object_or_404(selectors.club_events(club=club, user=request.user), slug=event)
    can_choose = event.user_is_director(request.user)
    if request.method == "POST":
        if not can_choose:
            raise PermissionDenied(_("Only a director of this event can choose its points scheme."))
        scheme = request.POST.get("scheme", "")
        try:
            weights = {
                name: float(request.POST.get(name) or 1)
                for name in ("event_weight", "division_weight", "division_factor")
            }
        except ValueError:
            messages.error(request, _("Give the weights as numbers, e.g. 1 or 0.7."))
        else:
            try:
                attempt(
                    request,
                    lambda: services.set_event_scheme(
                        actor=request.user, event=event, scheme=scheme,
                        split_ties=bool(request.POST.get("split_ties")), **weights,
                    ),
                    _("Points scheme saved; points are awarded when the event is finished."),
                )  # fmt: skip
            except (PermissionDenied, NotAllowed) as error:  # shown on the page the form came from rather than as a 403
                messages.error(request, str(error) or _("You may not do this."))
        return redirect(request.path)
    scheme, awards = ratings_selectors.event_points(event=event)
    return render(
        request,
        "points/event_points.html",
        {"club": club, "event": event, "scheme": scheme, "awards": awards, "schemes": PointsScheme.choices,
         "can_choose": can_choose},
    )  # fmt: skip
