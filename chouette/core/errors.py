from __future__ import annotations


class ChouetteError(ValueError):
    """Something the chouette rules refuse. `code` is stable for programs; `message` is for people (English;
    the adapter translates by code with `params`); `field` names the input at fault."""

    def __init__(self, code: str, message: str, *, field: str = "game", **params):
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.params = params
