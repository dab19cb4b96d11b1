"""Django settings, read from the environment (see README: Configuration)."""

import secrets
import sys
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config.env import env_bool, env_broker_url, env_choice, env_database, env_int, env_list, env_str

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
    "core",
    "clubs",
    "games",
    "tournaments",
    "tournaments.calcutta",
    "ratings",
    "chouette",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
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
                "core.context_processors.navigation",
            ],
        },
    },
]

DATABASES = {"default": env_database("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
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

# A whole uploaded zip of match records may be large; single records are limited in the games app.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DATA_UPLOAD_MAX_MEMORY_SIZE", 64 * 1024 * 1024)
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "core.api.exception_handler",
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
    # Every operation declares the error bodies it can answer with (written once, in core.api).
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "core.api.declare_error_responses"],
    "ENUM_NAME_OVERRIDES": {
        "MatchStatusEnum": "games.models.matches.MatchStatus",
        "MembershipRoleEnum": "clubs.models.Role",
        "MatchSideEnum": [(0, 0), (1, 1)],
    },
}

# Celery: with no broker configured, tasks run in-process (eagerly), which is what a fresh machine and the
# default test run use. CI sets CELERY_BROKER_URL to Redis and runs a real worker.
CELERY_BROKER_URL = env_broker_url("CELERY_BROKER_URL")
CELERY_TASK_ALWAYS_EAGER = CELERY_BROKER_URL is None
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker that dies mid-task (killed, out of memory) gives its message back instead of acknowledging it.
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# Sending a task while the broker is down fails within about a second (core.queue logs it and the row stays
# due) instead of holding the request while kombu retries.
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.5}
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 3}
# Work that is unfinished this long after it was sent or claimed counts as lost (its message was never sent, or
# its worker died) and the sweep sends it again. Longer than any task may run (see games.records.tasks).
TASK_STALE_SECONDS = env_int("TASK_STALE_SECONDS", 120)
# Celery beat (`make beat`, the beat service in docker-compose.yml): every BEAT_EVERY_SECONDS it sends the sweep
# (core.sweep: send lost work again) and a heartbeat (core.heartbeat: /health/ sees that a worker runs tasks).
BEAT_EVERY_SECONDS = env_int("BEAT_EVERY_SECONDS", 30)
CELERY_BEAT_SCHEDULE = {
    "sweep": {"task": "core.sweep", "schedule": float(BEAT_EVERY_SECONDS), "options": {"expires": BEAT_EVERY_SECONDS}},
    "heartbeat": {
        "task": "core.heartbeat",
        "schedule": float(BEAT_EVERY_SECONDS),
        "options": {"expires": BEAT_EVERY_SECONDS},
    },
}
# /health/ answers 503 when no worker ran a heartbeat for this long (a few missed beats).
HEALTH_HEARTBEAT_MAX_AGE_SECONDS = env_int("HEALTH_HEARTBEAT_MAX_AGE_SECONDS", 4 * BEAT_EVERY_SECONDS)

# FIBS ratings (docs/ratings.md): K from the experience before the match ("a", FIBS help) or after it ("b").
# After changing it, `manage.py recompute_ratings` rebuilds every pool under the new rule.
RATINGS_FIBS_K_RULE = env_choice("RATINGS_FIBS_K_RULE", "a", ("a", "b"))

CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
