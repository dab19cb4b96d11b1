"""The panel on an event's page: its points scheme, the winners' points and the link to the points page."""

from django.template.loader import render_to_string

from ratings import selectors


def event_panel(request, event):
    scheme, awards = selectors.event_points(event=event, limit=4)
    return render_to_string("points/_event_panel.html", {"event": event, "scheme": scheme, "awards": awards}, request)
