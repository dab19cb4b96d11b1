"""Cross-cutting API pieces: the exception handler every endpoint shares."""

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from base.locks import BUSY_MESSAGE, is_busy


class Conflict(exceptions.APIException):
    """The request is valid but the object is in a state that does not allow it (answered as 409)."""

    status_code = status.HTTP_409_CONFLICT
    default_detail = "The object is not in a state that allows this."
    default_code = "conflict"


def exception_handler(exc, context):
    """DRF's handler, plus the Django errors that services raise, so none of them becomes a 500.

    A service raises django.core.exceptions.ValidationError for bad input (answered 400 with the field names
    and messages) and IntegrityError escapes only when a database constraint caught a race (answered 409). A row
    lock waited on too long (base.locks) is answered 409 with the code "busy".
    """
    if isinstance(exc, DjangoValidationError):
        if hasattr(exc, "error_dict"):
            detail = {field: [str(m) for m in messages] for field, messages in exc.message_dict.items()}
        else:
            detail = {"detail": exc.messages}
        exc = exceptions.ValidationError(detail)
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    elif is_busy(exc):
        exc = Conflict(BUSY_MESSAGE, code="busy")
    elif isinstance(exc, IntegrityError):
        return Response(
            {"detail": "This conflicts with data that was stored at the same time; reload and try again."},
            status=status.HTTP_409_CONFLICT,
        )
    return drf_exception_handler(exc, context)


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


# --- the error bodies in the OpenAPI schema --------------------------------------------------------------

# What a refusal looks like today, written once for every operation (the handler above produces all of them).
ERROR_COMPONENTS = {
    "ErrorDetail": {
        "type": "object",
        "description": "A refusal: not signed in, a bad token or not allowed (403), no such object or not visible "
        "to the caller (404), a state that does not allow the request (409), a body of another media type (415).",
        "properties": {"detail": {"type": "string", "description": "What is wrong and what to do, translated."}},
        "required": ["detail"],
    },
    "ValidationErrorBody": {
        "type": "object",
        "description": "Bad input (400): each field name maps to its messages (a nested input maps to the same "
        "shape per item or key); `non_field_errors` holds messages about the input as a whole, `detail` a body "
        "that could not be read or a refusal not tied to one field.",
        "properties": {
            "detail": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
            "non_field_errors": {"type": "array", "items": {"type": "string"}},
        },
        "additionalProperties": {
            "anyOf": [
                {"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "object"}]}},
                {"type": "object"},
            ]
        },
    },
}
ERROR_RESPONSES = {
    "400": ("ValidationErrorBody", "The input is not valid; the body says which field and why."),
    # Session authentication comes first, so DRF answers a missing or bad token with 403, not 401, today.
    "401": ("ErrorDetail", "Reserved for authentication failures; today they answer 403."),
    "403": ("ErrorDetail", "Not signed in, a token that is not valid, or not allowed to do this."),
    "404": ("ErrorDetail", "No such object, or the caller may not see it."),
    "409": ("ErrorDetail", "The object is in a state that does not allow this now."),
    "415": ("ErrorDetail", "The body is not JSON, form data or multipart form data."),
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
