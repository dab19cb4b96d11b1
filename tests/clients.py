"""Test clients signed in as a user (or anonymous), for the page and API tests that act as several people."""

from django.test import Client

from tests.schema_check import SchemaCheckingClient


def web(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def api(user=None) -> SchemaCheckingClient:
    """An API client whose every answer is checked against the OpenAPI schema (tests/schema_check.py)."""
    client = SchemaCheckingClient()
    if user is not None:
        client.force_authenticate(user)
    return client
