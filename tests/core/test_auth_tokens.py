"""API tokens: made by signing in, hashed at rest, listed and revoked by their owner only, refused once expired."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import ApiToken
from accounts.services import MAX_TOKENS_PER_USER
from tests.clubs.factories import UserFactory
from tests.schema_check import SchemaCheckingClient

pytestmark = pytest.mark.django_db


def obtain(username: str, name: str | None = None) -> dict:
    data = {"username": username, "password": "pw-for-tests"}
    if name is not None:
        data["name"] = name
    response = SchemaCheckingClient().post("/api/v1/auth/token/", data, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def with_token(key: str) -> SchemaCheckingClient:
    client = SchemaCheckingClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_a_signed_in_token_works_and_only_its_digest_is_stored():
    user = UserFactory()
    key = obtain(user.username)["token"]
    assert with_token(key).get("/api/v1/auth/tokens/").status_code == 200
    stored = ApiToken.objects.get(user=user)
    assert key not in {stored.digest, stored.prefix} and stored.prefix == key[:8]


def test_a_user_lists_their_own_tokens_and_not_others():
    anna, bernd = UserFactory(), UserFactory()
    key = obtain(anna.username, name="score bot")["token"]
    obtain(bernd.username, name="bernd's script")
    listed = with_token(key).get("/api/v1/auth/tokens/").json()["results"]
    assert [(row["name"], row["prefix"]) for row in listed] == [("score bot", key[:8])]
    assert listed[0]["last_used"] is not None  # this very request used it
    assert listed[0]["expires"] is not None


def test_a_user_revokes_their_token_and_it_stops_working():
    user = UserFactory()
    key = obtain(user.username)["token"]
    other_key = obtain(user.username, name="second")["token"]
    token = ApiToken.objects.get(user=user, prefix=key[:8])
    assert with_token(other_key).delete(f"/api/v1/auth/tokens/{token.pk}/").status_code == 204
    refused = with_token(key).get("/api/v1/auth/tokens/")
    assert refused.status_code == 401
    assert "revoked" in refused.json()["detail"]
    assert with_token(other_key).get("/api/v1/auth/tokens/").status_code == 200


def test_nobody_revokes_another_users_token():
    anna, bernd = UserFactory(), UserFactory()
    obtain(anna.username)
    bernd_key = obtain(bernd.username)["token"]
    annas = ApiToken.objects.get(user=anna)
    assert with_token(bernd_key).delete(f"/api/v1/auth/tokens/{annas.pk}/").status_code == 404
    assert ApiToken.objects.filter(pk=annas.pk).exists()
    assert SchemaCheckingClient().delete(f"/api/v1/auth/tokens/{annas.pk}/").status_code == 403
    assert SchemaCheckingClient().get("/api/v1/auth/tokens/").status_code == 403


def test_an_expired_token_is_refused_with_a_clear_401(settings):
    settings.TOKEN_TTL = 90
    user = UserFactory()
    key = obtain(user.username)["token"]
    ApiToken.objects.filter(user=user).update(created=timezone.now() - timedelta(days=91))
    refused = with_token(key).get("/api/v1/auth/tokens/")
    assert refused.status_code == 401 and refused["WWW-Authenticate"] == "Token"
    assert "This token expired on" in refused.json()["detail"]
    assert "POST /api/v1/auth/token/" in refused.json()["detail"]
    settings.TOKEN_TTL = 0  # 0: tokens never expire
    assert with_token(key).get("/api/v1/auth/tokens/").status_code == 200


def test_signing_in_over_and_over_keeps_at_most_the_token_limit():
    user = UserFactory()
    keys = [obtain(user.username)["token"] for _ in range(MAX_TOKENS_PER_USER + 3)]
    assert ApiToken.objects.filter(user=user).count() == MAX_TOKENS_PER_USER
    assert with_token(keys[-1]).get("/api/v1/auth/tokens/").status_code == 200


def test_the_account_page_lists_creates_and_revokes_tokens():
    user, other = UserFactory(), UserFactory()
    obtain(other.username, name="not mine")
    client = Client()
    client.force_login(user)
    created = client.post("/accounts/tokens/", {"name": "club laptop"})
    assert created.status_code == 200
    key = created.context["new_key"]
    assert key in created.content.decode()  # shown once, right after it was made
    page = client.get("/accounts/").content.decode()
    assert "club laptop" in page and key[:8] in page and key not in page and "not mine" not in page
    token = ApiToken.objects.get(user=user)
    foreign = ApiToken.objects.get(user=other)
    assert client.post(f"/accounts/tokens/{foreign.pk}/revoke/").status_code == 404
    assert client.post(f"/accounts/tokens/{token.pk}/revoke/").status_code == 302
    assert not ApiToken.objects.filter(user=user).exists()
    assert ApiToken.objects.filter(pk=foreign.pk).exists()
    assert "The token was revoked" in client.get("/accounts/").content.decode()


def test_the_account_page_is_linked_from_the_header_and_needs_a_sign_in():
    user = UserFactory()
    assert Client().get("/accounts/").status_code == 302
    client = Client()
    client.force_login(user)
    assert 'href="/accounts/"' in client.get("/").content.decode()


def test_tokens_made_before_the_upgrade_keep_working():
    """The data migration copies DRF's stored keys as digests: scripts already holding a key go on working."""
    from importlib import import_module

    from django.apps import apps
    from rest_framework.authtoken.models import Token

    user = UserFactory()
    old = Token.objects.create(user=user)
    import_module("accounts.migrations.0002_copy_drf_tokens").copy_tokens(apps, None)
    assert with_token(old.key).get("/api/v1/auth/tokens/").json()["results"][0]["prefix"] == old.key[:8]
    assert ApiToken.objects.get(user=user).created == old.created
