"""Sign-in throttling on the three ways in: the web sign-in form, the admin sign-in and the API token endpoint.

Only failures count, per account at an address and (with a higher limit) per address; a locked-out request
is refused before any password is hashed, and answers 429 with the time to wait."""

import re

import pytest
from django.contrib.auth import hashers
from django.test import Client

from accounts.models import LoginFailureWindow
from tests.clubs.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "pw-for-tests"


def api_sign_in(client: Client, username: str, password: str, address: str = "203.0.113.7"):
    return client.post(
        "/api/v1/auth/token/",
        {"username": username, "password": password},
        content_type="application/json",
        REMOTE_ADDR=address,
    )


def form_sign_in(client: Client, username: str, password: str, address: str = "203.0.113.7", url="/accounts/login/"):
    return client.post(url, {"username": username, "password": password}, REMOTE_ADDR=address)


@pytest.fixture
def hashes(monkeypatch):
    """Counts password hash computations (the cost a guesser imposes on the server)."""
    calls = []
    original = hashers.MD5PasswordHasher.encode

    def counting(self, password, salt):
        calls.append(1)
        return original(self, password, salt)

    monkeypatch.setattr(hashers.MD5PasswordHasher, "encode", counting)
    return calls


def assert_locked(response):
    assert response.status_code == 429
    seconds = int(response["Retry-After"])
    assert 0 < seconds <= 15 * 60
    return seconds


def test_api_token_locks_the_account_at_the_address_after_five_wrong_passwords(settings, hashes):
    user = UserFactory()
    client = Client()
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        assert api_sign_in(client, user.username, "wrong").status_code == 400
    hashes.clear()
    locked = api_sign_in(client, user.username, PASSWORD)  # even the right password: the guesser may know it now
    seconds = assert_locked(locked)
    assert locked.json()["retry_after"] == seconds
    assert re.search(r"Try again in 15 minutes \(after \d", locked.json()["detail"])
    assert hashes == []  # refused before any hashing
    # Another address may still sign in to the same account: a guesser cannot lock its owner out everywhere.
    assert api_sign_in(client, user.username, PASSWORD, address="198.51.100.4").status_code == 200


def test_web_sign_in_form_answers_429_with_the_message_inside_the_site(settings, hashes):
    user = UserFactory()
    client = Client()
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        response = form_sign_in(client, user.username, "wrong")
        assert response.status_code == 200
        assert "didn't match" in response.content.decode()
    hashes.clear()
    locked = form_sign_in(client, user.username, PASSWORD)
    assert_locked(locked)
    page = locked.content.decode()
    assert "Too many failed sign-ins. Try again in 15 minutes" in page
    assert 'class="site-header"' in page  # a page of the site, not a bare error
    assert hashes == []
    assert "_auth_user_id" not in client.session


def test_admin_sign_in_is_throttled_too(settings):
    user = UserFactory(is_staff=True)
    client = Client()
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        assert form_sign_in(client, user.username, "wrong", url="/admin/login/").status_code == 200
    assert_locked(form_sign_in(client, user.username, PASSWORD, url="/admin/login/"))


def test_failures_through_any_entry_count_together(settings):
    user = UserFactory()
    client = Client()
    form_sign_in(client, user.username, "wrong")
    form_sign_in(client, user.username, "wrong", url="/admin/login/")
    for _ in range(settings.LOGIN_FAILURE_LIMIT - 2):
        api_sign_in(client, user.username, "wrong")
    assert_locked(form_sign_in(client, user.username, PASSWORD))


def test_the_lock_is_case_blind_on_the_username(settings):
    user = UserFactory(username="anna")
    client = Client()
    for name in ["anna", "ANNA", "Anna", "aNNa", "annA"][: settings.LOGIN_FAILURE_LIMIT]:
        api_sign_in(client, name, "wrong")
    assert_locked(api_sign_in(client, user.username, PASSWORD))


def test_a_correct_password_forgives_earlier_typos(settings):
    user = UserFactory()
    client = Client()
    for _ in range(settings.LOGIN_FAILURE_LIMIT - 1):
        api_sign_in(client, user.username, "wrong")
    assert api_sign_in(client, user.username, PASSWORD).status_code == 200
    for _ in range(settings.LOGIN_FAILURE_LIMIT - 1):
        assert api_sign_in(client, user.username, "wrong").status_code == 400
    assert api_sign_in(client, user.username, PASSWORD).status_code == 200


def test_an_address_guessing_many_accounts_is_locked_at_the_higher_limit(settings):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 12
    victims = UserFactory.create_batch(3)
    client = Client()
    for attempt in range(12):
        api_sign_in(client, f"nobody{attempt}", "wrong")
    assert_locked(api_sign_in(client, victims[0].username, PASSWORD))
    assert api_sign_in(client, victims[0].username, PASSWORD, address="198.51.100.4").status_code == 200


def test_two_hundred_players_signing_in_correctly_from_one_address_all_get_in(settings):
    """Tournament day: the whole playing room shares one address. Correct sign-ins never count, and the few
    typos among them stay below the address limit."""
    players = UserFactory.create_batch(200)
    client = Client()
    for number, player in enumerate(players):
        if number % 10 == 0:  # every tenth player mistypes once first
            assert form_sign_in(client, player.username, "typo").status_code == 200
        response = form_sign_in(client, player.username, PASSWORD)
        assert response.status_code == 302, (number, response.status_code)
        client.post("/accounts/logout/")
    assert not LoginFailureWindow.objects.filter(locked_until__isnull=False).exists()


def test_behind_a_proxy_the_address_comes_from_the_last_forwarded_entry(settings):
    settings.BEHIND_PROXY = True
    user = UserFactory()
    client = Client()
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        client.post(
            "/api/v1/auth/token/",
            {"username": user.username, "password": "wrong"},
            REMOTE_ADDR="10.0.0.1",
            HTTP_X_FORWARDED_FOR="1.2.3.4, 203.0.113.7",
        )
    # A forged left-hand entry does not escape the lock; another real client behind the proxy is not locked.
    forged = client.post(
        "/api/v1/auth/token/",
        {"username": user.username, "password": PASSWORD},
        REMOTE_ADDR="10.0.0.1",
        HTTP_X_FORWARDED_FOR="9.9.9.9, 203.0.113.7",
    )
    assert_locked(forged)
    other = client.post(
        "/api/v1/auth/token/",
        {"username": user.username, "password": PASSWORD},
        REMOTE_ADDR="10.0.0.1",
        HTTP_X_FORWARDED_FOR="198.51.100.4",
    )
    assert other.status_code == 200


def test_the_lockout_message_is_german_for_a_german_browser(settings):
    user = UserFactory()
    client = Client()
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        api_sign_in(client, user.username, "wrong")
    locked = client.post(
        "/api/v1/auth/token/",
        {"username": user.username, "password": PASSWORD},
        content_type="application/json",
        REMOTE_ADDR="203.0.113.7",
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert locked.status_code == 429
    assert "Zu viele fehlgeschlagene Anmeldungen" in locked.json()["detail"]


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_parallel_wrong_passwords_are_all_counted(settings):
    """Guessers in parallel processes hit one counter row at once; the row lock keeps every failure counted,
    so parallel guessing cannot slip past the limit by losing updates."""
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection

    settings.LOGIN_FAILURE_LIMIT = 100
    user = UserFactory()

    def guess(number):
        try:
            return api_sign_in(Client(), user.username, f"wrong-{number}").status_code
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=8) as pool:
        codes = list(pool.map(guess, range(24)))
    assert codes == [400] * 24
    assert sorted(LoginFailureWindow.objects.values_list("failures", flat=True)) == [24, 24]
