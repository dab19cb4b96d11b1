"""Typed readers for settings taken from the environment.

Each reader fails at start-up with ImproperlyConfigured naming the variable, so a typo in a deployment
shows up as one clear line instead of a confusing error later.
"""

import os

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str | None = None) -> str | None:
    value = os.environ.get(name)
    return default if value is None else value


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    lowered = value.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean: use one of 1/0, true/false, yes/no, on/off.")


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a whole number.") from None


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    if value.strip() not in choices:
        raise ImproperlyConfigured(f"{name}={value!r} must be one of: {', '.join(choices)}.")
    return value.strip()


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def env_database(name: str, default: str) -> dict:
    value = os.environ.get(name) or default
    try:
        config = dj_database_url.parse(value, conn_max_age=60)
    except Exception as exc:  # dj-database-url raises several types for a malformed URL
        raise ImproperlyConfigured(f"{name}={value!r} is not a database URL ({exc}).") from None
    engine = config.get("ENGINE", "")
    if engine not in ("django.db.backends.postgresql", "django.db.backends.sqlite3"):
        raise ImproperlyConfigured(f"{name} must point at PostgreSQL or SQLite, not {engine or value!r}.")
    return config


def env_broker_url(name: str) -> str | None:
    value = os.environ.get(name)
    if not value:
        return None
    if not value.startswith(("redis://", "rediss://", "memory://")):
        raise ImproperlyConfigured(f"{name}={value!r} must be a redis:// URL (or unset to run tasks in-process).")
    return value


def env_cache(name: str) -> dict:
    """The default cache: a Redis every worker process shares when `name` holds a redis:// URL, else one in each
    process's memory. Short socket timeouts: a Redis that stops answering costs a page half a second (then
    base.cache leaves it alone for a while and renders uncached), never a hung worker."""
    value = os.environ.get(name)
    if not value:
        return {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    if not value.startswith(("redis://", "rediss://")):
        raise ImproperlyConfigured(f"{name}={value!r} must be a redis:// URL (or unset for a cache in each process).")
    return {
        "default": {
            "BACKEND": "base.cache.SharedPoolRedisCache",  # one connection pool per process, not per request
            "LOCATION": value,
            "KEY_PREFIX": "bgclub",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
