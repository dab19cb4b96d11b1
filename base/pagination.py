"""The one pagination every API list uses (REST_FRAMEWORK's DEFAULT_PAGINATION_CLASS).

DRF's LimitOffsetPagination trusts `limit` and `offset` as far as the database goes: `?limit=9223372036854775808`
reaches PostgreSQL as a LIMIT beyond bigint and answers 500, and a client asking for a million rows holds a
worker. Here a whole number too large is clamped: `limit` to MAX_LIMIT, `offset` to MAX_OFFSET. Anything that is
not a whole number in range (`?limit=abc`, `?offset=-1`, `?limit=0`, the parameter given twice) is refused with a
400 on that parameter: the schema declares both as integers with a minimum (`get_schema_operation_parameters`),
and DRF's fallback to the default page made a typo look like a short list.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination

MAX_LIMIT = 200
MAX_OFFSET = 1_000_000  # far past the end of any list here, and far inside bigint
_MAX_DIGITS = 19  # a longer number is clamped without converting it (int() of 5000 digits raises)
_DIGITS = re.compile(r"[0-9]+")


def _bounded(request, name: str, *, default: int, low: int, high: int) -> int:
    values = request.query_params.getlist(name)
    if not values:
        return default
    text = values[0]
    if len(values) > 1 or not _DIGITS.fullmatch(text) or (len(text) <= _MAX_DIGITS and int(text) < low):
        raise ValidationError({name: [_("Give a whole number of at least %(low)d.") % {"low": low}]})
    if len(text) > _MAX_DIGITS:
        return high
    return min(int(text), high)


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    max_limit = MAX_LIMIT

    def get_limit(self, request) -> int:
        return _bounded(request, self.limit_query_param, default=self.default_limit, low=1, high=self.max_limit)

    def get_offset(self, request) -> int:
        return _bounded(request, self.offset_query_param, default=0, low=0, high=MAX_OFFSET)

    def get_schema_operation_parameters(self, view):
        limit, offset = super().get_schema_operation_parameters(view)
        limit["schema"] = {"type": "integer", "minimum": 1}
        limit["description"] = f"Rows per page (default {self.default_limit}; more than {MAX_LIMIT} is clamped)."
        offset["schema"] = {"type": "integer", "minimum": 0}
        offset["description"] = "Rows to skip before the page starts."
        return [limit, offset]
