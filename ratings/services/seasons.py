"""Writes for club seasons: the date ranges a club's leaderboard sums matches and event points over."""

from django.db import transaction
from django.utils.translation import gettext as _

from base.errors import Invalid
from clubs import access
from clubs.models import Club
from ratings.models import ClubSeason


@transaction.atomic
def create_season(*, actor, club: Club, name: str, starts_on, ends_on) -> ClubSeason:
    access.require(actor, "season.create", club)
    name = (name or "").strip()
    if not name:
        raise Invalid(_("Give the season a name, e.g. 2026."), field="name")
    if ends_on < starts_on:
        raise Invalid(_("A season ends on or after the day it starts."), field="ends_on")
    if ClubSeason.objects.filter(club=club, name=name).exists():
        raise Invalid(_("This club already has a season with this name; choose another."), field="name")
    return ClubSeason.objects.create(club=club, name=name, starts_on=starts_on, ends_on=ends_on)
