"""Request-level limits, applied before any view, session or upload handler reads the body.

A NUL character in the path, the query string (`?club=%00`) or a page's posted form is refused with 400:
PostgreSQL cannot store or compare text holding one, so a filter on it or a comment read straight from
request.POST failed with a 500. (API bodies: base.parsers.)

Django streams an upload above FILE_UPLOAD_MAX_MEMORY_SIZE into a temporary file, however large: a 500 MiB
body was accepted and written to disk before the view could refuse it. This middleware refuses a body whose
Content-Length is above REQUEST_MAX_BODY_SIZE with 413 and a message saying the limit, without reading it.
(A WSGI server only hands the application the Content-Length bytes it announced, so the header is the size.)
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.core.handlers.exception import response_for_exception
from django.http import Http404, HttpResponse, JsonResponse, QueryDict
from django.middleware import common
from django.shortcuts import render
from django.utils.http import escape_leading_slashes
from django.utils.translation import gettext as _

from base.api import error_body, refusal_text
from base.errors import DomainError
from base.faults import classify, fault_response
from base.locks import BUSY_MESSAGE, is_busy


def _mebibytes(size: int) -> str:
    return f"{size / (1024 * 1024):g} MiB"


class RequestLimitsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        limit = settings.REQUEST_MAX_BODY_SIZE
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0  # Django reads such a body as empty
        if limit and length > limit:
            message = _(
                "A request may carry at most %(limit)s; this one carries more. Upload fewer or smaller files."
            ) % {"limit": _mebibytes(limit)}
            response = _refusal(request, message, 413, "too_large")
            response["Connection"] = "close"  # the unread body must not be taken for the next request
            return response
        if "\x00" in request.path or _has_nul(request.GET):
            return _refusal(request, _("The address may not contain NUL characters."), 400, "nul_character")
        if request.method == "POST" and not request.path.startswith("/api/") and _has_nul(_form_data(request)):
            return _refusal(request, _("A form may not contain NUL characters."), 400, "nul_character")
        return self.get_response(request)


class LockBusyMiddleware:
    """A page whose service waited too long for a row lock (base.locks) answers 409 with the "try again"
    message instead of a 500; the API's exception handler and base.web.attempt answer it themselves."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if is_busy(exception):
            return _refusal(request, str(BUSY_MESSAGE), 409, "busy")
        return None


class DependencyFaultMiddleware:
    """A page or an API view outside DRF whose database, media disk or broker failed answers 503 or 507 with
    Retry-After (base.faults: the API's error body under /api/, the 503 page in the layout otherwise), not
    Django's HTML 500. DRF views answer in base.api.exception_handler; what a middleware raises around the view
    reaches base.views.server_error, which answers the same."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        fault = classify(exception)
        return None if fault is None else fault_response(request, fault, exception)


def _has_nul(data) -> bool:
    return any("\x00" in key or "\x00" in value for key, values in data.lists() for value in values)


def _form_data(request):
    """The posted form fields (not files) of a page's form; views that read request.POST themselves (a
    comment, a name) are covered as well as Django forms. The API's parsers check their own payloads."""
    try:
        return request.POST
    except Exception:  # a malformed body: the view answers it as it always has
        return QueryDict()


def _refusal(request, message: str, status: int, code: str) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse(error_body(code, message), status=status)
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")


class RefusalPageMiddleware:
    """A page (not the API) that hits a state refusal it did not catch answers 409 inside the site layout with
    the reason, instead of a server error: the web views' own catch (base.web.attempt) covers the usual
    forms, this covers the rest. A service's NotAllowed or NotFound answers Django's 403 or 404 page (from
    templates/403.html and 404.html), as a PermissionDenied or Http404 would."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if request.path.startswith("/api/"):
            return None
        if not isinstance(exception, DomainError):
            return None
        if exception.status_code == 403:
            return response_for_exception(request, PermissionDenied(refusal_text(exception)))
        if exception.status_code == 404:
            return response_for_exception(request, Http404(refusal_text(exception)))
        if exception.is_conflict:
            return render(request, "409.html", {"exception": refusal_text(exception)}, status=409)
        return None


class CommonMiddleware(common.CommonMiddleware):
    """Django's, but an API address without its trailing slash (`POST /api/v1/events`) answers 308 to the address
    with it, in the API's error body: the client sends the same method and body there. Django answered 301 with an
    HTML body, after which clients send a POST again as a GET (the body lost, a 405 or a list instead of the write),
    and with DEBUG it raised (a 500). Pages keep Django's 301."""

    def process_response(self, request, response):
        api = request.path.startswith("/api/")
        if response.status_code == 404 and api and self.should_redirect_with_slash(request):
            location = escape_leading_slashes(request.get_full_path(force_append_slash=True))
            detail = _("This address ends with a slash: %(path)s. Send the request there.") % {"path": location}
            answer = _refusal(request, detail, 308, "trailing_slash")
            answer["Location"] = location
            return answer
        return super().process_response(request, response)
