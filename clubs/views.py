from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs import selectors, services
from clubs.forms import WalkInPlayerForm
from clubs.models import Membership
from core import panels


def club_list(request):
    clubs = selectors.visible_clubs(user=request.user).with_member_counts().order_by("name")
    return render(request, "clubs/club_list.html", {"clubs": clubs})


def club_detail(request, slug):
    club = get_object_or_404(selectors.visible_clubs(user=request.user), slug=slug)
    return render(
        request,
        "clubs/club_detail.html",
        {
            "club": club,
            "members": selectors.club_members(club=club),
            "can_direct": selectors.is_club_director(user=request.user, club=club),
            "form": WalkInPlayerForm(),
            "panels": panels.collect("club", request, club),
        },
    )


@require_POST
def add_walk_in(request, slug):
    club = get_object_or_404(selectors.visible_clubs(user=request.user), slug=slug)
    form = WalkInPlayerForm(request.POST)
    if form.is_valid():
        try:
            player = services.create_player(actor=request.user, club=club, **form.cleaned_data)
        except PermissionDenied:
            messages.error(request, _("Only a director or admin of this club can add players."))
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        else:
            messages.success(request, _("%(name)s joined the club.") % {"name": player.name})
    else:
        messages.error(request, _("Please give the player's name (and at most a two-letter country code)."))
    return redirect(club)


def player_detail(request, pk):
    player = get_object_or_404(selectors.visible_players(user=request.user), pk=pk)
    # Only clubs the player joined by their own acceptance (now or before): an invitation says nothing about them.
    memberships = player.memberships.filter(
        club__in=selectors.visible_clubs(user=request.user), status=Membership.Status.ACCEPTED
    ).select_related("club")
    return render(
        request,
        "clubs/player_detail.html",
        {
            "player": player,
            "memberships": memberships,
            "panels": panels.collect("player", request, player),
        },
    )
