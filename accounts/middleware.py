"""Turns a sign-in refused by the throttle into 429 Too Many Requests with the time to wait."""

import math
from datetime import timedelta

from django.http import JsonResponse
from django.shortcuts import render
from django.utils import formats, timezone
from django.utils.translation import ngettext

from accounts.backends import LOCKED_ATTRIBUTE


def lockout_message(seconds: int) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    at = formats.time_format(timezone.localtime(timezone.now() + timedelta(seconds=seconds)), "TIME_FORMAT")
    return ngettext(
        "Too many failed sign-ins. Try again in %(minutes)d minute (after %(time)s).",
        "Too many failed sign-ins. Try again in %(minutes)d minutes (after %(time)s).",
        minutes,
    ) % {"minutes": minutes, "time": at}


class LoginThrottleMiddleware:
    """The backend only marks the request (it cannot answer itself); whatever the login form or the token
    endpoint answered is replaced here: JSON for the API, a page of the site for the browser."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        seconds = getattr(request, LOCKED_ATTRIBUTE, 0)
        if not seconds:
            return response
        message = lockout_message(seconds)
        if request.path.startswith("/api/"):
            # the API's one error body (base.api), with the seconds to wait as in the Retry-After header
            body = {"code": "throttled", "detail": message, "field": None, "retry_after": seconds}
            locked = JsonResponse(body, status=429)
        else:
            locked = render(request, "registration/locked_out.html", {"message": message}, status=429)
        locked["Retry-After"] = str(seconds)
        return locked
