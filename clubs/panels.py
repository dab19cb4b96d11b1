"""The clubs' panel on the home page (base renders the "home" panels the apps register; it imports no app)."""

from django.template.loader import render_to_string

from clubs import selectors


def home_panel(request, _obj):
    clubs = selectors.visible_clubs(user=request.user).with_member_counts()[:20]
    return render_to_string("clubs/_home_panel.html", {"clubs": clubs}, request)
