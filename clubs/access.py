"""The one place that decides who may do what.

    can(user, "club.edit", club) -> bool          views and templates ask
    require(user, "club.edit", club)              services enforce (django PermissionDenied, translated)

Actions are dotted strings ("club.edit", "player.edit", "match.override", "chouette.enter_game", ...). Each app
registers the rules for its own actions in `<app>/permissions.py` with `@rule("action", message)`; config/pipeline.py
lists those modules and imports them at startup, so a rule exists before the first request.

Why one module: the checks used to be spread over services, models, selectors and views, and chains of steps
that were each allowed (create a club, add someone else's player to it, then edit that player as its admin) let
a stranger in. Here every rule sees the same facts:

- a rule names the club it asks about: every model that belongs to a club says which with its own `club` (a
  foreign key, or a property that walks its known path: `Flight.club` is its event's; None for what belongs to
  no club, e.g. a casual match), and the role checks below take that club, never a guess from attribute names;
- `role_at(user, club)` is the user's role at the club through an *accepted*, active membership (invitations
  not yet accepted give no rights), looked up once per user object: every club in one query, cached on the
  user instance (Django and DRF build one user object per request, so this is per request);
- site staff (superusers and staff users) pass every rule.

Modelled on Tabbycat's users/permissions.py (`has_permission(user, permission, tournament)`, memoised on the
user), with rules as functions so that consent (who accepted what) can be part of a rule.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ImproperlyConfigured, PermissionDenied
from django.db.models.signals import post_delete, post_save
from django.http import Http404
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from rest_framework.permissions import SAFE_METHODS, BasePermission

from base.compiled import CompiledRead
from clubs.models import ROLE_RANK, Club, Membership, Player, Role

RuleFunc = Callable[[Any, Any], bool]


@dataclass(frozen=True)
class Rule:
    action: str
    check: RuleFunc
    message: str | Promise
    anonymous: bool  # may the rule ever allow an anonymous visitor? (read actions only)


_RULES: dict[str, Rule] = {}

DEFAULT_MESSAGE = _("You do not have the right to do this.")


def rule(action: str, message: str | Promise = DEFAULT_MESSAGE, *, anonymous: bool = False):
    """Register the function (user, obj) -> bool deciding `action`. The message says who may do it, so the
    refusal tells the user what to do. Rules run for signed-in users who are not site staff, unless
    `anonymous` is set."""

    def register(check: RuleFunc) -> RuleFunc:
        existing = _RULES.get(action)
        if existing is not None and existing.check.__qualname__ != check.__qualname__:
            raise ImproperlyConfigured(f"Two rules for the action {action!r}.")
        _RULES[action] = Rule(action, check, message, anonymous)
        return check

    return register


def actions() -> list[str]:
    """Every registered action (the permission matrix test walks them)."""
    return sorted(_RULES)


def _rule(action: str) -> Rule:
    try:
        return _RULES[action]
    except KeyError:
        raise ImproperlyConfigured(
            f"No rule for the action {action!r}: register one in <app>/permissions.py."
        ) from None


def is_signed_in(user) -> bool:
    return bool(getattr(user, "is_authenticated", False) and getattr(user, "is_active", True))


def is_site_staff(user) -> bool:
    return is_signed_in(user) and bool(getattr(user, "is_superuser", False) or getattr(user, "is_staff", False))


def can(user, action: str, obj: Any = None) -> bool:
    """May `user` do `action` on `obj`?"""
    found = _rule(action)
    if not is_signed_in(user):
        return found.anonymous and bool(found.check(user, obj))
    if is_site_staff(user):
        return True
    return bool(found.check(user, obj))


def require(user, action: str, obj: Any = None, message: str | Promise | None = None) -> None:
    """Raise PermissionDenied (with the rule's translated message) unless `user` may do `action` on `obj`."""
    if not can(user, action, obj):
        raise PermissionDenied(str(message or _rule(action).message))


def club_for(user, slug: str, action: str) -> Club:
    """The club named by a URL's `slug` for an action on it: a club the user cannot see is not found (404, as if
    it did not exist), one they see but may not `action` is refused (403) — both before any input is read, so a
    body's errors never answer someone who may not act at all."""
    from clubs.selectors import visible_club  # noqa: PLC0415 - clubs.selectors imports this module

    found = visible_club(user=user, slug=slug)
    if found is None:
        raise Http404(str(_("No such club.")))
    require(user, action, found)
    return found


def message_for(action: str) -> str:
    return str(_rule(action).message)


# --- roles, memoised per user object -------------------------------------------------------------------------

# Bumped whenever a membership is written in this process: a user object that cached its roles before (a
# script or test acting with the same user across several service calls) reloads them. Requests build a new
# user object each time, so across processes the per-request cache is all there is.
_generation = [0]


def _membership_changed(**kwargs) -> None:
    _generation[0] += 1


post_save.connect(_membership_changed, sender=Membership, dispatch_uid="access_membership_saved")
post_delete.connect(_membership_changed, sender=Membership, dispatch_uid="access_membership_deleted")


# Asked by nearly every permission check of a signed-in user (once per request: cached on the user below), so
# compiled once per process (base.compiled).
_ROLES_OF_USER = CompiledRead(
    lambda user_id: Membership.objects.filter(
        player__user_id=user_id, is_active=True, status=Membership.Status.ACCEPTED
    )
    .order_by()
    .values_list("club_id", "role")
)


def roles_of(user) -> dict[int, str]:
    """{club id: role} of the user's accepted, active memberships."""
    if not is_signed_in(user):
        return {}
    cached = getattr(user, "_access_roles", None)
    if cached is not None and cached[0] == _generation[0]:
        return cached[1]
    roles = dict(_ROLES_OF_USER.all(user.pk))
    user._access_roles = (_generation[0], roles)
    return roles


def role_at(user, club: Club | None) -> str | None:
    if club is None:
        return None
    return roles_of(user).get(club.pk)


def has_role(user, club: Club | None, at_least: str) -> bool:
    """At least this role at the club (site staff always)."""
    if is_site_staff(user):
        return True
    role = role_at(user, club)
    return role is not None and ROLE_RANK[Role(role)] >= ROLE_RANK[Role(at_least)]


def is_member(user, club: Club | None) -> bool:
    return has_role(user, club, Role.PLAYER)


def is_director(user, club: Club | None) -> bool:
    return has_role(user, club, Role.DIRECTOR)


def is_admin(user, club: Club | None) -> bool:
    return has_role(user, club, Role.ADMIN)


def player_of(user):
    """The user's player (None without one), cached on the user like Django caches the reverse one-to-one."""
    if not is_signed_in(user):
        return None
    try:
        return user.player
    except Player.DoesNotExist:
        return None


# --- DRF glue ------------------------------------------------------------------------------------------------


class Can(BasePermission):
    """API views list the action each of their view actions needs on the object:

        permission_classes = [IsAuthenticatedOrReadOnly, access.Can]
        access_actions = {"update": "club.edit", "partial_update": "club.edit"}

    Reads pass (what a user may see is the queryset's business), and so do view actions not listed; the
    refusal carries the rule's message."""

    def has_object_permission(self, request, view, obj) -> bool:
        if request.method in SAFE_METHODS:
            return True
        action = getattr(view, "access_actions", {}).get(getattr(view, "action", None))
        if action is None:
            return True
        if can(request.user, action, obj):
            return True
        self.message = message_for(action)
        return False
