from functools import cache

from django.apps import apps
from django.urls import NoReverseMatch, reverse


def navigation(request):
    """Menu entries contributed by each app through `nav_items` on its AppConfig, and the number of results
    waiting for the signed-in user's confirmation (the menu's "to confirm" badge).

    An app lists (label, url name) pairs; entries whose URL does not resolve yet are left out, so an app can
    declare its menu before its pages exist. The count is one query, run only when a page shows it; a view that
    already listed those results sets `request.to_confirm_count`; the sign-in backend loads it with the user
    (accounts.badges, registered by match play), so this base app asks no app above it.
    """
    items = []
    for config in apps.get_app_configs():
        for label, url_name in getattr(config, "nav_items", ()):
            try:
                items.append({"label": label, "url": reverse(url_name)})
            except NoReverseMatch:
                continue

    @cache
    def to_confirm_count() -> int:
        known = getattr(request, "to_confirm_count", None)
        user = getattr(request, "user", None)
        if known is None:
            known = getattr(user, "to_confirm_count", None)  # loaded with the user (accounts.backends)
        if known is not None:
            return known
        return 0

    return {"nav_items": items, "to_confirm_count": to_confirm_count}
