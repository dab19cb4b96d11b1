"""Test clients signed in as a user (or anonymous), for the page and API tests that act as several people."""

from django.db import connection
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


def queries_of(client: Client, url: str) -> tuple[int, str]:
    """How many SQL queries a GET of `url` runs, and the page: counted as they execute, whatever Django's query log
    holds (a request empties that log when it starts, so a capture around a request can come out empty)."""
    seen = []

    def count(execute, sql, params, many, context):
        seen.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        page = client.get(url).content.decode()
    return len(seen), page
