from django.http import JsonResponse
from django.shortcuts import render
from django.views.defaults import page_not_found
from rest_framework.exceptions import NotFound

from base import panels
from base.api import error_body
from base.health import report as health_report


def home(request):
    """Visitors get a greeting and the "home" panels (the clubs list, …); a signed-in user their own page, made of
    the "my_home" sections the apps register (results to confirm, next matches, events, rating, open tables), so
    this base app never reaches up into the apps that know those things."""
    if request.user.is_authenticated:
        return render(request, "core/my_home.html", {"panels": panels.collect("my_home", request, None)})
    return render(request, "core/home.html", {"panels": panels.collect("home", request, None)})


def health(request):
    """For load balancers and directors: 200 when the database answers, the broker takes tasks and a worker ran a
    heartbeat lately (beat sends one every BEAT_EVERY_SECONDS); 503 naming what fails otherwise. With no broker
    configured, tasks run in-process and it says so."""
    report = health_report()
    return JsonResponse(report, status=200 if report["status"] == "ok" else 503)


def not_found(request, exception=None):
    """An address under /api/ that matches no route (an id that is not digits, a mistyped path) answers the API's
    error body like every other API refusal, not the site's HTML 404 page a client cannot read; pages keep it."""
    if request.path.startswith("/api/"):
        return JsonResponse(error_body("not_found", str(NotFound.default_detail)), status=404)
    return page_not_found(request, exception)
