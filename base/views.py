from django.http import JsonResponse
from django.shortcuts import render

from base.health import report as health_report
from base.home import personal_home
from clubs import selectors as club_selectors


def home(request):
    """Visitors get the clubs; a signed-in user their own page: results to confirm, next matches, tables."""
    if request.user.is_authenticated:
        context = personal_home(request.user)
        request.to_confirm_count = len(context["to_confirm"])  # the menu badge needs no query of its own
        return render(request, "core/my_home.html", context)
    clubs = club_selectors.visible_clubs(user=request.user).with_member_counts()[:20]
    return render(request, "core/home.html", {"clubs": clubs})


def health(request):
    """For load balancers and directors: 200 when the database answers, the broker takes tasks and a worker ran a
    heartbeat lately (beat sends one every BEAT_EVERY_SECONDS); 503 naming what fails otherwise. With no broker
    configured, tasks run in-process and it says so."""
    report = health_report()
    return JsonResponse(report, status=200 if report["status"] == "ok" else 503)
