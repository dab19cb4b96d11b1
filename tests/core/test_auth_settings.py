"""The sign-in, token, security and mail settings refuse a bad value at start-up, naming the variable."""

import os
import subprocess
import sys

import pytest

from tests.paths import REPO


def start(**environment) -> subprocess.CompletedProcess:
    env = {**os.environ, "SECRET_KEY": "t", "STATIC_MANIFEST": "0", **environment}
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=REPO,
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("variable", "value", "says"),
    [
        ("LOGIN_FAILURE_LIMIT", "0", "LOGIN_FAILURE_LIMIT=0 is out of range: use a number from 1 to 10000."),
        ("LOGIN_LOCKOUT_MINUTES", "999999999999", "LOGIN_LOCKOUT_MINUTES=999999999999 is out of range"),
        ("TOKEN_TTL", "-1", "TOKEN_TTL=-1 is out of range"),
        ("EMAIL_USE_SSL", "1", "EMAIL_USE_TLS and EMAIL_USE_SSL exclude each other"),
        ("BEHIND_PROXY", "perhaps", "BEHIND_PROXY='perhaps' is not a boolean"),
    ],
)
def test_a_bad_value_stops_start_up_naming_the_variable(variable, value, says):
    started = start(**{variable: value})
    assert started.returncode != 0
    assert says in started.stderr


def test_mail_goes_to_smtp_when_a_host_is_set_and_is_refused_when_nothing_is_configured():
    show = "from django.conf import settings; print(settings.EMAIL_BACKEND, settings.EMAIL_USE_TLS)"
    run = [sys.executable, "-c", f"import django; django.setup(); {show}"]
    base = {**os.environ, "SECRET_KEY": "t", "STATIC_MANIFEST": "0", "DJANGO_SETTINGS_MODULE": "config.settings"}
    base.pop("EMAIL_HOST", None)
    smtp = subprocess.run(run, cwd=REPO, env={**base, "EMAIL_HOST": "mail.example.org"}, capture_output=True, text=True)
    assert smtp.stdout.split() == ["django.core.mail.backends.smtp.EmailBackend", "True"]
    nothing = subprocess.run(run, cwd=REPO, env=base, capture_output=True, text=True)
    assert nothing.stdout.split()[0] == "accounts.mail.UnconfiguredEmailBackend"
    debug = subprocess.run(run, cwd=REPO, env={**base, "DEBUG": "1"}, capture_output=True, text=True)
    assert debug.stdout.split()[0] == "django.core.mail.backends.console.EmailBackend"
