"""Counts loaded together with the signed-in user on every request (the menu's "to confirm" / "to decide"
badges), contributed by the apps that know them.

Why a registry: the sign-in backend sits below every app (accounts may not import games), yet the badges must
cost no query of their own. Each badge's name and the function returning its subquery expression over the user row
(`OuterRef("pk")`) are listed in config/pipeline.py (BADGES); the backend annotates the user with all of them in
the one query that loads the user, and templates read `user.<name>`.
"""

from collections.abc import Callable

_COUNTS: dict[str, Callable[[], object]] = {}


def register(name: str, expression: Callable[[], object]) -> None:
    """Load `user.<name>` with the user: `expression()` builds the annotation (a Subquery on OuterRef("pk"))."""
    _COUNTS[name] = expression


def annotations() -> dict[str, object]:
    return {name: expression() for name, expression in _COUNTS.items()}
