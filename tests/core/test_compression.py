"""Pages travel gzip-compressed to a browser that asks (Django's GZipMiddleware), unchanged once decompressed, with
Django's BREACH mitigation on (random bytes in each gzip header; the CSRF token masked anew for each response);
static files stay WhiteNoise's (its precompressed .br/.gz in production), never compressed a second time."""

import gzip
import re

import pytest
from django.conf import settings
from django.test import Client

from tests.clubs.factories import MembershipFactory

pytestmark = pytest.mark.django_db

TOKEN = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]+"')


def without_tokens(body: bytes) -> bytes:
    """The page with its CSRF tokens blanked: each response masks the token anew (the BREACH mitigation)."""
    return TOKEN.sub(b'name="csrfmiddlewaretoken" value=""', body)


def test_a_page_is_gzip_when_asked_and_the_same_page_once_decompressed():
    member = MembershipFactory()
    client = Client()
    client.force_login(member.player.user)
    plain = client.get("/")
    packed = client.get("/", HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"] and "Accept-Encoding" in plain["Vary"]  # caches keep both apart
    body = gzip.decompress(packed.content)
    assert b'name="csrfmiddlewaretoken"' in body  # a page carrying a token, the case BREACH is about
    assert without_tokens(body) == without_tokens(plain.content)
    assert len(packed.content) < len(plain.content) / 2
    assert int(packed["Content-Length"]) == len(packed.content)
    # Django's mitigation: a file name of 0-99 random bytes in the gzip header (FLG.FNAME set), so the length of
    # a response no longer tells an attacker whether a guessed secret compressed well.
    assert packed.content[3] & gzip.FNAME


def test_static_files_are_left_to_whitenoise():
    response = Client().get(f"{settings.STATIC_URL}css/site.css", HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 200
    assert response.get("Content-Encoding") is None  # the middleware after WhiteNoise never saw it
    body = b"".join(response.streaming_content)
    assert body == (settings.BASE_DIR / "static" / "css" / "site.css").read_bytes()


def test_the_compression_sits_after_whitenoise_and_before_what_reads_the_body():
    order = settings.MIDDLEWARE
    gzip_at = order.index("django.middleware.gzip.GZipMiddleware")
    assert order.index("whitenoise.middleware.WhiteNoiseMiddleware") < gzip_at
    assert gzip_at < order.index("django.contrib.sessions.middleware.SessionMiddleware")
