"""What a web server process does once its application is loaded: load what its first requests would otherwise
load while someone waits (`warm_up`), then move every object made while loading into the collector's permanent
generation (`freeze_loaded_objects`).

Why: the cyclic garbage collector's oldest generation is scanned whole now and then, and after Django, DRF and the
API schema are loaded it holds some 200,000 objects that live as long as the process. Measured on the public
bracket page (1,000 requests in one process): each such scan stopped the process for 80-157 ms, every thread with
it, which is a load test's p99; with the loaded objects frozen the longest pause was 3-10 ms. The objects stay
alive as they would have; only the collector stops looking at them (`gc.freeze`, Python's documented remedy)."""

import gc

from django.conf import settings
from django.conf.urls.i18n import is_language_prefix_patterns_used
from django.urls import get_resolver
from django.utils import translation


def warm_up() -> None:
    """Import the URLconf (and with it every view, form, serializer and service it names), build its reverse
    lookups and load the translations, for each language the site speaks.

    Why: Django does all of that on a process's first request, or first request in a language, and it held the
    worker (every thread of it) for 200-500 ms of CPU: importing config.urls and compiling its patterns' regular
    expressions, then filling the reverse lookups the first `reverse()` asks for (measured in process on the first
    record upload: 530 ms against 20 ms for the next). Under load each worker paid it on the first request of each
    kind while the others queued behind it: the load test's short upload scenario had its p99 there."""
    resolver = get_resolver()
    resolver.url_patterns  # noqa: B018 - the import is the point
    is_language_prefix_patterns_used(settings.ROOT_URLCONF)  # LocaleMiddleware asks it first, cached per process
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            resolver.reverse_dict  # noqa: B018 - filled per language on first use
            translation.gettext("Save")  # loads the language's catalog


def freeze_loaded_objects() -> int:
    """Collect what loading left behind, then freeze the rest; returns how many objects were frozen."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
