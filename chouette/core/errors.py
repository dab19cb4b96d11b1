from __future__ import annotations

from base.errors import DomainError


class ChouetteError(DomainError):
    """Something the chouette rules refuse. `code` is stable for programs; `message` is for people (English;
    the adapter translates by code with `params`, player ids turned into names); `field` names the input at
    fault ("game" unless said otherwise).

    The codes in `conflicts` are about who sits at the table now (the seating changed, the table is full, the
    session already started): the request came at the wrong time (409). The rest break a rule (400).
    """

    conflicts = frozenset(
        {
            "stale_order",
            "already_started",
            "table_full",
            "already_seated",
            "not_seated",
            "sitting_out",
            "not_sitting_out",
        }
    )

    def __init__(self, code: str, message: str, *, field: str = "game", **params: object) -> None:
        super().__init__(code, message, field, **params)
