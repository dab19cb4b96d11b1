"""The translated text of every refusal, keyed by the refusal's stable code.

Why a registry: the pure cores speak English (they import no Django), but people read refusals in their own
language, in the API and on the pages alike. Each app owns the table of its core's codes and registers it from its
`AppConfig.ready()`; `translate()` then turns any `DomainError` into text, wherever it surfaces. `base` never
imports the apps (they import it), so the tables come to it rather than it going to them.

A table maps a code to a lazily translated template with `%(name)s` placeholders filled from the error's
`params`. An adapter that knows more than the core (a player's name for a side or an id) puts it into `params`
before the error leaves it. A code without an entry, or an entry whose placeholders the error cannot fill, falls
back to the core's English message, so a refusal is never lost.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from base.errors import DomainError

_TABLES: dict[type[DomainError], dict[str, object]] = {}


def register(error_class: type[DomainError], table: Mapping[str, object]) -> None:
    """Add `table` (code -> translated template) for `error_class`; later registrations add to earlier ones."""
    _TABLES.setdefault(error_class, {}).update(table)


def template(error_class: type[DomainError], code: str) -> object | None:
    """The registered template of `code`, looked up along the class's bases (a subclass shares its base's codes)."""
    for klass in error_class.__mro__:
        table = _TABLES.get(klass)
        if table is not None and code in table:
            return table[code]
    return None


def translate(exc: DomainError) -> str:
    """The refusal in the reader's language, its placeholders filled from the error's params."""
    text = template(type(exc), exc.code)
    if text is None:
        return str(exc.message)
    try:
        return str(text) % exc.params if "%(" in str(text) else str(text)
    except (KeyError, TypeError, ValueError):  # raised without the numbers its message needs: the core's words
        return str(exc.message)


def registered() -> Iterator[tuple[type[DomainError], str, object]]:
    """Every (error class, code, template) registered, for the test that holds each code to a translation."""
    for error_class, table in _TABLES.items():
        for code, text in table.items():
            yield error_class, code, text
