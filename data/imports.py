"""The member import: a CSV file or a pasted list read into rows, and each row planned against the club's
memberships (create, update, unchanged, invite an existing player, or refuse, with the reason). Nothing here
writes: `data.services.import_members` applies a plan the director has seen, in one transaction.

The rules (docs/data.md, "Member import"):
- at most MAX_BYTES (1 MB) and MAX_ROWS (5,000 rows); UTF-8 (a byte-order mark is allowed); a file in another
  encoding is refused naming the row of the first byte that is not UTF-8;
- the first row names the columns (name, email, rating, number, in English or German, any order; only `name` is
  required), or, when it names none of them, the columns are name, email, rating, number in that order;
- cells are split on `;`, a tab or `,`, whichever the first row holds most of (a German Excel file uses `;`);
- rows are numbered as a spreadsheet shows them: the first row of the file is row 1;
- an empty cell changes nothing (the file never clears what the club keeps); a rating takes a decimal comma or
  point and is kept to two places;
- a row is matched to a membership by its number, then its e-mail, then its name (case, accents and spaces
  ignored); a row of a person who is no member is matched by e-mail to a player with an account (invited: they
  join once they accept) or made a new walk-in player of the club.
"""

from __future__ import annotations

import csv
import hashlib
import io
from dataclasses import dataclass, field
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext as _

from base import numbers
from base.errors import Invalid
from clubs import selectors as club_selectors
from clubs.models import Membership
from data.exports import FORMULA_STARTS
from tournaments.core.names import name_key

MAX_BYTES = 1024 * 1024
MAX_ROWS = 5000
MAX_RATING = Decimal("5000")

#: The columns and the headings each is known by (compared lower-cased, spaces and dashes dropped).
COLUMNS = {
    "name": ("name", "player", "spieler", "spielerin"),
    "email": ("email", "mail", "emailaddress", "emailadresse"),
    "rating": ("rating", "wertung", "elo", "fibs"),
    "number": ("number", "membershipnumber", "memberno", "nr", "nummer", "mitgliedsnummer", "mitgliednr"),
}
ORDER = ("name", "email", "rating", "number")

CREATE, UPDATE, UNCHANGED, INVITE, REFUSE = "create", "update", "unchanged", "invite", "refuse"


@dataclass
class Row:
    line: int  # the row's number as a spreadsheet shows it (the file's first row is 1)
    name: str = ""
    email: str = ""
    rating: Decimal | None = None
    number: str = ""
    action: str = REFUSE
    reason: str = ""
    changes: dict = field(default_factory=dict)  # update: field -> new value
    membership: Membership | None = None
    player_id: int | None = None  # invite: the existing player

    @property
    def applies(self) -> bool:
        return self.action in (CREATE, UPDATE, INVITE)


@dataclass
class Plan:
    rows: list[Row]
    text: str

    def count(self, action: str) -> int:
        return sum(1 for row in self.rows if row.action == action)

    @property
    def digest(self) -> str:
        """What the director saw: the action and values of every row. Confirming a plan whose digest changed
        (the club's members changed meanwhile) shows the new preview instead of applying it."""
        parts = [f"{r.line}|{r.action}|{r.name}|{r.email}|{r.rating}|{r.number}|{r.changes}" for r in self.rows]
        return hashlib.sha256("\n".join(parts).encode()).hexdigest()

    count_create = property(lambda self: self.count(CREATE))
    count_invite = property(lambda self: self.count(INVITE))
    count_update = property(lambda self: self.count(UPDATE))
    count_unchanged = property(lambda self: self.count(UNCHANGED))
    count_refuse = property(lambda self: self.count(REFUSE))

    @property
    def changes_anything(self) -> bool:
        return any(row.applies for row in self.rows)


# --- reading ---------------------------------------------------------------------------------------------------


def decode(raw: bytes) -> str:
    """The file's text: UTF-8, at most MAX_BYTES, else refused saying which row holds the first bad byte."""
    if len(raw) > MAX_BYTES:
        raise Invalid(
            _("The file is larger than 1 MB; split it into smaller files (at most 5,000 rows each)."), field="file"
        )
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise Invalid(
            _(
                "Row %(row)s is not UTF-8 text: save the file as \u201cCSV UTF-8\u201d (Excel) or choose the "
                "UTF-8 encoding when exporting, then upload it again."
            )
            % {"row": line},
            field="file",
        ) from None


def heading(cell: str, known: dict[str, tuple[str, ...]]) -> str | None:
    """The column a heading cell names (compared lower-cased, spaces and dashes dropped), or None."""
    compact = "".join(c for c in cell.casefold() if c.isalnum())
    for column, names in known.items():
        if compact in names:
            return column
    return None


def _delimiter(first_line: str) -> str:
    counts = {d: first_line.count(d) for d in (";", "\t", ",")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


@dataclass
class Table:
    """A file or pasted list read into cells: the heading row found (if any) and the rows after it, each with
    its line number, its cells by column, and whether it has more cells than columns."""

    header_line: int
    header: list[str]
    named: bool  # the first row named the columns
    columns: list[str | None]  # the column of each cell, by the heading or by `order`
    records: list[tuple[int, dict[str, str], bool]]


def read_table(text: str, known: dict[str, tuple[str, ...]], order: tuple[str, ...]) -> Table:
    """The rows of a CSV file or pasted list (the member import's and the rating list's rules: cells split on
    `;`, a tab or `,`, whichever the first row holds most of; a first row naming any of `known` columns names
    them, else the columns are `order`; at most MAX_ROWS rows; cells an export escaped read back)."""
    lines = text.splitlines()
    if not any(line.strip() for line in lines):
        raise Invalid(_("The file or list is empty: give at least one row with a name."), field="text")
    first = next(line for line in lines if line.strip())
    reader = csv.reader(io.StringIO(text), delimiter=_delimiter(first))
    try:
        rows = [(reader.line_num, cells) for cells in reader]
    except csv.Error:  # a cell past the csv module's field limit (128 KiB), or a quote it cannot close
        raise Invalid(
            _("Row %(row)s cannot be read: a cell is far too long or its quotes do not close. Check that row.")
            % {"row": reader.line_num},
            field="text",
        ) from None
    rows = [(line, cells) for line, cells in rows if any(c.strip() for c in cells)]
    header_line, header = rows[0]
    columns = [heading(cell, known) for cell in header]
    named = any(columns)
    if named:
        rows = rows[1:]
    else:
        columns = list(order)
    if len(rows) > MAX_ROWS:
        raise Invalid(
            _("The file has %(n)s rows; at most 5,000 are read at once: split it.") % {"n": len(rows)},
            field="text",
        )
    records = []
    for line, cells in rows:
        values = {column: unescape(cell.strip()) for column, cell in zip(columns, cells, strict=False) if column}
        extra = len(cells) > len(columns) and any(c.strip() for c in cells[len(columns) :])
        records.append((line, values, extra))
    return Table(header_line=header_line, header=header, named=named, columns=columns, records=records)


def read_rows(text: str) -> list[Row]:
    """The rows of the text with their values read (bad values refused row by row), before any matching."""
    table = read_table(text, COLUMNS, ORDER)
    if table.named and "name" not in table.columns:
        raise Invalid(
            _("Row %(row)s names the columns %(found)s but no name column: call one column \u201cname\u201d.")
            % {"row": table.header_line, "found": ", ".join(c.strip() for c in table.header if c.strip())},
            field="text",
        )
    return [_row(line, values, extra) for line, values, extra in table.records]


def parse_rating(text: str) -> tuple[Decimal | None, str]:
    """A rating cell: the value (decimal comma or point, two places) and the problem, if any."""
    if not text:
        return None, ""
    try:  # bounded first (base.numbers): NaN, infinities and huge exponents are no rating
        value = numbers.read_decimal(text.replace(" ", "").replace(",", "."))
    except numbers.NumberError:
        return None, _("the rating \u201c%(value)s\u201d is not a number (e.g. 1612,5)") % {"value": text}
    if not 0 <= value <= MAX_RATING:
        return None, _("the rating %(value)s is not between 0 and 5000") % {"value": text}
    return value.quantize(Decimal("0.01")), ""


def unescape(cell: str) -> str:
    """A cell as it was before an export escaped it against formulas (data.exports.escape): `'=…` is `=…`."""
    if cell.startswith("'") and cell[1:].startswith(FORMULA_STARTS):
        return cell[1:]
    return cell


def _row(line: int, values: dict[str, str], extra: bool) -> Row:
    row = Row(line=line, name=" ".join(values.get("name", "").split()), email=values.get("email", "").lower())
    row.number = values.get("number", "")
    problems = []
    if not row.name:
        problems.append(_("no name"))
    elif len(row.name) > 120:
        problems.append(_("the name is longer than 120 characters"))
    if row.email:
        try:
            validate_email(row.email)
        except ValidationError:
            problems.append(_("\u201c%(email)s\u201d is no e-mail address") % {"email": row.email})
    if len(row.number) > 32:
        problems.append(_("the membership number is longer than 32 characters"))
    row.rating, problem = parse_rating(values.get("rating", ""))
    if problem:
        problems.append(problem)
    if extra:
        problems.append(_("more cells than columns"))
    if problems:
        row.reason = "; ".join(problems)
    return row


# --- planning --------------------------------------------------------------------------------------------------


def _stored_rating(membership: Membership) -> Decimal | None:
    """The rating on file as the members export writes it (two places, the same rounding), so a file exported
    and imported again compares equal."""
    if membership.rating is None:
        return None
    return Decimal(f"{membership.rating:.2f}")


def _account_email(membership: Membership) -> str:
    user = membership.player.user
    return (getattr(user, "email", "") or "").lower() if user is not None else ""


def plan(*, club, text: str) -> Plan:
    """Each row's action against the club as it is now (three queries whatever the number of rows)."""
    rows = read_rows(text)
    memberships = club_selectors.club_memberships_with_details(club=club)
    by_number: dict[str, Membership] = {m.number: m for m in memberships if m.number}
    by_email: dict[str, Membership] = {}
    by_name: dict[str, list[Membership]] = {}
    for membership in memberships:
        for address in {membership.email.lower(), _account_email(membership)} - {""}:
            by_email.setdefault(address, membership)
        by_name.setdefault(name_key(membership.player.name), []).append(membership)
    accounts = club_selectors.players_with_account_emails(r.email for r in rows if r.email and not r.reason)
    seen: dict[tuple, int] = {}
    claimed: dict[int, int] = {}  # membership or player id -> the row that took it
    for row in rows:
        if row.reason:
            continue
        duplicate = _duplicate_of(row, seen)
        if duplicate is not None:
            row.reason = _("the same as row %(row)s") % {"row": duplicate}
            continue
        _plan_row(row, by_number, by_email, by_name, accounts)
        taken = row.membership.pk if row.membership else (row.player_id and -row.player_id)
        if taken:
            if taken in claimed:
                row.action, row.reason = REFUSE, _("the same member as row %(row)s") % {"row": claimed[taken]}
                row.membership, row.player_id, row.changes = None, None, {}
                continue
            claimed[taken] = row.line
    return Plan(rows=rows, text=text)


def _duplicate_of(row: Row, seen: dict[tuple, int]) -> int | None:
    keys = [("name", name_key(row.name), row.email)]
    if row.email:
        keys.append(("email", row.email))
    if row.number:
        keys.append(("number", row.number))
    for key in keys:
        if key in seen:
            return seen[key]
    for key in keys:
        seen[key] = row.line
    return None


def _plan_row(row: Row, by_number, by_email, by_name, accounts) -> None:
    membership = by_number.get(row.number) if row.number else None
    if membership is None and row.email:
        membership = by_email.get(row.email)
    if membership is None:
        named = by_name.get(name_key(row.name), [])
        if len(named) > 1:
            row.reason = _("%(n)s members are called %(name)s: add the e-mail or membership number") % {
                "n": len(named),
                "name": row.name,
            }
            return
        if named:
            other = named[0].email.lower() or _account_email(named[0])
            if row.email and other and other != row.email:
                row.reason = _(
                    "a member called %(name)s has another e-mail address: add the membership number to update them"
                ) % {"name": row.name}
                return
            membership = named[0]
    if membership is not None:
        _plan_member(row, membership)
        return
    found = accounts.get(row.email, []) if row.email else []
    if len(found) == 1:
        row.action, row.player_id = INVITE, found[0].pk
        row.reason = _("a player with an account has this e-mail address: invited, a member once they accept")
        return
    row.action, row.reason = CREATE, _("new: a player without an account, registered by the club")


def _plan_member(row: Row, membership: Membership) -> None:
    if membership.status == Membership.Status.DECLINED:
        row.reason = _("%(name)s declined the club's invitation") % {"name": membership.player.name}
        return
    if membership.status == Membership.Status.ACCEPTED and not membership.is_active:
        row.reason = _("%(name)s is no longer a member: an admin adds them again") % {"name": membership.player.name}
        return
    row.membership = membership
    wanted = {"email": row.email, "rating": row.rating, "number": row.number}
    have = {"email": membership.email.lower(), "rating": _stored_rating(membership), "number": membership.number}
    row.changes = {k: v for k, v in wanted.items() if v not in ("", None) and v != have[k]}
    if row.changes:
        row.action = UPDATE
        row.reason = _("changes %(fields)s") % {"fields": ", ".join(_field_names()[k] for k in row.changes)}
    else:
        row.action = UNCHANGED
        row.reason = (
            _("already invited, nothing to change")
            if membership.status == Membership.Status.INVITED
            else _("a member already, nothing to change")
        )


def _field_names() -> dict[str, str]:
    return {"email": _("e-mail"), "rating": _("rating"), "number": _("membership number")}
