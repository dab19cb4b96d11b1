"""Which name a person sees for a player: the one rule every page, API answer and download asks.

A player may choose a display name (`Player.display_name`). It stands in for the name only where the club whose
page it is allows display names (`Club.allow_display_names`, off by default), and only for people who may not see
the name: the player themself, the club's directors (and site staff) always see the name. A page of no one club
(a player's page, the players API, the overall rating list) counts the player's clubs: the display name stands in
when one of the clubs the player is an active member of allows it, and the directors of any of those clubs see
the name. Pages and answers that are the same for everyone (a cached bracket, an embed) use
`Player.public_name_at` / `public_name_of` instead: no viewer there sees more than the public.
"""

from django.db.models import Case, Exists, F, OuterRef, Q, When

from clubs import access
from clubs.models import Club, Membership, Player, Role


def _directed_club_ids(viewer) -> set[int]:
    """The clubs the viewer directs (cached with the viewer's roles: no query after the first check)."""
    return {club for club, role in access.roles_of(viewer).items() if role in (Role.DIRECTOR, Role.ADMIN)}


def _is_self(viewer, player: Player) -> bool:
    return player.user_id is not None and access.is_signed_in(viewer) and player.user_id == viewer.pk


def shown_name(player: Player, *, viewer=None, club: Club | None) -> str:
    """The name `viewer` sees for `player` on a page of `club`, or of no one club (None: the player's clubs
    decide, `shown_name_anywhere`). No query for a player without a display name or a club that does not allow
    them; the viewer's roles are cached on the viewer."""
    if club is None:
        return shown_name_anywhere(player, viewer=viewer)
    if not player.display_name or not club.allow_display_names:
        return player.name
    if _is_self(viewer, player) or access.is_director(viewer, club):
        return player.name
    return player.display_name


def shown_name_anywhere(player: Player, *, viewer=None) -> str:
    """The name `viewer` sees for `player` on a page of no one club (one query for a player with a display
    name, none otherwise)."""
    if not player.display_name or _is_self(viewer, player) or access.is_site_staff(viewer):
        return player.name
    clubs = dict(
        Membership.objects.filter(player=player, is_active=True).values_list("club_id", "club__allow_display_names")
    )
    if not any(clubs.values()) or set(clubs) & _directed_club_ids(viewer):
        return player.name
    return player.display_name


def display_name_allowed_of(prefix: str = ""):
    """Whether one of the player's clubs allows display names, as a query condition (`prefix` leads to the
    player)."""
    return Exists(
        Membership.objects.filter(player=OuterRef(f"{prefix}pk"), is_active=True, club__allow_display_names=True)
    )


def shown_name_of(prefix: str = "", *, viewer=None):
    """`shown_name_anywhere` as a query expression, for lists of players from many clubs (the players API, the
    overall rating list): annotate with it, show it, and filter by it, so a search by a name never finds a
    pseudonym the caller may not see the name of."""
    if access.is_site_staff(viewer):
        return F(f"{prefix}name")
    shows = ~Q(**{f"{prefix}display_name": ""}) & display_name_allowed_of(prefix)
    if access.is_signed_in(viewer):
        # the viewer's directed clubs as a subquery, so the list costs no query for the viewer's roles
        directed = Membership.objects.filter(
            player__user_id=viewer.pk, is_active=True, role__in=[Role.DIRECTOR, Role.ADMIN]
        ).values("club_id")
        sees_name = Q(**{f"{prefix}user_id": viewer.pk}) | Exists(
            Membership.objects.filter(player=OuterRef(f"{prefix}pk"), is_active=True, club_id__in=directed)
        )
        shows &= ~sees_name
    return Case(When(shows, then=F(f"{prefix}display_name")), default=F(f"{prefix}name"))
