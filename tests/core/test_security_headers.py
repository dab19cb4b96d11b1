"""Security headers: a Content-Security-Policy on every answer (pages, API, errors), HSTS only over HTTPS, and
no inline script left in the templates that the policy would block."""

import re

import pytest
from django.conf import settings
from django.test import Client

from tests.paths import REPO

pytestmark = pytest.mark.django_db

PAGES = ["/", "/accounts/login/", "/accounts/password_reset/", "/api/v1/clubs/", "/api/docs/", "/health/"]


@pytest.mark.parametrize("url", PAGES + ["/no-such-page/"])
def test_every_answer_carries_the_content_security_policy(url):
    policy = Client().get(url)["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["script-src"] == "'self'"
    assert directives["default-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


def test_hsts_is_sent_over_https_and_not_over_plain_http():
    assert settings.SECURE_HSTS_SECONDS >= 365 * 24 * 3600
    secure = Client().get("/", secure=True)
    assert secure["Strict-Transport-Security"].startswith(f"max-age={settings.SECURE_HSTS_SECONDS}")
    assert "Strict-Transport-Security" not in Client().get("/")


def test_behind_a_proxy_the_forwarded_https_counts_as_secure(settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert "Strict-Transport-Security" in Client().get("/", HTTP_X_FORWARDED_PROTO="https")
    assert "Strict-Transport-Security" not in Client().get("/", HTTP_X_FORWARDED_PROTO="http")


def test_session_and_csrf_cookies_are_secure_when_debug_is_off():
    assert settings.SESSION_COOKIE_SECURE and settings.CSRF_COOKIE_SECURE


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", re.IGNORECASE)
INLINE_HANDLER = re.compile(r"\son[a-z]+\s*=", re.IGNORECASE)
STYLE_ATTRIBUTE = re.compile(r"<[^>]*\sstyle\s*=", re.IGNORECASE)
JS_URL = re.compile(r"javascript:", re.IGNORECASE)


def test_no_template_has_inline_script_handlers_or_styles_the_policy_would_block():
    templates = [p for p in REPO.glob("**/templates/**/*.html") if ".venv" not in p.parts]
    assert templates
    offenders = []
    for path in templates:
        text = path.read_text()
        for pattern in (INLINE_SCRIPT, INLINE_HANDLER, STYLE_ATTRIBUTE, JS_URL):
            offenders += [f"{path.relative_to(REPO)}: {m.group(0)!r}" for m in pattern.finditer(text)]
    assert offenders == []
