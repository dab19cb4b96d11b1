"""The API's request parsers: DRF's, refusing a NUL character anywhere in the parsed data with 400.

DRF's CharField already refuses NUL, but dict keys, JSONField and DictField payloads are stored unchecked,
and PostgreSQL refuses NUL in text and jsonb: the write failed with a 500. One check here covers every
field of every endpoint, whatever its serializer declares. (Form pages use Django forms, whose CharField
refuses NUL, and base.middleware refuses NUL in query strings and paths.)
"""

from __future__ import annotations

from rest_framework import parsers
from rest_framework.exceptions import ParseError

from base.text import has_nul

NUL_MESSAGE = "Text may not contain NUL (0x00) characters."


def _checked(data):
    values = data.data if isinstance(data, parsers.DataAndFiles) else data
    names = [f.name for f in data.files.values()] if isinstance(data, parsers.DataAndFiles) else []
    if hasattr(values, "lists"):  # a QueryDict: every value of every key
        values = dict(values.lists())
    if has_nul(values) or has_nul(names):
        raise ParseError(NUL_MESSAGE)
    return data


NESTED_MESSAGE = "The JSON is nested too deeply: no endpoint takes more than a few levels."


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        # Python's decoder (and the NUL walk after it) recurse once per level: thousands of "[" end in a
        # RecursionError, which reached the client as a 500. It is the sender's input: a 400 like any parse error.
        try:
            return _checked(super().parse(stream, media_type, parser_context))
        except RecursionError:
            raise ParseError(NESTED_MESSAGE) from None


class FormParser(parsers.FormParser):
    def parse(self, stream, media_type=None, parser_context=None):
        return _checked(super().parse(stream, media_type, parser_context))


class MultiPartParser(parsers.MultiPartParser):
    def parse(self, stream, media_type=None, parser_context=None):
        return _checked(super().parse(stream, media_type, parser_context))
