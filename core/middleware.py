"""Request-level limits, applied before any view, session or upload handler reads the body.

A NUL character in the path or the query string (`?club=%00`) is refused with 400: PostgreSQL cannot compare
text holding one, so any filter on it failed with a 500. (API bodies: core.parsers; forms refuse NUL.)

Django streams an upload above FILE_UPLOAD_MAX_MEMORY_SIZE into a temporary file, however large: a 500 MiB
body was accepted and written to disk before the view could refuse it. This middleware refuses a body whose
Content-Length is above REQUEST_MAX_BODY_SIZE with 413 and a message saying the limit, without reading it.
(A WSGI server only hands the application the Content-Length bytes it announced, so the header is the size.)
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.utils.translation import gettext as _


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
            response = _refusal(request, message, 413)
            response["Connection"] = "close"  # the unread body must not be taken for the next request
            return response
        if "\x00" in request.path or any("\x00" in key or "\x00" in value for key, value in _query(request)):
            return _refusal(request, _("The address may not contain NUL characters."), 400)
        return self.get_response(request)


def _query(request):
    for key, values in request.GET.lists():
        for value in values:
            yield key, value


def _refusal(request, message: str, status: int) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": message}, status=status)
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")
