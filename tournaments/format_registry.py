"""Every flight format by key (tournaments.formats), filled when that package is imported (TournamentsConfig.ready
module with no imports of its own, so the models and the selectors the formats read can ask a flight's format
without an import running back up into the package (they read `FORMATS[flight.format]`)."""

from __future__ import annotations

from typing import Any

FORMATS: dict[str, Any] = {}
