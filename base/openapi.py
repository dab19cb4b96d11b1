"""The schema class of every API view (REST_FRAMEWORK's DEFAULT_SCHEMA_CLASS)."""

import re
from decimal import Decimal

from drf_spectacular.extensions import OpenApiSerializerExtension, OpenApiSerializerFieldExtension
from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema


class AutoSchema(SpectacularAutoSchema):
    """REST_FRAMEWORK's DEFAULT_SCHEMA_CLASS: drf-spectacular's, with the filter parameters declared only where a
    view applies them, its `list`. A nested list action (a match's reports, a session's games) reads its own rows
    and ignores the list's filters, and declaring them there told clients `?status=` filtered what it never did."""

    def get_filter_backends(self):
        if getattr(self.view, "action", None) != "list":
            return []
        return super().get_filter_backends()


def decimal_pattern(*, max_digits: int, decimal_places: int, min_value=None, max_value=None) -> str:
    """The texts base.fields.DecimalField takes, as a regular expression: drf-spectacular's own pattern knew the
    digits but neither bound, so "-5" and "999" were valid in the schema and refused by the API. A maximum that is
    a power of ten (the percentages, 100) is written exactly; a negative sign only where the minimum allows it."""
    whole = max_digits - decimal_places
    fraction = rf"(?:\.\d{{1,{decimal_places}}})?" if decimal_places else ""
    sign = "" if min_value is not None and min_value >= 0 else "-?"
    if max_value is not None and max_value == int(max_value) and re.fullmatch(r"10*", str(int(max_value))):
        top = int(max_value)
        zeros = rf"(?:\.0{{1,{decimal_places}}})?" if decimal_places else ""
        below = rf"\d{{1,{len(str(top)) - 1}}}{fraction}" if top > 1 else rf"0{fraction}"
        return rf"^{sign}(?:{top}{zeros}|{below})$"
    if max_value is not None and max_value > 0:
        step = Decimal(1).scaleb(-decimal_places)
        if re.fullmatch(r"10*", str(int(Decimal(max_value) + step))):  # 99.99: two whole digits, any decimals
            whole = min(whole, len(str(int(Decimal(max_value) + step))) - 1)
    return rf"^{sign}\d{{1,{whole}}}{fraction}$"


class DecimalFieldExtension(OpenApiSerializerFieldExtension):
    """base.fields.DecimalField in the schema: a decimal written as text, with the pattern its bounds allow."""

    target_class = "base.fields.DecimalField"

    def map_serializer_field(self, auto_schema, direction):
        field = self.target
        schema = {"type": "string", "format": "decimal"}
        if direction == "request":
            schema["pattern"] = decimal_pattern(
                max_digits=field.max_digits,
                decimal_places=field.decimal_places,
                min_value=field.min_value,
                max_value=field.max_value,
            )
        return schema


class KnownFieldsOnlyExtension(OpenApiSerializerExtension):
    """An input that refuses fields it does not take (base.api.KnownFieldsOnly) says so in the schema: its request
    body has no additional properties, so a client (and the schema fuzzer) knows such a body is bad input."""

    target_class = "base.api.KnownFieldsOnly"
    match_subclasses = True

    def map_serializer(self, auto_schema, direction):
        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        if direction == "request":
            schema["additionalProperties"] = False
        return schema
