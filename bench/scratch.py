"""A throwaway test database for the benchmarks that need rows (SQLite in memory, or a test database on the
server DATABASE_URL names), set up and torn down so several benchmarks can run one after another."""

from contextlib import contextmanager

from django.db import connection
from django.test.utils import setup_databases, setup_test_environment, teardown_databases, teardown_test_environment


@contextmanager
def scratch_database():
    setup_test_environment()
    old = setup_databases(verbosity=0, interactive=False)
    try:
        yield
    finally:
        connection.queries_log.clear()
        teardown_databases(old, verbosity=0)
        teardown_test_environment()
