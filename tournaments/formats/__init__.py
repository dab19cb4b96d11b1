"""Every flight format behind one interface (`tournaments.formats.base.Format`): `format_of(flight)` is the only
way the services, selectors, forms and pages learn what a format does.

Adding a format: a class here (in its own module, registered below), its choice in
`tournaments.models.FlightFormat` with the migration that choice needs, and its section in docs/tournaments.md.
"""

from __future__ import annotations

from tournaments.format_registry import FORMATS
from tournaments.formats.base import Format, Line, Pool, Settings
from tournaments.formats.knockout import Knockout
from tournaments.formats.robin import Groups, RoundRobin
from tournaments.formats.swiss import Swiss, TripleElimination

FORMATS.update(
    (str(f.key), f)
    for f in (
        Knockout(),
        Swiss(),
        TripleElimination(),
        RoundRobin(),
        Groups(),
    )
)


def format_of(flight_or_key) -> Format:
    """The format of a flight (or of a format key)."""
    key = flight_or_key if isinstance(flight_or_key, str) else flight_or_key.format
    return FORMATS[str(key)]


def round_based_keys() -> frozenset[str]:
    return frozenset(key for key, f in FORMATS.items() if f.round_based)


__all__ = ["FORMATS", "Format", "Line", "Pool", "Settings", "format_of", "round_based_keys"]
