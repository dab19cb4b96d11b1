"""On PostgreSQL a statement the application sends again on a connection is prepared there (settings
DATABASE_PREPARED): PostgreSQL plans it once per connection instead of on every request. A confirmation's rating
rule and its bracket slot lock cost the server more to plan than to run (docs/performance.md)."""

import pytest
from django.db import connection

pytestmark = [pytest.mark.services, pytest.mark.django_db]

PROBE = "SELECT %s::bigint AS prepared_statement_probe"


def _prepared() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements WHERE statement LIKE '%%statement_probe%%'")
        return [row[0] for row in cursor.fetchall()]


def _probe(value: int) -> int:
    with connection.cursor() as cursor:
        cursor.execute(PROBE, [value])
        return cursor.fetchone()[0]


def test_a_statement_sent_a_third_time_on_a_connection_runs_prepared_with_its_values_bound():
    assert connection.vendor == "postgresql"
    assert [_probe(1), _probe(2)] == [1, 2]
    assert _prepared() == []  # twice is not enough (prepare_threshold)
    assert [_probe(3), _probe(4)] == [3, 4]
    (statement,) = _prepared()
    assert "$1" in statement  # one statement for every value: the server binds them
