import sys

from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.defaults import page_not_found
from django.views.defaults import server_error as django_server_error
from rest_framework.exceptions import NotFound

from base import panels
from base.api import error_body
from base.faults import classify, fault_response
from base.health import report as health_report


def home(request):
    """Visitors get a greeting and the "home" panels (the clubs list, …); a signed-in user their own page, made of
    the "my_home" sections the apps register (results to confirm, next matches, events, rating, open tables), so
    this base app never reaches up into the apps that know those things."""
    if request.user.is_authenticated:
        return render(request, "core/my_home.html", {"panels": panels.collect("my_home", request, None)})
    return render(request, "core/home.html", {"panels": panels.collect("home", request, None)})


def live(request):
    """A load balancer's per-node check: this process answers. It asks neither the database nor the broker: they are
    shared by every node, so a check on them says the same everywhere, and during a Redis outage (every node still
    serving writes) it would have dropped all nodes at once. The site's own state is /health/'s business."""
    return JsonResponse({"status": "ok"})


def health(request):
    """For directors and alerting (the site's readiness): 200 when the database answers, the broker takes tasks and a
    worker ran a heartbeat lately (beat sends one every HEALTH_HEARTBEAT_EVERY_SECONDS); 503 naming what fails
    otherwise. Bounded: each check has its own timeout (base.health), so it answers within seconds whatever is down.
    With no broker configured, tasks run in-process and it says so."""
    report = health_report()
    return JsonResponse(report, status=200 if report["status"] == "ok" else 503)


def not_found(request, exception=None):
    """An address under /api/ that matches no route (an id that is not digits, a mistyped path) answers the API's
    error body like every other API refusal, not the site's HTML 404 page a client cannot read; pages keep it."""
    if request.path.startswith("/api/"):
        return JsonResponse(error_body("not_found", str(NotFound.default_detail)), status=404)
    return page_not_found(request, exception)


def server_error(request):
    """Django's answer to an exception nothing else caught, also one a middleware raised before or after the view
    (the session read or saved while the database is down): a dependency's fault answers 503/507 with Retry-After
    (base.faults), and any other error the API's error body under /api/ (a client cannot read Django's HTML),
    the site's 500 page elsewhere."""
    exc = sys.exc_info()[1]
    fault = classify(exc)
    if fault is not None:
        return fault_response(request, fault, exc)
    if request.path.startswith("/api/"):
        return JsonResponse(
            error_body("server_error", _("Something went wrong on the server; it has been logged.")), status=500
        )
    return django_server_error(request)
