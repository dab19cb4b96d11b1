"""Panels that apps add to shared pages (the home page, a player's page, a club's page) without editing them.

An app lists on its AppConfig, e.g. `panels = {"player": "ratings.panels.player_panel"}`; the function takes
(request, obj) and returns rendered HTML or None. The page renders them in app order.
"""

from django.apps import apps
from django.utils.module_loading import import_string
from django.utils.safestring import mark_safe


def collect(kind: str, request, obj) -> list[str]:
    html = []
    for config in apps.get_app_configs():
        path = getattr(config, "panels", {}).get(kind)
        if path:
            rendered = import_string(path)(request, obj)
            if rendered:
                html.append(mark_safe(rendered))
    return html
