"""`{% idempotency_field %}`: the hidden key a page's write form carries (base.idempotency), new each time the
form is shown, so the same form sent twice (a reload after a lost answer, a double tap) is done once."""

import uuid

from django import template
from django.utils.html import format_html

from base.idempotency import FIELD

register = template.Library()


@register.simple_tag
def idempotency_field() -> str:
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, uuid.uuid4().hex)
