"""The query strings of the API's lists, held to what the schema declares (REST_FRAMEWORK's
DEFAULT_FILTER_BACKENDS). Apart from base.api because DRF's generic views read that setting while they are
imported, and base.api is imported before them."""

import django_filters
from django import forms
from django.utils.translation import gettext_lazy as _
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import extend_schema_field
from rest_framework import exceptions

from base.numbers import MAX_ID

_BOOLEANS = frozenset({"true", "false", "True", "False", "1", "0"})


@extend_schema_field({"type": "integer", "minimum": 1, "maximum": MAX_ID})
class IdFilter(django_filters.NumberFilter):
    """A row id in a list's query string (`?player=12`): a whole number from 1 to MAX_ID, declared so in the
    schema. A NumberFilter took `1.5` and `-3`, and a foreign key's ModelChoiceFilter refused an id that names
    no row with 400 where a list of nothing is the answer."""

    field_class = forms.IntegerField

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(*args, **kwargs)


class FilterBackend(DjangoFilterBackend):
    """REST_FRAMEWORK's DEFAULT_FILTER_BACKENDS: django-filter, held to what the schema declares of each filter.

    django-filter's forms are lenient where the schema is not: an empty value (`?status=`) or an unknown boolean
    (`?rated=maybe`) dropped the filter and listed everything, and of a parameter given twice the last one won
    silently. Here each of those is refused with a 400 on the parameter, before the forms read the query."""

    def filter_queryset(self, request, queryset, view):
        filterset_class = self.get_filterset_class(view, queryset)
        if filterset_class is not None:
            errors: dict[str, list] = {}
            for name, field in filterset_class.base_filters.items():
                values = request.query_params.getlist(name)
                if len(values) > 1:
                    errors[name] = [_("Give this parameter once.")]
                elif not values or isinstance(field, django_filters.CharFilter):
                    continue
                elif values[0] == "":
                    errors[name] = [_("Give a value or leave the parameter out.")]
                elif isinstance(field, django_filters.BooleanFilter) and values[0] not in _BOOLEANS:
                    errors[name] = [_("Give true or false.")]
            if errors:
                raise exceptions.ValidationError(errors)
        return super().filter_queryset(request, queryset, view)
