"""Cross-cutting API pieces: the exception handler every endpoint shares and the one error body it answers.

Every refusal reads the same way, whichever app refused (docs/api.md, "Errors"):
`{"code": str, "detail": str, "field": str | null}`, and bad input (400) adds `"errors": {field: [messages]}`.
"""

import math
import re

from django.core.exceptions import NON_FIELD_ERRORS
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError
from django.http import Http404
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_exception_handler

from base.errors import Conflict, DomainError, Invalid, NotAllowed, NotFound, Refusal
from base.faults import classify, fault_body, note_fault
from base.fields import MoneyField
from base.locks import BUSY_MESSAGE, is_busy
from base.messages import translate

# `base.api.Conflict` is base.errors.Conflict, where code written against the API has always found it.

#: The translated words of a refusal raised without a message of its own (`Conflict()`), by class.
DEFAULT_TEXT = {
    Conflict: _("The object is not in a state that allows this."),
    NotAllowed: exceptions.PermissionDenied.default_detail,
    NotFound: exceptions.NotFound.default_detail,
    Invalid: exceptions.ValidationError.default_detail,
}

#: The longest message a refusal carries, and the most of a value it quotes. DRF's messages quote the input
#: ("“…” is not a valid choice."), so a 100 KB value came back whole in its 400: a quoted value longer than
#: QUOTE_MAX is cut to its first QUOTE_MAX characters and "…", and a message still longer is cut in the middle.
MESSAGE_MAX = 300
QUOTE_MAX = 40
_QUOTED = re.compile(rf'(["“„»])([^"“”„«»]{{{QUOTE_MAX + 1},}})(["”“«])')
#: An invalid choice names at most this many of the choices that would work.
CHOICES_SHOWN = 12


def bounded(message) -> str:
    text = _QUOTED.sub(lambda m: f"{m[1]}{m[2][:QUOTE_MAX]}…{m[3]}", str(message))
    if len(text) <= MESSAGE_MAX:
        return text
    return f"{text[: MESSAGE_MAX - 81]}…{text[-80:]}"


def _with_choices(detail, field):
    """DRF's "“x” is not a valid choice." says what is wrong but not what would work: each such message gets the
    field's choices (the first CHOICES_SHOWN of them), walking nested serializers and lists beside the errors."""
    if isinstance(detail, dict):
        if isinstance(field, serializers.ListSerializer | serializers.ListField | serializers.DictField):
            return {key: _with_choices(value, field.child) for key, value in detail.items()}
        children = field.fields if isinstance(field, serializers.Serializer) else {}
        return {key: _with_choices(value, children.get(key)) for key, value in detail.items()}
    if isinstance(detail, list):
        child = field.child if isinstance(field, serializers.ListSerializer) else field
        items = [_with_choices(item, child if isinstance(item, dict | list) else field) for item in detail]
        return items
    if getattr(detail, "code", None) == "invalid_choice" and isinstance(field, serializers.ChoiceField):
        names = [str(key) for key in field.choices]
        shown = ", ".join(names[:CHOICES_SHOWN]) + (", …" if len(names) > CHOICES_SHOWN else "")
        text = _("%(problem)s Choose one of: %(choices)s.") % {"problem": bounded(detail), "choices": shown}
        return exceptions.ErrorDetail(text, code="invalid_choice")
    return detail


def _flatten(detail, prefix: str = "") -> dict[str, list[str]]:
    """DRF's nested validation detail as {field: [messages]}; a nested input's fields are named with dots
    (`items.0.percent`), messages about the whole input under `non_field_errors`."""
    if isinstance(detail, dict):
        flat: dict[str, list[str]] = {}
        for key, value in detail.items():
            name = f"{prefix}.{key}" if prefix else str(key)
            for field, messages in _flatten(value, name).items():
                flat.setdefault(field, []).extend(messages)
        return flat
    if isinstance(detail, list):
        if all(not isinstance(item, dict | list) for item in detail):
            return {prefix or api_settings.NON_FIELD_ERRORS_KEY: [bounded(item) for item in detail]}
        flat = {}
        for index, item in enumerate(detail):
            for field, messages in _flatten(item, f"{prefix}.{index}" if prefix else str(index)).items():
                flat.setdefault(field, []).extend(messages)
        return flat
    return {prefix or api_settings.NON_FIELD_ERRORS_KEY: [bounded(detail)]}


def _first_code(detail) -> str | None:
    """The code DRF attached to the first message (NotFound's `not_found`, a Conflict's own code)."""
    if isinstance(detail, dict):
        detail = next(iter(detail.values()), None)
    if isinstance(detail, list):
        detail = detail[0] if detail else None
    if isinstance(detail, dict | list):
        return _first_code(detail)
    return getattr(detail, "code", None)


def error_body(code: str, detail: str, field: str | None = None, errors: dict | None = None) -> dict:
    """The one body of every refusal (the `Error` schema component)."""
    body: dict = {"code": code, "detail": str(detail), "field": field}
    if errors is not None:
        body["errors"] = errors
    return body


def _validation_body(errors: dict[str, list[str]], code: str = "invalid") -> dict:
    """Bad input: every field's messages, and the first of them as `field`/`detail` (null for the input as a
    whole), so a client that shows one message shows the first."""
    field, messages = next(iter(errors.items()), (None, [""]))
    if field in (api_settings.NON_FIELD_ERRORS_KEY, "detail", NON_FIELD_ERRORS):
        field = None
    return error_body(code, messages[0] if messages else "", field, errors)


def _django_validation(exc: DjangoValidationError) -> dict:
    """A service's or form's ValidationError in the shared body; its code when it was raised with one."""
    if hasattr(exc, "error_dict"):
        errors = {
            (api_settings.NON_FIELD_ERRORS_KEY if field == NON_FIELD_ERRORS else field): [bounded(m) for m in messages]
            for field, messages in exc.message_dict.items()
        }
        first = next(iter(exc.error_dict.values()), [None])[0]
    else:
        errors = {api_settings.NON_FIELD_ERRORS_KEY: [bounded(m) for m in exc.messages]}
        first = exc.error_list[0] if exc.error_list else None
    return _validation_body(errors, getattr(first, "code", None) or "invalid")


def refusal_text(exc: DomainError) -> str:
    """A refusal's words in the reader's language: the registered translation of its code (base.messages), else
    its own message, else its class's translated default."""
    if isinstance(exc, Refusal) and exc.message is type(exc).default_message:
        return str(next((text for klass, text in DEFAULT_TEXT.items() if isinstance(exc, klass)), exc.message))
    return translate(exc)


def refusal_body(exc: DomainError) -> dict:
    """The body of a DomainError: a service's Invalid reads like any bad input (every field's messages under
    `errors`), a core's bad input names its one field, a state refusal repeats its `extra` keys."""
    text = refusal_text(exc)
    if isinstance(exc, Invalid):
        errors = exc.errors or {exc.field or api_settings.NON_FIELD_ERRORS_KEY: [text]}
        return _validation_body({field: [bounded(m) for m in messages] for field, messages in errors.items()}, exc.code)
    body = error_body(exc.code, text, exc.field)
    if exc.status_code == status.HTTP_400_BAD_REQUEST and exc.field:
        body["errors"] = {exc.field: [body["detail"]]}
    if isinstance(exc, Refusal):
        body.update(exc.extra)
    return body


def exception_handler(exc, context):
    """Every refusal of the API as `{code, detail, field}` (+ `errors` for bad input), whichever layer refused.

    A DomainError (base.errors) answers its status: a pure core's 409 when its code is one of its class's
    `conflicts`, else 400; a service's Conflict 409, NotAllowed 403, NotFound 404 and Invalid 400, with the text
    translated by code (base.messages) or as the service wrote it. A view's or form's Django ValidationError is
    bad input (400), a Django PermissionDenied a 403, and an IntegrityError escapes only when a database
    constraint caught a race (409). DRF's own exceptions keep their status and headers and answer with their own
    codes (`not_authenticated`, `permission_denied`, `not_found`, `throttled`, `parse_error`,
    `unsupported_media_type`, ...). A row lock waited on too long (base.locks) answers 409 with the code `busy`;
    a dependency's fault (base.faults: the database down, the disk full, the broker unreachable) 503 or 507 with
    Retry-After and `retry_after`.
    """
    if isinstance(exc, DomainError):
        return Response(refusal_body(exc), status=exc.status_code)
    if isinstance(exc, DjangoValidationError):
        return Response(_django_validation(exc), status=status.HTTP_400_BAD_REQUEST)
    if is_busy(exc):
        return Response(error_body("busy", BUSY_MESSAGE), status=status.HTTP_409_CONFLICT)
    fault = classify(exc)
    if fault is not None:
        request = context.get("request")
        if request is not None:
            note_fault(fault, exc, request)
        response = Response(fault_body(fault), status=fault.status, headers={"Retry-After": str(fault.retry_after)})
        response._has_been_logged = True  # django.utils.log.log_response: logged above, without a traceback
        return response
    if isinstance(exc, IntegrityError):
        return Response(
            error_body(
                "concurrent_change",
                _("This conflicts with data that was stored at the same time; reload and try again."),
            ),
            status=status.HTTP_409_CONFLICT,
        )
    if isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    if isinstance(exc, exceptions.ValidationError):
        detail = exc.detail if isinstance(exc.detail, dict | list) else [exc.detail]
        response.data = _validation_body(_flatten(detail), "invalid")
    else:
        response.data = error_body(_first_code(exc.detail) or exc.default_code, _first_text(exc.detail))
        if isinstance(exc, exceptions.Throttled) and exc.wait is not None:
            response.data["retry_after"] = math.ceil(exc.wait)
    return response


def _first_text(detail) -> str:
    """The first message of a DRF detail, however nested."""
    if isinstance(detail, dict):
        return _first_text(next(iter(detail.values()), ""))
    if isinstance(detail, list):
        return _first_text(detail[0]) if detail else ""
    return str(detail)


def paginated_response(view, rows, serializer_class=None, *, to_data=None, context=None) -> Response:
    """One page of a nested list that can grow without bound (a match's reports, a night's chouette games), in the
    same `{count, next, previous, results}` shape and under the same `?limit=`/`?offset=` rules as the top-level
    lists, so the answer is what the schema declares and a long list never comes back in one piece.

    `rows` must be ordered; pass a serializer class (with its `context`, if it needs one), or `to_data` for rows
    that are turned into dicts by hand.
    """
    page = view.paginate_queryset(rows)
    if serializer_class is not None:
        data = serializer_class(page, many=True, context=context or {}).data
    else:
        data = [to_data(row) for row in page]
    return view.get_paginated_response(data)


#: JSON types a field's value must have in a JSON body: DRF coerces (`"name": 0` became "0", `"is_public": 0`
#: false, `"minutes_late": false` 0), so the API took what its schema says is the wrong type. Form data carries
#: only strings and keeps DRF's reading. A decimal or an amount of money is text, as the schema says ("12.50"):
#: a JSON number is a float, which cannot say 0.07 exactly. `true`/`false` is never a number (bool is an int).
_JSON_TYPES = (
    (serializers.DecimalField, (str,), _('Give the number as text, e.g. "12.50".')),
    (MoneyField, (str,), _('Give the number as text, e.g. "12.50".')),
    (serializers.BooleanField, (bool,), _("Give true or false.")),
    (serializers.IntegerField, (int,), _("Give a whole number.")),
    (serializers.FloatField, (int, float), _("Give a number.")),
    (serializers.CharField, (str,), _("Give text.")),
    (serializers.SlugRelatedField, (str,), _("Give text.")),
    (serializers.PrimaryKeyRelatedField, (int,), _("Give a whole number.")),
)


def _wrong_json_type(field, value):
    """The refusal (a message list, or a nested dict/list of them) of a JSON value whose type `field` does not
    take, or None. Walks nested serializers, lists and objects; null is left to DRF's own messages."""
    if value is None or field.read_only:
        return None
    if isinstance(field, serializers.ListSerializer | serializers.ListField | serializers.ManyRelatedField):
        if not isinstance(value, list):
            return None  # DRF's own "Expected a list"
        child = field.child_relation if isinstance(field, serializers.ManyRelatedField) else field.child
        items = [_wrong_json_type(child, item) for item in value]
        return {str(i): item for i, item in enumerate(items) if item} or None
    if isinstance(field, serializers.DictField):
        if not isinstance(value, dict):
            return None
        entries = {str(key): _wrong_json_type(field.child, item) for key, item in value.items()}
        return {key: item for key, item in entries.items() if item} or None
    if isinstance(field, serializers.Serializer):
        if not isinstance(value, dict):
            return None
        entries = {name: _wrong_json_type(child, value.get(name)) for name, child in field.fields.items()}
        return {name: item for name, item in entries.items() if item} or None
    if isinstance(field, serializers.ChoiceField) and not isinstance(field, serializers.MultipleChoiceField):
        keys = list(field.choices)
        if keys and all(isinstance(key, int) and not isinstance(key, bool) for key in keys):  # e.g. a side, 0 or 1
            return None if isinstance(value, int) and not isinstance(value, bool) else [_("Give a whole number.")]
        return None
    for kind, types, message in _JSON_TYPES:
        if isinstance(field, kind):
            if not isinstance(value, types) or (bool not in types and isinstance(value, bool)):
                return [message]
            return None
    return None


def refuse_wrong_json_types(serializer, request) -> None:
    """Answer 400 naming each field of a JSON body whose value has the wrong JSON type (see _JSON_TYPES). The one
    check of every input: `validated` runs it, and so does JSONTypedInput for DRF's create/update mixins."""
    if not (request.content_type or "").startswith("application/json"):
        return
    if not isinstance(request.data, dict) or not isinstance(serializer, serializers.Serializer):
        return
    wrong = _wrong_json_type(serializer, request.data)
    if wrong:
        raise exceptions.ValidationError(wrong)


class JSONTypedInput:
    """For a view on DRF's create/update mixins: the body is refused on the same JSON types as in `validated`
    before the serializer reads it (`"is_public": 0`, `"club": 0` were coerced)."""

    def get_serializer(self, *args, **kwargs):
        serializer = super().get_serializer(*args, **kwargs)  # type: ignore[misc]
        if "data" in kwargs:
            refuse_wrong_json_types(serializer, self.request)  # type: ignore[attr-defined]
        return serializer


class KnownFieldsOnly:
    """For an input that changes a thing: a body naming a field the input does not take is refused (400), each such
    field named with the ones it takes. DRF drops unknown fields silently, so `PATCH {"entry_fee": "25.00"}` on a
    flight answered 200 and changed nothing, and its director believed the fee was changed."""

    def to_internal_value(self, data):
        if hasattr(data, "keys"):
            # Named up to UNKNOWN_FIELDS_NAMED: a 20 MiB body of one-letter keys would otherwise get an answer of
            # a gigabyte, a message per key.
            unknown = sorted(set(data.keys()) - set(self.fields))[:UNKNOWN_FIELDS_NAMED]  # type: ignore[attr-defined]
            if unknown:
                fields = self.fields.items()  # type: ignore[attr-defined]
                takes = ", ".join(sorted(name for name, field in fields if not field.read_only))
                raise exceptions.ValidationError(
                    {name: [UNKNOWN_FIELD % {"field": name, "fields": takes}] for name in unknown}
                )
        return super().to_internal_value(data)  # type: ignore[misc]


UNKNOWN_FIELD = _("This input does not change %(field)s. It takes: %(fields)s.")
UNKNOWN_FIELDS_NAMED = 5


def validated(serializer_class, request, **kwargs) -> dict:
    """The request body checked by `serializer_class` (answered 400 naming the fields otherwise), as a plain dict
    of the validated values. The one input helper of the API views, APIView or ViewSet alike; `kwargs` go to the
    serializer (e.g. `partial=True`, `context=`)."""
    serializer = serializer_class(data=request.data, **kwargs)
    refuse_wrong_json_types(serializer, request)
    if not serializer.is_valid():
        raise exceptions.ValidationError(_with_choices(serializer.errors, serializer))
    return dict(serializer.validated_data)


# --- the error bodies in the OpenAPI schema --------------------------------------------------------------

# The one body every refusal has, written once for every operation (the handler above produces all of them).
ERROR_COMPONENTS = {
    "Error": {
        "type": "object",
        "description": "A refusal. `code` is stable (programs key on it), `detail` the translated text for people, "
        "`field` the input it is about (null when it is about the request or the state of things). Bad input "
        "(400) adds `errors`: every field's messages (a nested input's fields named with dots, messages about the "
        "whole input under `non_field_errors`).",
        "properties": {
            "code": {"type": "string", "description": "Stable snake_case code, e.g. `invalid`, `not_found`."},
            "detail": {"type": "string", "description": "What is wrong and what to do, translated."},
            "field": {"type": "string", "nullable": True, "description": "The input at fault, if one is."},
            "errors": {
                "type": "object",
                "additionalProperties": {"type": "array", "items": {"type": "string"}},
                "description": "Each field's messages (400 only).",
            },
            "retry_after": {
                "type": "integer",
                "description": "Seconds to wait before trying again, as in Retry-After (429, 503 and 507 only).",
            },
            "no_shows": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
                    "required": ["id", "name"],
                },
                "description": "The entries that would be withdrawn as no-shows (409 `no_shows_need_confirmation` "
                "only): repeat the request with `confirm_no_shows: true` to withdraw them.",
            },
        },
        "required": ["code", "detail", "field"],
    },
}
ERROR_RESPONSES = {
    "400": ("Error", "The input is not valid; `field` and `errors` say which field and why."),
    # Session authentication comes first, so DRF answers a missing or bad token with 403, not 401, today.
    "401": ("Error", "Reserved for authentication failures; today they answer 403."),
    "403": ("Error", "Not signed in, a token that is not valid, or not allowed to do this."),
    "404": ("Error", "No such object, or the caller may not see it."),
    "409": ("Error", "The object is in a state that does not allow this now."),
    "415": ("Error", "The body is not JSON, form data or multipart form data."),
    "429": ("Error", "Too many requests (or failed sign-ins) for now; `retry_after` and Retry-After say how long."),
    "503": (
        "Error",
        "A service the site depends on failed (`database_unavailable`, `broker_unavailable`); nothing was stored. "
        "Retry after Retry-After seconds, with the same Idempotency-Key.",
    ),
    "507": (
        "Error",
        "No room left to store files (`storage_full`); nothing was stored. Retry later, after Retry-After seconds.",
    ),
}


def declare_error_responses(result, generator, request, public):
    """drf-spectacular postprocessing hook: every operation declares the error bodies the exception handler
    answers with, so a client generated from the schema can read a refusal (declared here, once, rather than on
    each of the views, which would drift)."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.update(ERROR_COMPONENTS)
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            for code, (component, description) in ERROR_RESPONSES.items():
                operation["responses"].setdefault(
                    code,
                    {
                        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{component}"}}},
                        "description": description,
                    },
                )
    return result
