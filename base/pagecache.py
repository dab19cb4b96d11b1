"""Whole pages for anonymous readers, served from the shared cache.

A public page that is the same for every reader who is not signed in (the public bracket, a round flight's public
page) is rendered once per version of what it shows and then served as a string: the layout around a cached body
was most of such a request's work (some 17 URL reversals, every translated string of the header, the template
engine's context), and a big event's public pages are read by many more people than sign in.

What makes a page the same for every anonymous reader: no CSRF token (the language switch takes none from
readers who are not signed in: notifications.views.set_language), no flash message (a request carrying the
messages cookie or a session is rendered for itself), and a key that names the full path (the sign-in link and the
language form's "next" carry it), the language, and whatever version the caller's content has."""

import hashlib

from django.conf import settings
from django.http import HttpRequest

MESSAGES_COOKIE = "messages"  # django.contrib.messages' CookieStorage (the default FallbackStorage's first)


def serves(request: HttpRequest) -> bool:
    """Whether this request may be answered with the anonymous readers' page: a read by someone not signed in,
    who carries no session (whose flash messages the page would show) and no messages cookie."""
    return (
        request.method in ("GET", "HEAD")
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and MESSAGES_COOKIE not in request.COOKIES
        and not request.user.is_authenticated
    )


def variant(request: HttpRequest, *parts: object) -> str:
    """The part of a cache key that names the request's full path and the caller's other inputs (names shown in
    the layout, say), hashed to a fixed length."""
    text = "\x00".join([request.get_full_path(), *(str(part) for part in parts)])
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()
