"""Retries are safe: a write sent again with the same idempotency key is done once and answered as the first time.

Why: a phone at the board loses its answer (a timeout, a 503 from a restarting server) and cannot know whether
the confirmation, the check-in or the upload happened. It must be able to send it again without confirming twice
or uploading twice. One mechanism serves every such write, the API's and the pages' alike, rather than a key
column on each model:

- **The key.** The API reads the standard `Idempotency-Key` header; a page reads the hidden form field
  `idempotency_key` its form was rendered with (`{% idempotency_field %}`, base/templatetags/idempotency.py, a new
  key each time the form is shown). A key is 1 to KEY_MAX (80) printable ASCII characters, else 400
  `idempotency_key_invalid`. Keys are per user: another user's key is a different key. A request without a key is
  done as before (a key is what a client asks for, not a requirement).
- **One transaction.** `run` inserts the key's row (base.models.IdempotentRequest) and runs the view inside one
  transaction: a committed write always has its key committed, a rolled-back one never. A duplicate that arrives
  while the first is under way waits on the unique (user, key) index until the first ends (PostgreSQL), then
  reads its answer. The view's services keep their own atomic blocks (savepoints now); `base.locks` treats the
  view as the one transaction it is (its lock order is checked across the view, its `lock_timeout` set once),
  and on-commit work (live pushes, tasks) runs after this outer commit, as before.
- **What is kept.** A done write: an API answer of 2xx (its status, JSON body and Location), a page's redirect
  (its location). A retry with the same key, method, path and body gets that answer again (with the header
  `Idempotent-Replayed: true` in the API) and does nothing. A refusal is not kept, nor is a 409 `busy`, a 503
  or a page shown again with a message (`base.web.attempt` marks the request `idempotency_refused`): a refusal
  wrote nothing, so its retry cannot do the work twice, and a refusal that could succeed later (busy, a stale
  version, a service that was down) must be able to. Unlike Stripe, which keeps every answer, a client here may
  keep retrying a refused write with its key.
- **Reuse.** The same key with another body, method or path is refused with 409 `idempotency_key_reused`: the
  key names a request, and answering a different one with its answer would hide that the new one was not done.
- **Retention.** A key is kept RETENTION (24 h), then swept (`sweep_idempotent_requests`, one of the periodic
  sweepers in config/pipeline.py); a retry after that is a new request. A stale row met before the sweep is
  treated as gone.

The older per-model keys (the body field `idempotency_key` of a report, a Calcutta bid and a chouette game) keep
working as they did, for ever and whatever else the body says; the header works on those endpoints too. The
page forms of those three send the same hidden field, which both mechanisms then read.
"""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta
from functools import wraps

from django.core.exceptions import BadRequest
from django.db import IntegrityError, transaction
from django.http import HttpResponseRedirect
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder

from base.errors import Conflict, Invalid
from base.models import IdempotentRequest

HEADER = "Idempotency-Key"
FIELD = "idempotency_key"
KEY_MAX = 80
RETENTION = timedelta(hours=24)
REPLAYED_HEADER = "Idempotent-Replayed"
#: Form fields that are not what the request asks for: the key itself and the page's CSRF token.
_NOT_THE_REQUEST = frozenset({FIELD, "csrfmiddlewaretoken"})
_REDIRECTS = frozenset({301, 302, 303, 307, 308})

REUSED = _("This idempotency key was already used for a different request; send a new key for a new request.")
INVALID = _("An idempotency key is 1 to %(max)s printable ASCII characters.")

HEADER_PARAMETER = OpenApiParameter(
    HEADER,
    # The rule `_key` enforces, said in the schema so a client (and the schema fuzzer) knows a valid key: printable
    # ASCII, and no space at either end, which an HTTP header would not carry.
    {"type": "string", "minLength": 1, "maxLength": KEY_MAX, "pattern": "^[!-~]([ -~]*[!-~])?$"},
    OpenApiParameter.HEADER,
    required=False,
    description=(
        f"A key of your choosing (1 to {KEY_MAX} printable ASCII characters, e.g. a UUID), new for each write. "
        "Sent again with the same body, the write is done once and the first answer comes back (with "
        f"`{REPLAYED_HEADER}: true`); only a done write (2xx) is kept, for 24 hours. The same key with another "
        'body answers 409 `idempotency_key_reused`. docs/api.md, "Retrying a write".'
    ),
)


def valid_key(raw) -> str | None:
    """The key a request carries (None: it carries none), refused 400 `idempotency_key_invalid` when malformed."""
    if raw is None:
        return None
    key = str(raw)
    if not (0 < len(key) <= KEY_MAX and key.isascii() and key.isprintable()):
        raise Invalid(INVALID % {"max": KEY_MAX}, code="idempotency_key_invalid", field=HEADER)
    return key


def _canonical(value):
    """A request body as JSON-able data with a stable order: form data by field, files by name and content."""
    if hasattr(value, "chunks"):
        digest = hashlib.sha256()
        for chunk in value.chunks():
            digest.update(chunk)
        value.seek(0)
        return ["file", value.name, digest.hexdigest()]
    if hasattr(value, "getlist"):
        return {key: [_canonical(v) for v in value.getlist(key)] for key in value if key not in _NOT_THE_REQUEST}
    if isinstance(value, dict):
        return {str(key): _canonical(v) for key, v in value.items()}
    if isinstance(value, list | tuple):
        return [_canonical(v) for v in value]
    return value


def fingerprint(method: str, path: str, *bodies) -> str:
    """The hash a retry must match: the method, the path and the body (form fields, files' contents)."""
    text = json.dumps([method, path, [_canonical(body) for body in bodies]], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def run(*, user, key: str, method: str, path: str, print_: str, call, answer, replay):
    """Do `call()` once per (user, key) as the module docstring says. `answer(response)` is what to keep of its
    response ((status, body, location), or None to keep nothing); `replay(row)` makes the kept answer again."""
    with transaction.atomic():
        row, new = _claim(user=user, key=key, method=method, path=path, print_=print_)
        if not new:  # the key was done before: the same request is answered again, another refused
            if row.fingerprint != print_:
                raise Conflict(REUSED, code="idempotency_key_reused", field=HEADER)
            return replay(row)
        response = call()
        kept = answer(response)
        if kept is None:
            row.delete()  # a refusal leaves no key: its retry does the work (and a waiting duplicate goes on)
        else:
            row.status_code, row.body, row.location = kept
            row.save(update_fields=["status_code", "body", "location"])
        return response


def _claim(*, user, key, method, path, print_) -> tuple[IdempotentRequest, bool]:
    """The new row of this key and True, or the committed row of the request that used it first and False. On
    PostgreSQL the insert waits for a duplicate under way (the unique index) and then reads what it kept."""
    for _attempt in range(2):
        try:
            with transaction.atomic():
                row = IdempotentRequest.objects.create(
                    user=user, key=key, method=method, path=path[:300], fingerprint=print_
                )
            return row, True
        except IntegrityError:
            earlier = IdempotentRequest.objects.filter(user=user, key=key).first()
            if earlier is None:
                continue  # the first ended without keeping its key meanwhile: this one does the work
            if earlier.created_at < timezone.now() - RETENTION:
                earlier.delete()  # expired, not yet swept: a new request
                continue
            return earlier, False
    raise Conflict(REUSED, code="idempotency_key_reused", field=HEADER)


# --- the API ------------------------------------------------------------------------------------------------


def _api_answer(response):
    if not 200 <= response.status_code < 300:
        return None
    data = getattr(response, "data", None)
    body = "" if data is None else json.dumps(data, cls=JSONEncoder)
    return response.status_code, body, response.get("Location", "")


def _api_replay(row: IdempotentRequest) -> Response:
    response = Response(json.loads(row.body) if row.body else None, status=row.status_code)
    if row.location:
        response["Location"] = row.location
    response[REPLAYED_HEADER] = "true"
    return response


def idempotent(view_method):
    """A ViewSet action (or create) whose writes are done once per `Idempotency-Key` (module docstring). Put it
    above the action's `@extend_schema`/`@action`: it adds the header to the POST operation's schema."""

    @wraps(view_method)
    def wrapper(self, request, *args, **kwargs):
        key = valid_key(request.headers.get(HEADER))
        if key is None or request.method in ("GET", "HEAD", "OPTIONS") or not request.user.is_authenticated:
            return view_method(self, request, *args, **kwargs)
        data = request.data  # parsed (and refused 400) before the transaction
        return run(
            user=request.user,
            key=key,
            method=request.method,
            path=request.get_full_path(),
            print_=fingerprint(request.method, request.get_full_path(), data),
            call=lambda: view_method(self, request, *args, **kwargs),
            answer=_api_answer,
            replay=_api_replay,
        )

    return extend_schema(methods=["POST"], parameters=[HEADER_PARAMETER])(wrapper)


# --- the pages ----------------------------------------------------------------------------------------------


def refused(request) -> None:
    """Mark a page's request as refused: the redirect it answers with (back to the form, a message shown) is no
    answer to keep, so the same form sent again is tried again. `base.web.attempt` marks every refusal it shows;
    a view that shows its own form errors and redirects calls this."""
    request.idempotency_refused = True


def _page_answer(request):
    def answer(response):
        if response.status_code not in _REDIRECTS or getattr(request, "idempotency_refused", False):
            return None
        return response.status_code, "", response["Location"]

    return answer


def _page_replay(row: IdempotentRequest):
    response = HttpResponseRedirect(row.location)
    response.status_code = row.status_code
    return response


def idempotent_page(view):
    """A page's POST view whose write is done once per hidden `idempotency_key` (module docstring): a form sent
    again (a reload after a lost answer, a double tap) redirects where the first did and does nothing."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            key = valid_key(request.POST.get(FIELD) or None) if request.method == "POST" else None
        except Invalid as exc:  # the site's forms send a good key: a bad one was made by hand, 400 as bad input
            raise BadRequest(str(exc.message)) from exc
        if key is None or not request.user.is_authenticated:
            return view(request, *args, **kwargs)
        return run(
            user=request.user,
            key=key,
            method=request.method,
            path=request.get_full_path(),
            print_=fingerprint(request.method, request.get_full_path(), request.POST, request.FILES),
            call=lambda: view(request, *args, **kwargs),
            answer=_page_answer(request),
            replay=_page_replay,
        )

    return wrapper


def sweep_idempotent_requests(*, limit: int = 5000) -> int:
    """core.sweep: forget the keys older than RETENTION (a retry after a day is a new request). Returns 0: it
    sends no task."""
    cutoff = timezone.now() - RETENTION
    old = list(IdempotentRequest.objects.filter(created_at__lt=cutoff).values_list("pk", flat=True)[:limit])
    IdempotentRequest.objects.filter(pk__in=old).delete()
    return 0
