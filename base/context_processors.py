from django.apps import apps
from django.urls import NoReverseMatch, reverse


def navigation(request):
    """Menu entries contributed by each app through `nav_items` on its AppConfig.

    An app lists (label, url name) pairs; entries whose URL does not resolve yet are left out, so an app can
    declare its menu before its pages exist.
    """
    items = []
    for config in apps.get_app_configs():
        for label, url_name in getattr(config, "nav_items", ()):
            try:
                items.append({"label": label, "url": reverse(url_name)})
            except NoReverseMatch:
                continue
    return {"nav_items": items}
