"""Test clients signed in as a user (or anonymous), for the page and API tests that act as several people."""

from django.test import Client
from rest_framework.test import APIClient


def web(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client
