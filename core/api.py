"""Cross-cutting API pieces: the exception handler every endpoint shares."""

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


class Conflict(exceptions.APIException):
    """The request is valid but the object is in a state that does not allow it (answered as 409)."""

    status_code = status.HTTP_409_CONFLICT
    default_detail = "The object is not in a state that allows this."
    default_code = "conflict"


def exception_handler(exc, context):
    """DRF's handler, plus the Django errors that services raise, so none of them becomes a 500.

    A service raises django.core.exceptions.ValidationError for bad input (answered 400 with the field names
    and messages) and IntegrityError escapes only when a database constraint caught a race (answered 409).
    """
    if isinstance(exc, DjangoValidationError):
        if hasattr(exc, "error_dict"):
            detail = {field: [str(m) for m in messages] for field, messages in exc.message_dict.items()}
        else:
            detail = {"detail": exc.messages}
        exc = exceptions.ValidationError(detail)
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    elif isinstance(exc, IntegrityError):
        return Response(
            {"detail": "This conflicts with data that was stored at the same time; reload and try again."},
            status=status.HTTP_409_CONFLICT,
        )
    return drf_exception_handler(exc, context)
