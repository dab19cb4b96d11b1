"""Permission classes that every app reuses.

Objects tell these classes who they belong to through small hooks, so the rules live next to the models:
- `club_of(obj)`: a Club, or any object with a `club` attribute;
- an object with `user_is_director(user)` (an event, a match in an event) for IsEventDirector;
- an object with `user_is_participant(user)` (a match, a chouette seat) for IsParticipantOrDirector.
"""

from rest_framework.permissions import SAFE_METHODS, BasePermission

from clubs import selectors
from clubs.models import Club


def club_of(obj) -> Club:
    return obj if isinstance(obj, Club) else obj.club


class IsClubAdminOrReadOnly(BasePermission):
    message = "Only an admin of this club can change it."

    def has_object_permission(self, request, view, obj) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return selectors.is_club_admin(user=request.user, club=club_of(obj))


class IsClubDirectorOrReadOnly(BasePermission):
    message = "Only a director or admin of this club can do this."

    def has_object_permission(self, request, view, obj) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return selectors.is_club_director(user=request.user, club=club_of(obj))


class IsEventDirector(BasePermission):
    message = "Only a director of this event can do this."

    def has_object_permission(self, request, view, obj) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return bool(request.user.is_superuser or obj.user_is_director(request.user))


class IsParticipantOrDirector(BasePermission):
    message = "Only the players of this match and its directors can do this."

    def has_object_permission(self, request, view, obj) -> bool:
        if request.method in SAFE_METHODS:
            return True
        user = request.user
        return bool(user.is_superuser or obj.user_is_participant(user) or obj.user_is_director(user))
