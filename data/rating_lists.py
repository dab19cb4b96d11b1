"""A rating list (the federation's, or any: federation id, name, rating) read and matched to a flight's entries
as their seeding ratings, with a preview row by row. Nothing here writes: `data.services.import_seeding_ratings`
applies a plan the director has seen (docs/data.md, "Seeding ratings from a rating list").

The file's rules are the member import's (data.imports: size, encoding, delimiter, headings in English or
German, rows numbered as a spreadsheet shows them). A row is matched to an entry of the flight by the player's
federation id, else by name (case, accents and spaces ignored); a row of someone not entered is shown and left
out, so the whole national list can be given.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext as _

from base.errors import Invalid
from data import imports
from tournaments import selectors as tournament_selectors
from tournaments.core.names import name_key
from tournaments.models import EntryStatus

COLUMNS = {
    "federation_id": ("federationid", "fedid", "id", "idnr", "verbandsnummer", "verbandsid", "passnummer", "dbgvnr"),
    "name": ("name", "player", "spieler", "spielerin"),
    "rating": ("rating", "wertung", "elo", "fibs", "punkte"),
}
ORDER = ("federation_id", "name", "rating")

SET, UNCHANGED, NOT_ENTERED, REFUSE = "set", "unchanged", "not_entered", "refuse"


@dataclass
class RatingRow:
    line: int
    federation_id: str = ""
    name: str = ""
    rating: Decimal | None = None
    action: str = REFUSE
    reason: str = ""
    entry_id: int | None = None
    entry_name: str = ""


@dataclass
class RatingPlan:
    rows: list[RatingRow]
    text: str
    unlisted: list[str]  # entries no row gives a rating (they keep theirs, or the club's rating)

    def count(self, action: str) -> int:
        return sum(1 for row in self.rows if row.action == action)

    count_set = property(lambda self: self.count(SET))
    count_unchanged = property(lambda self: self.count(UNCHANGED))
    count_not_entered = property(lambda self: self.count(NOT_ENTERED))
    count_refuse = property(lambda self: self.count(REFUSE))

    @property
    def ratings(self) -> dict[int, float]:
        return {row.entry_id: float(row.rating) for row in self.rows if row.action == SET and row.entry_id}

    @property
    def digest(self) -> str:
        parts = [f"{r.line}|{r.action}|{r.entry_id}|{r.rating}" for r in self.rows]
        return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def read(text: str) -> list[RatingRow]:
    table = imports.read_table(text, COLUMNS, ORDER)
    if table.named and "rating" not in table.columns:
        raise Invalid(
            _("Row %(row)s names the columns %(found)s but no rating column: call one column \u201crating\u201d.")
            % {"row": table.header_line, "found": ", ".join(c.strip() for c in table.header if c.strip())},
            field="text",
        )
    rows = []
    for line, values, extra in table.records:
        row = RatingRow(line=line, federation_id=values.get("federation_id", ""))
        row.name = " ".join(values.get("name", "").split())
        problems = []
        if not row.name and not row.federation_id:
            problems.append(_("no federation id and no name"))
        if len(row.name) > 120 or len(row.federation_id) > 32:
            problems.append(_("a cell is too long"))
        if not values.get("rating"):
            problems.append(_("no rating"))
        row.rating, problem = imports.parse_rating(values.get("rating", ""))
        if problem:
            problems.append(problem)
        if extra:
            problems.append(_("more cells than columns"))
        row.reason = "; ".join(problems)
        rows.append(row)
    return rows


def plan(*, flight, text: str) -> RatingPlan:
    """Each row's action against the flight's entries as they are now (one query)."""
    rows = read(text)
    entries = [
        e
        for e in tournament_selectors.flight_entries(flight=flight)
        if not e.is_reentry and e.status != EntryStatus.WITHDRAWN
    ]
    by_id: dict[str, list] = {}
    by_name: dict[str, list] = {}
    for entry in entries:
        if entry.player.federation_id:
            by_id.setdefault(entry.player.federation_id.strip().casefold(), []).append(entry)
        by_name.setdefault(name_key(entry.player.name), []).append(entry)
    taken: dict[int, int] = {}
    for row in rows:
        if row.reason:
            continue
        found = by_id.get(row.federation_id.casefold(), []) if row.federation_id else []
        if not found and row.name:
            found = by_name.get(name_key(row.name), [])
            if found and row.federation_id and found[0].player.federation_id:
                found = []  # the same name, another federation id: another person
        if not found:
            row.action, row.reason = NOT_ENTERED, _("not entered in this flight: left out")
            continue
        if len(found) > 1:
            row.reason = _("%(n)s entries are called %(name)s: add the federation id") % {
                "n": len(found), "name": row.name
            }  # fmt: skip
            continue
        entry = found[0]
        if entry.pk in taken:
            row.reason = _("the same player as row %(row)s") % {"row": taken[entry.pk]}
            continue
        taken[entry.pk] = row.line
        row.entry_id, row.entry_name = entry.pk, entry.player.name
        if entry.seeding_rating is not None and Decimal(f"{entry.seeding_rating:.2f}") == row.rating:
            row.action, row.reason = UNCHANGED, _("has this seeding rating already")
        else:
            row.action = SET
            row.reason = _("seeding rating %(rating)s") % {"rating": row.rating}
    unlisted = [e.player.name for e in entries if e.pk not in taken]
    return RatingPlan(rows=rows, text=text, unlisted=unlisted)
