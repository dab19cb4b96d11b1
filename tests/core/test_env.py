import os
import subprocess
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_broker_url, env_cache, env_choice, env_database, env_int


def test_bool_accepts_common_spellings(monkeypatch):
    monkeypatch.setenv("FLAG", "Yes")
    assert env_bool("FLAG", False) is True
    monkeypatch.setenv("FLAG", "0")
    assert env_bool("FLAG", True) is False


def test_bad_bool_names_the_variable(monkeypatch):
    monkeypatch.setenv("DEBUG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="DEBUG="):
        env_bool("DEBUG", False)


def test_choice_names_the_variable_and_the_allowed_values(monkeypatch):
    monkeypatch.setenv("RATINGS_FIBS_K_RULE", "c")
    with pytest.raises(ImproperlyConfigured, match=r"RATINGS_FIBS_K_RULE='c' must be one of: a, b"):
        env_choice("RATINGS_FIBS_K_RULE", "a", ("a", "b"))
    monkeypatch.setenv("RATINGS_FIBS_K_RULE", " b ")
    assert env_choice("RATINGS_FIBS_K_RULE", "a", ("a", "b")) == "b"
    monkeypatch.delenv("RATINGS_FIBS_K_RULE")
    assert env_choice("RATINGS_FIBS_K_RULE", "a", ("a", "b")) == "a"


def test_bad_int_names_the_variable(monkeypatch):
    monkeypatch.setenv("WORKERS", "four")
    with pytest.raises(ImproperlyConfigured, match="WORKERS"):
        env_int("WORKERS", 1)


def test_database_url_must_be_postgres_or_sqlite(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "mysql://u@h/db")
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL"):
        env_database("DATABASE_URL", "sqlite:///x")


def test_garbage_database_url_names_the_variable(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "not a url at all")
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL"):
        env_database("DATABASE_URL", "sqlite:///x")


def test_postgres_url_is_parsed(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgres://bg:pw@db:5432/bgclub")
    config = env_database("DATABASE_URL", "sqlite:///x")
    assert config["ENGINE"] == "django.db.backends.postgresql" and config["NAME"] == "bgclub"


def test_unset_broker_means_in_process_tasks(monkeypatch):
    monkeypatch.delenv("CELERY_BROKER_URL", raising=False)
    assert env_broker_url("CELERY_BROKER_URL") is None


def test_non_redis_broker_is_refused(monkeypatch):
    monkeypatch.setenv("CELERY_BROKER_URL", "amqp://guest@localhost//")
    with pytest.raises(ImproperlyConfigured, match="CELERY_BROKER_URL"):
        env_broker_url("CELERY_BROKER_URL")


def test_settings_refuse_to_start_without_secret_key_when_debug_off(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DEBUG")}
    result = subprocess.run([sys.executable, "manage.py", "check"], env=env, capture_output=True, text=True)
    assert result.returncode != 0
    assert "SECRET_KEY is required" in result.stderr


def _database_settings(extra_env: dict, code: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DATABASE_")}
    env.update({"SECRET_KEY": "t", "DATABASE_URL": "postgres://u@127.0.0.1:1/none", **extra_env})
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return result.stdout.strip()


def test_the_asgi_server_borrows_connections_from_a_pool_and_keeps_none_per_thread():
    """Under ASGI a request's thread ends with the request: a persistent connection would stay open with it."""
    code = (
        "import config.asgi; from django.conf import settings; d = settings.DATABASES['default'];"
        "print(d['CONN_MAX_AGE'], d['OPTIONS']['pool']['max_size'])"
    )
    assert _database_settings({"DATABASE_POOL_MAX_SIZE": "7"}, code) == "0 7"


def test_a_web_server_process_freezes_what_it_loaded_so_the_collector_stops_scanning_it():
    """A full collection scanned the ~200,000 objects of the loaded application and stopped the process for
    80-157 ms (base/heap.py); frozen, they are skipped. Both entry points do it, after loading everything."""
    for module in ("config.asgi", "config.wsgi"):
        code = f"import gc, {module}; print(gc.get_freeze_count())"
        assert int(_database_settings({}, code)) > 50_000, module


def test_workers_and_commands_keep_their_persistent_connection_and_no_pool():
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings'; django.setup();"
        "from django.conf import settings; d = settings.DATABASES['default'];"
        "print(d['CONN_MAX_AGE'], 'pool' in d.get('OPTIONS', {}))"
    )
    assert _database_settings({}, code) == "60 False"


def test_cache_is_per_process_without_cache_url_and_redis_with_one(monkeypatch):
    monkeypatch.delenv("CACHE_URL", raising=False)
    assert env_cache("CACHE_URL")["default"]["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"
    monkeypatch.setenv("CACHE_URL", "redis://cache:6379/2")
    shared = env_cache("CACHE_URL")["default"]
    assert shared["BACKEND"] == "base.cache.SharedPoolRedisCache"  # Django's, with one pool per process
    assert shared["LOCATION"] == "redis://cache:6379/2"


def test_non_redis_cache_url_is_refused(monkeypatch):
    monkeypatch.setenv("CACHE_URL", "memcached://localhost:11211")
    with pytest.raises(ImproperlyConfigured, match="CACHE_URL"):
        env_cache("CACHE_URL")


def test_postgresql_binds_values_itself_and_prepares_repeated_statements_unless_switched_off():
    """Prepared statements (DATABASE_PREPARED, on by default) cut what PostgreSQL spends planning a request's
    statements; a pooler that cannot keep them needs the switch."""
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings'; django.setup();"
        "from django.conf import settings; o = settings.DATABASES['default'].get('OPTIONS', {});"
        "print(o.get('server_side_binding'), o.get('prepare_threshold'))"
    )
    assert _database_settings({}, code) == "True 2"
    assert _database_settings({"DATABASE_PREPARED": "0"}, code) == "None None"
    sqlite = {"DATABASE_URL": "sqlite:///:memory:"}
    assert _database_settings(sqlite, code) == "None None"
