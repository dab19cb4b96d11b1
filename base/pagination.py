"""The one pagination every API list uses (REST_FRAMEWORK's DEFAULT_PAGINATION_CLASS).

DRF's LimitOffsetPagination trusts `limit` and `offset` as far as the database goes: `?limit=9223372036854775808`
reaches PostgreSQL as a LIMIT beyond bigint and answers 500, and a client asking for a million rows holds a
worker. Here both are clamped: `limit` to 1..MAX_LIMIT, `offset` to 0..MAX_OFFSET; anything that is not a
whole number falls back to the default (DRF's behaviour for a bad limit), so a list never answers 500.
"""

from __future__ import annotations

from rest_framework.pagination import LimitOffsetPagination

MAX_LIMIT = 200
MAX_OFFSET = 1_000_000  # far past the end of any list here, and far inside bigint
_MAX_DIGITS = 19  # a longer number is clamped without converting it (int() of 5000 digits raises)


def _clamped(text: str | None, *, default: int, low: int, high: int) -> int:
    if text is None:
        return default
    text = text.strip()
    if not text.isascii() or not text.isdigit():
        return default
    if len(text) > _MAX_DIGITS:
        return high
    return max(low, min(int(text), high))


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    max_limit = MAX_LIMIT

    def get_limit(self, request) -> int:
        return _clamped(
            request.query_params.get(self.limit_query_param), default=self.default_limit, low=1, high=self.max_limit
        )

    def get_offset(self, request) -> int:
        return _clamped(request.query_params.get(self.offset_query_param), default=0, low=0, high=MAX_OFFSET)
