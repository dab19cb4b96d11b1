"""Truly simultaneous calls for the PostgreSQL race tests: each runs in its own thread with its own database
connection, and all are released by one barrier so they overlap in the database."""

import threading

from django.db import connection
from rest_framework.test import APIClient


def run_at_once(*calls, timeout: float = 60) -> list:
    """Call each function at the same instant; return what each returned, or the exception it raised."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait(timeout=10)
            results[index] = call()
        except Exception as error:  # noqa: BLE001 - the caller asserts on it
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    return results


def post_at_once(*requests) -> list[tuple[int, object]]:
    """POST each (user, path, body) as JSON at the same instant; return (status code, decoded body) for each."""

    def sender(user, path, body):
        def send():
            client = APIClient()
            client.force_authenticate(user)
            response = client.post(path, body, format="json")
            try:
                return response.status_code, response.json()
            except ValueError:
                return response.status_code, None

        return send

    answers = run_at_once(*(sender(*request) for request in requests), timeout=30)
    for answer in answers:
        if isinstance(answer, Exception):
            raise answer
    return answers
