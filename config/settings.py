"""Django settings, read from the environment (see README: Configuration)."""

import os
import secrets
import sys
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config.env import env_bool, env_broker_url, env_cache, env_choice, env_database, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", False)
# Management commands that only read files and sign nothing: `manage.py verify_match FILE` works in a fresh
# checkout with no environment set. Everything else (the web server above all) still needs a key.
READ_ONLY_COMMANDS = frozenset({"verify_match"})
SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if Path(sys.argv[0]).name == "manage.py" and sys.argv[1:2] and sys.argv[1] in READ_ONLY_COMMANDS:
        SECRET_KEY = secrets.token_urlsafe(50)  # a one-off key for this process; nothing is signed with it
    elif not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is required when DEBUG is off: set SECRET_KEY (or DEBUG=1 for local work)."
        )
    else:
        SECRET_KEY = "insecure-local-development-key"  # only ever used with DEBUG on
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "base.apps.BaseConfig",
    "accounts",
    "clubs",
    "games",
    "tournaments",
    "calcutta",
    "ratings",
    "points",
    "chouette",
    "notifications",  # above every app it listens to (tests/core/test_layers.py)
    "data",  # exports, imports, calendar feeds, a player's own data: reads every app below it
    "config.apps.PipelineConfig",  # last: wires the apps into each other's hooks (config/pipeline.py)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "base.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages gzip-compressed when asked; after WhiteNoise, so static files keep its precompressed .br/.gz (and their
    # ranges), before every middleware that reads or writes the body. BREACH: the CSRF token in a page is masked
    # anew for each response, and Django adds 0-99 random bytes to each gzip header (GZipMiddleware.max_random_bytes).
    # The websockets do not pass through here (config/asgi.py routes them apart).
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "base.middleware.RequestLimitsMiddleware",  # 413 for oversized bodies, 400 for NUL in the URL
    "base.middleware.CommonMiddleware",  # Django's; an API address without its slash answers 308 in the error body
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.LoginThrottleMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "base.middleware.RefusalPageMiddleware",  # an uncaught state refusal on a page: 409 in the site layout
    "base.middleware.LockBusyMiddleware",  # 409 "try again" for a row lock waited on too long (base.locks)
    "base.middleware.DependencyFaultMiddleware",  # 503/507 + Retry-After when the database, disk or broker fails
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "base.context_processors.navigation",
            ],
            # {% idempotency_field %} in every write form a phone may send twice (base.idempotency).
            "builtins": ["base.templatetags.idempotency"],
        },
    },
]

DATABASES = {"default": env_database("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# Under ASGI every request runs its sync code in a thread of its own that ends with the request, so a persistent
# connection (CONN_MAX_AGE) is left open by a thread that is gone: three uvicorn workers under load held 99 of
# PostgreSQL's 100 connections and then answered 500. The ASGI entry point (config/asgi.py) therefore asks for
# DATABASE_POOL: each request borrows a connection from a per-process psycopg pool of at most
# DATABASE_POOL_MAX_SIZE and gives it back at its end. Celery workers, commands and tests keep their
# persistent connections (their threads live on), and never share a pool across a fork.
DATABASE_POOL = env_bool("DATABASE_POOL", False)
DATABASE_POOL_MAX_SIZE = env_int("DATABASE_POOL_MAX_SIZE", 20)
# Seconds a request waits for a free pooled connection before it answers 503 "try again" (base.faults): far
# below a phone user's patience, where the pool's 10 s made every request of a storm wait and then fail.
DATABASE_POOL_TIMEOUT = env_int("DATABASE_POOL_TIMEOUT", 3)
# The connection budget (docs/connections.md; `manage.py connection_budget --nodes N` prints it for these settings):
#   nodes x uvicorn workers x DATABASE_POOL_MAX_SIZE + CELERY_WORKER_CONCURRENCY + beat (1)
#   + headroom (DATABASE_HEADROOM: migrate, psql, a second /health/) <= PostgreSQL's max_connections.
# A pool only holds its max under load; idle, it gives connections back: psycopg's pool closes one idle connection
# every DATABASE_POOL_MAX_IDLE_SECONDS down to DATABASE_POOL_MIN_SIZE. With max_connections 20, pools that kept
# every connection they had opened under load (min_size 2, max_idle 10 min) left the worker "too many clients" 63
# times and locked every new client out for 20 s after the load stopped.
DATABASE_POOL_MIN_SIZE = env_int("DATABASE_POOL_MIN_SIZE", 1)
DATABASE_POOL_MAX_IDLE_SECONDS = env_int("DATABASE_POOL_MAX_IDLE_SECONDS", 2)
DATABASE_HEADROOM = env_int("DATABASE_HEADROOM", 3)
# A settle-up transfer still open this many hours after the table settled is reminded once (the payer while it is
# not marked paid, else the payee to confirm it): base.settle_up.sweep_reminders, for every kind of settle-up.
TRANSFER_REMINDER_HOURS = env_int("TRANSFER_REMINDER_HOURS", 24)
# Seconds to reach PostgreSQL before a connection attempt fails (libpq's connect_timeout), so nothing, /health/
# included, hangs on a server that does not answer.
DATABASE_CONNECT_TIMEOUT_SECONDS = env_int("DATABASE_CONNECT_TIMEOUT_SECONDS", 3)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", DATABASE_CONNECT_TIMEOUT_SECONDS)
if DATABASE_POOL and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # The pool checks a connection as it lends it (psycopg_pool's check_connection): after a database restart
    # the connections it held are dead, and each first request on one answered 500.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": DATABASE_POOL_MIN_SIZE,
        "max_idle": DATABASE_POOL_MAX_IDLE_SECONDS,
        "max_size": DATABASE_POOL_MAX_SIZE,
        "timeout": DATABASE_POOL_TIMEOUT,
    }
# PostgreSQL binds a statement's values itself and keeps a statement it was sent twice on a connection prepared
# (psycopg's prepare_threshold): parsing and planning are then done once per connection, not on every request.
# Measured in process, a result's confirmation cost PostgreSQL 10-12 ms of CPU planning its ~40 statements with
# Django's default (values pasted into the text by the client, nothing prepared), and 4 ms prepared; the app's own
# CPU did not change (docs/performance.md). Set DATABASE_PREPARED=0 behind a pooler that cannot keep prepared
# statements (PgBouncer in transaction mode before 1.21).
#
# DATABASE_PGBOUNCER=1: DATABASE_URL points at PgBouncer in transaction mode (tests/services/test_pgbouncer.py), where
# each transaction may run on another server connection. Nothing may outlive a transaction there: prepared
# statements (so DATABASE_PREPARED defaults to off: values bound client-side, nothing prepared; PgBouncer 1.21+ with
# max_prepared_statements may set DATABASE_PREPARED=1) and server-side cursors (Django's .iterator() declares one:
# DISABLE_SERVER_SIDE_CURSORS, so it fetches in chunks from a client-side cursor). The app's locks are
# transaction-scoped (SET LOCAL, SELECT ... FOR UPDATE), and PgBouncer carries the time zone across. The app's
# pool stays on under ASGI: it holds connections to PgBouncer (cheap client slots), and PgBouncer's pool size is
# what PostgreSQL's budget counts.
DATABASE_PGBOUNCER = env_bool("DATABASE_PGBOUNCER", False)
DATABASE_PREPARED = env_bool("DATABASE_PREPARED", not DATABASE_PGBOUNCER)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    if DATABASE_PREPARED:
        DATABASES["default"].setdefault("OPTIONS", {}).update(server_side_binding=True, prepare_threshold=2)
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = DATABASE_PGBOUNCER
    # A worker's, beat's or command's persistent connection (CONN_MAX_AGE) is checked before it is reused after a
    # pause: a task that starts after PostgreSQL restarted reconnects instead of failing on the dead connection.
    # Under the pool the same setting has the pool check each connection as it lends it (above).
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]


def _env_int_between(name: str, default: int, low: int, high: int) -> int:
    """A whole number within sensible bounds: a lock of 10**12 minutes would overflow the date arithmetic."""
    value = env_int(name, default)
    if not low <= value <= high:
        raise ImproperlyConfigured(f"{name}={value} is out of range: use a number from {low} to {high}.")
    return value


# Row locks (base.locks): on PostgreSQL a request waits at most LOCK_TIMEOUT_MS for a row another request holds,
# then answers 409 "try again in a moment" instead of holding a worker. LOCK_ORDER_CHECK refuses a lock taken out
# of the documented order (docs/architecture.md, "Locks"); on in DEBUG and in the tests.
LOCK_TIMEOUT_MS = _env_int_between("LOCK_TIMEOUT_MS", 5000, 1, 10 * 60 * 1000)
LOCK_ORDER_CHECK = env_bool("LOCK_ORDER_CHECK", DEBUG)

# The model backend, refusing an account or address that failed too often before it hashes the password.
AUTHENTICATION_BACKENDS = ["accounts.backends.ThrottledModelBackend"]
# Only failures count: a room of players signing in correctly from one address is never locked out, while a
# guesser is stopped after LOGIN_FAILURE_LIMIT wrong passwords for one account from one address, or after
# LOGIN_ADDRESS_FAILURE_LIMIT wrong passwords for any accounts from one address, within the window.
LOGIN_FAILURE_LIMIT = _env_int_between("LOGIN_FAILURE_LIMIT", 5, 1, 10_000)
LOGIN_ADDRESS_FAILURE_LIMIT = _env_int_between("LOGIN_ADDRESS_FAILURE_LIMIT", 50, 1, 1_000_000)
LOGIN_LOCKOUT_MINUTES = _env_int_between("LOGIN_LOCKOUT_MINUTES", 15, 1, 7 * 24 * 60)
# Days after which an API token is refused and its owner must sign in again (0: tokens never expire).
TOKEN_TTL = _env_int_between("TOKEN_TTL", 90, 0, 36_500)
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("de", _("German"))]
# Sub-packages of an app (e.g. games/records) keep their own catalogue beside their code.
LOCALE_PATHS = [BASE_DIR / "locale", *sorted(BASE_DIR.glob("*/*/locale"))]
TIME_ZONE = env_str("TIME_ZONE", "Europe/Berlin")
USE_I18N = True
USE_TZ = True
# One date format and one date-time format per language on every page, chart and message (docs/ui.md, "Dates
# and numbers"): config/formats/<lang>/formats.py make the short and long forms the same.
FORMAT_MODULE_PATH = ["config.formats"]

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATIC_MANIFEST = env_bool("STATIC_MANIFEST", not DEBUG)
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "media/"
MEDIA_ROOT = Path(env_str("MEDIA_ROOT", str(BASE_DIR / "media")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed, compressed files need `collectstatic` first: on in production, off for DEBUG and the tests.
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if STATIC_MANIFEST
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = not STATIC_MANIFEST

# Media (uploaded game records) must be one store for every node: the web node that takes an upload and the
# worker that verifies it may be different machines (docs/deploy.md). MEDIA_STORAGE=filesystem (default) keeps
# it under MEDIA_ROOT, which on several hosts must be a shared volume; MEDIA_STORAGE=s3 keeps it in an
# S3-compatible bucket through django-storages, installed only for that (the image's WITH_S3=1 build arg), so
# nothing imports it unless this is chosen. The AWS_* settings are django-storages' own names.
MEDIA_STORAGE = env_choice("MEDIA_STORAGE", "filesystem", ("filesystem", "s3"))
if MEDIA_STORAGE == "s3":
    import importlib.util

    if importlib.util.find_spec("storages") is None:
        raise ImproperlyConfigured(
            "MEDIA_STORAGE=s3 needs django-storages: pip install 'django-storages[s3]' (or build the image with "
            "WITH_S3=1)."
        )
    if not env_str("AWS_STORAGE_BUCKET_NAME"):
        raise ImproperlyConfigured("MEDIA_STORAGE=s3 needs AWS_STORAGE_BUCKET_NAME.")
    STORAGES["default"] = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": env_str("AWS_STORAGE_BUCKET_NAME"),
            "endpoint_url": env_str("AWS_S3_ENDPOINT_URL") or None,  # a MinIO/Ceph/... server; unset: AWS
            "region_name": env_str("AWS_S3_REGION_NAME") or None,
            "access_key": env_str("AWS_ACCESS_KEY_ID") or None,  # unset: boto3's own chain (instance role, ...)
            "secret_key": env_str("AWS_SECRET_ACCESS_KEY") or None,
            "location": env_str("AWS_LOCATION", "media"),
            "default_acl": None,  # records are private: served through the site's own views, never linked
            "querystring_auth": True,
            "file_overwrite": False,
        },
    }

# Request and upload limits (README: Configuration). A body above REQUEST_MAX_BODY_SIZE is refused with 413
# before it is read (base.middleware); form and JSON data above DATA_UPLOAD_MAX_MEMORY_SIZE with 400 (a pasted
# record of 2 MiB, escaped, fits); an uploaded file above FILE_UPLOAD_MAX_MEMORY_SIZE is spooled to a
# temporary file instead of memory. A zip of records may expand to RECORDS_ZIP_MAX_UNCOMPRESSED in all.
MIB = 1024 * 1024
REQUEST_MAX_BODY_SIZE = env_int("REQUEST_MAX_BODY_SIZE", 20 * MIB)
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DATA_UPLOAD_MAX_MEMORY_SIZE", 8 * MIB)
FILE_UPLOAD_MAX_MEMORY_SIZE = env_int("FILE_UPLOAD_MAX_MEMORY_SIZE", 2 * MIB + MIB // 2)
RECORDS_ZIP_MAX_UNCOMPRESSED = env_int("RECORDS_ZIP_MAX_UNCOMPRESSED", 20 * MIB)

REST_FRAMEWORK = {
    # Token first: a refused token then answers 401 with "WWW-Authenticate: Token" and the reason (e.g.
    # expired) instead of 403; a request with no credentials at all still answers 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_FILTER_BACKENDS": ["base.filters.FilterBackend"],  # strict about the query string
    # NUL is refused in any parsed payload (PostgreSQL cannot store it): base/parsers.py.
    "DEFAULT_PARSER_CLASSES": [
        "base.parsers.JSONParser",
        "base.parsers.FormParser",
        "base.parsers.MultiPartParser",
    ],
    # limit and offset clamped (at most 200 rows a page): base/pagination.py.
    "DEFAULT_PAGINATION_CLASS": "base.pagination.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "base.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "base.api.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Backgammon club, tournament and chouette API",
    "DESCRIPTION": "Clubs, players, match play, tournaments, ratings and chouettes.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Served from this site: the API docs must work without reaching a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Choice sets that several apps share a field name for get one stable name each in the schema.
    # Every operation declares the error bodies it can answer with (written once, in base.api).
    # Request bodies are documented as JSON, the API's one input format for programs (the form parsers stay for
    # the browsable API and the tests' clients; the record upload declares its multipart body itself).
    "PARSER_WHITELIST": ["base.parsers.JSONParser"],
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "base.api.declare_error_responses"],
    "ENUM_NAME_OVERRIDES": {
        "MatchStatusEnum": "games.models.matches.MatchStatus",
        "MembershipRoleEnum": "clubs.models.Role",
        "MatchSideEnum": [(0, 0), (1, 1)],
        "StakeFormEnum": "games.models.variants.StakeForm",  # `stakes` of a match or flight, a session's `stake_form`
        "KindEnum": "games.models.matches.MatchGame.Kind",  # a match game's kind; the chouette's have names below
        # The chouette's words (chouette.api.WordField): enums, so a word the API refuses is outside the schema too.
        "ChouetteSideEnum": "chouette.api.SIDES",  # who doubled, who won: box or team
        "ChouetteGameKindEnum": "chouette.core.scoring.KINDS",
        "ChouetteGaveUpEnum": "chouette.api.GAVE_UP",
        "ChouetteSessionStatusEnum": "chouette.api.SESSION_STATUSES",
        "ChouetteEventKindEnum": "chouette.api.EVENT_KINDS",
        "ChouetteTransferKindEnum": "chouette.api.TRANSFER_KINDS",
        "QualifyingTiesEnum": "tournaments.models.QualifyingTies",  # a flight's setting and a tie's method
    },
}

# Celery: with no broker configured, tasks run in-process (eagerly), which is what a fresh machine and the
# default test run use. CI sets CELERY_BROKER_URL to Redis and runs a real worker.
CELERY_BROKER_URL = env_broker_url("CELERY_BROKER_URL")
CELERY_TASK_ALWAYS_EAGER = CELERY_BROKER_URL is None
CELERY_TASK_EAGER_PROPAGATES = True
# Worker processes (prefork), each holding one persistent database connection: the worker's share of the connection
# budget. Celery's own default (the host's CPUs), made explicit so the budget can count it; set it on every host.
CELERY_WORKER_CONCURRENCY = env_int("CELERY_WORKER_CONCURRENCY", os.cpu_count() or 1)
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker that dies mid-task (killed, out of memory) gives its message back instead of acknowledging it.
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# Sending a task while the broker is down fails within about a second (base.queue logs it and the row stays
# due) instead of holding the request while kombu retries.
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.5}
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 3}
# Work that is unfinished this long after it was sent or claimed counts as lost (its message was never sent, or
# its worker died) and the sweep sends it again. Longer than any task may run (see games.records.tasks).
TASK_STALE_SECONDS = env_int("TASK_STALE_SECONDS", 120)
# Engine analysis of records (games.analysis, docs/games.md): GNU Backgammon's plies (0, 1 or 2; 1 takes about
# 2 s for an 11-point match, 2 about 30 s) and its time limit in seconds, after which it is killed.
RECORD_ANALYSIS_PLIES = env_int("RECORD_ANALYSIS_PLIES", 1)
RECORD_ANALYSIS_TIME_LIMIT = env_int("RECORD_ANALYSIS_TIME_LIMIT", 300)
# Which engine analyses: "auto" the program where it is installed, else the gnubg-nn package (checker play only,
# 0 or 1 ply: a fresh clone's `make run`); "gnubg" or "gnubg-nn" always that one.
RECORD_ANALYSIS_ENGINE = env_choice("RECORD_ANALYSIS_ENGINE", "auto", ("auto", "gnubg", "gnubg-nn"))
# Celery beat (`make beat`, the beat service in docker-compose.yml): every BEAT_EVERY_SECONDS it sends the sweep
# (core.sweep: send lost work again), and every HEALTH_HEARTBEAT_EVERY_SECONDS a heartbeat (core.heartbeat:
# /health/ sees that a worker runs tasks).
BEAT_EVERY_SECONDS = env_int("BEAT_EVERY_SECONDS", 30)
HEALTH_HEARTBEAT_EVERY_SECONDS = env_int("HEALTH_HEARTBEAT_EVERY_SECONDS", min(15, BEAT_EVERY_SECONDS))
CELERY_BEAT_SCHEDULE = {
    "sweep": {"task": "core.sweep", "schedule": float(BEAT_EVERY_SECONDS), "options": {"expires": BEAT_EVERY_SECONDS}},
    "heartbeat": {
        "task": "core.heartbeat",
        "schedule": float(HEALTH_HEARTBEAT_EVERY_SECONDS),
        "options": {"expires": HEALTH_HEARTBEAT_EVERY_SECONDS},
    },
}
# /health/ answers 503 when no worker ran a heartbeat for this long: three missed heartbeats. A killed worker's last
# heartbeat ran before it died, so /health/ shows it at most 45 s after the kill (4 x a 30 s beat took 120 s).
HEALTH_HEARTBEAT_MAX_AGE_SECONDS = env_int("HEALTH_HEARTBEAT_MAX_AGE_SECONDS", 3 * HEALTH_HEARTBEAT_EVERY_SECONDS)

# FIBS ratings (docs/ratings.md): K from the experience before the match ("a", FIBS help) or after it ("b").
# After changing it, `manage.py recompute_ratings` rebuilds every pool under the new rule.
RATINGS_FIBS_K_RULE = env_choice("RATINGS_FIBS_K_RULE", "a", ("a", "b"))

# The cache (base.cache: the rendered public bracket and its API answer, keyed by the flight's version): per
# process without CACHE_URL; CACHE_URL=redis://host:6379/2 shares it between every worker process (production).
CACHES = env_cache("CACHE_URL")

# Behind a reverse proxy that terminates TLS: trust its X-Forwarded-Proto for "is this HTTPS" and take the
# client's address from the last X-Forwarded-For entry (the one the proxy added) for sign-in throttling.
BEHIND_PROXY = env_bool("BEHIND_PROXY", False)
if BEHIND_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    # Sent only on responses to HTTPS requests (SecurityMiddleware), so plain-HTTP development is unaffected.
    if SESSION_COOKIE_SECURE:
        SECURE_HSTS_SECONDS = _env_int_between("HSTS_SECONDS", 365 * 24 * 3600, 0, 2 * 365 * 24 * 3600)
        SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
# Live pages (base.live): the channel layer that carries "changed" pushes to open websockets. Unset: in-memory,
# enough for one process (`make run`, the tests); CHANNEL_LAYER_URL=redis://... for several workers/processes
# (production, CI), so a write in one process reaches sockets held by another (and by the Celery worker's writes).
CHANNEL_LAYER_URL = env_broker_url("CHANNEL_LAYER_URL")
if CHANNEL_LAYER_URL and not CHANNEL_LAYER_URL.startswith("memory://"):
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "base.live.WatchingRedisLayer",  # channels_redis, recording who watches (base.live)
            # socket_timeout: a read waits up to 15 s, well above the layer's 5 s blocking read (BZPOPMIN), which
            # redis-py's default 5 s raced on a busy server ("Timeout reading", sockets dropped). max_connections
            # per worker's event loop, and a burst (1,000 pages closing at once) waits up to connection_wait
            # seconds for one instead of failing ("Too many connections", members left in their groups).
            "CONFIG": {
                "hosts": [{"address": CHANNEL_LAYER_URL, "socket_timeout": 15, "max_connections": 100}],
                "connection_wait": 10,
                "capacity": 500,
                "expiry": 30,
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# Content-Security-Policy (base.csp): scripts, styles and everything else only from this site. connect-src 'self'
# also allows ws:/wss: to this same host (CSP level 3), which the live pages' socket needs.
CONTENT_SECURITY_POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "font-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}

# Mail (password reset): an SMTP server when EMAIL_HOST is set; the console in development; otherwise a
# backend that refuses, so a user is told the mail could not be sent instead of being told it was.
EMAIL_HOST = env_str("EMAIL_HOST", "") or ""
EMAIL_PORT = _env_int_between("EMAIL_PORT", 587, 1, 65535)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "") or ""
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "") or ""
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", EMAIL_PORT == 587)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", EMAIL_PORT == 465)
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL exclude each other: turn one of them off.")
# Seconds: a mail server that hangs must not hold a worker.
EMAIL_TIMEOUT = _env_int_between("EMAIL_TIMEOUT", 10, 1, 300)
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
elif DEBUG:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
else:
    EMAIL_BACKEND = "accounts.mail.UnconfiguredEmailBackend"
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "webmaster@localhost")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# The site's address, for the links in notification mails (they are sent by a worker, outside any request).
SITE_URL = env_str("SITE_URL", "http://localhost:8000") or "http://localhost:8000"
# Club webhooks (notifications): a URL that resolves to a private, loopback or link-local address (or plain http)
# is refused unless this is on; on only for local work and the tests, never in production.
WEBHOOK_ALLOW_PRIVATE = env_bool("WEBHOOK_ALLOW_PRIVATE", DEBUG)
WEBHOOK_TIMEOUT = _env_int_between("WEBHOOK_TIMEOUT", 10, 1, 60)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
