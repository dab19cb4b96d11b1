"""CSV and XLSX exports: one class per export behind one interface (`Export`), one writer per format
(`csv_response`, `xlsx_response`) over the same header and rows.

An export is built from the request's user and the URL's names, and finds its object through the owning app's
selector that already decides who may see it (a private club's event, table or Calcutta is a 404 for an
outsider; a chouette table's money a 403 for anyone but its players and the club's directors), so an export
never holds a row its page would not show. Cells are typed: text is the club's or a player's own words and is
escaped against spreadsheet formulas; numbers, money and dates are written in the active language's format
(German: decimal comma, and `;` between cells so Excel splits the columns). In a workbook numbers and money are
numbers, dates are dates (with the language's display format), and text is a text cell: a name like `=1+1` is
stored as text and never run as a formula.
"""

from __future__ import annotations

import csv
import datetime
import io
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import ClassVar

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.utils import formats, timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Font

from calcutta import selectors as calcutta_selectors
from calcutta.models import Calcutta
from chouette import permissions as chouette_access
from chouette import selectors as chouette_selectors
from chouette.models import ChouetteSession
from clubs import access as club_access
from clubs import selectors as club_selectors
from ratings import selectors as ratings_selectors
from tournaments import selectors as tournament_selectors
from tournaments.selectors import rounds as round_selectors

#: A text cell starting with one of these is read as a formula by a spreadsheet (OWASP "CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
BOM = "\ufeff"


# --- typed cells -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Number:
    value: float | int | Decimal | None
    places: int = 0


@dataclass(frozen=True)
class Money:
    cents: int | None


def escape(text: str) -> str:
    """A text cell a spreadsheet would run as a formula gets a leading apostrophe (shown, never run)."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def decimal_separator() -> str:
    return formats.get_format("DECIMAL_SEPARATOR")


def delimiter() -> str:
    """`;` where the decimal separator is a comma (German Excel splits on it), else `,`."""
    return ";" if decimal_separator() == "," else ","


def cell(value) -> str:
    """One cell as written: text escaped, numbers with the language's decimal separator (no grouping, so a
    spreadsheet reads them back as numbers), dates in the language's short format, nothing for None."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, Money):
        return cell(Number(None if value.cents is None else Decimal(value.cents) / 100, 2))
    if isinstance(value, Number):
        if value.value is None:
            return ""
        return f"{value.value:.{value.places}f}".replace(".", decimal_separator())
    if isinstance(value, int):
        return str(value)
    if isinstance(value, datetime.datetime):
        return formats.date_format(timezone.localtime(value), "SHORT_DATETIME_FORMAT")
    if isinstance(value, datetime.date):
        return formats.date_format(value, "SHORT_DATE_FORMAT")
    return escape(str(value))


def write_csv(header: list[str], rows: Iterable[list]) -> str:
    """The file's text: BOM, header, rows, in the active language's format."""
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out, delimiter=delimiter(), lineterminator="\r\n")
    writer.writerow([escape(str(name)) for name in header])
    for row in rows:
        writer.writerow([cell(value) for value in row])
    return out.getvalue()


# --- the workbook ------------------------------------------------------------------------------------------------

#: The display format of a date and of a date and time in a workbook, per decimal separator (the language).
XLSX_DATES = {",": ("DD.MM.YYYY", "DD.MM.YYYY HH:MM"), ".": ("D MMM YYYY", "D MMM YYYY HH:MM")}
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def xlsx_cell(value) -> tuple[object, str | None]:
    """One cell of a workbook: its value and display format. Numbers and money stay numbers (as many places
    as the CSV shows), dates and times dates (local time, no zone: a spreadsheet has none), a flag the same
    yes/no text as the CSV, text as it is (written as a text cell, so nothing runs: see write_xlsx)."""
    if value is None:
        return None, None
    if isinstance(value, bool):
        return (_("yes") if value else _("no")), None
    if isinstance(value, Money):
        return xlsx_cell(Number(None if value.cents is None else Decimal(value.cents) / 100, 2))
    if isinstance(value, Number):
        if value.value is None:
            return None, None
        places = "0." + "0" * value.places if value.places else "0"
        return round(Decimal(str(value.value)), value.places), places
    if isinstance(value, int):
        return value, None
    date_format, moment_format = XLSX_DATES.get(decimal_separator(), XLSX_DATES["."])
    if isinstance(value, datetime.datetime):
        return timezone.localtime(value).replace(tzinfo=None), moment_format
    if isinstance(value, datetime.date):
        return value, date_format
    return str(value), None


def write_xlsx(title: str, header: list[str], rows: Iterable[list]) -> bytes:
    """The workbook's bytes: one sheet, the header in bold, then the rows. Every text cell is typed as text
    ("s"), so a cell starting with `=` is shown as written and never evaluated (openpyxl would otherwise take
    it for a formula); no apostrophe is needed as in the CSV."""
    book = Workbook(write_only=True)
    sheet = book.create_sheet(title=(slugify(title) or "export")[:31])
    bold = Font(bold=True)

    def make(value, number_format=None, font=None):
        made = WriteOnlyCell(sheet, value=value)
        if isinstance(value, str):
            made.data_type = "s"  # text, never a formula
        if number_format:
            made.number_format = number_format
        if font is not None:
            made.font = font
        return made

    sheet.append([make(str(name), font=bold) for name in header])
    for row in rows:
        sheet.append([make(*xlsx_cell(value)) for value in row])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def xlsx_response(export: Export) -> HttpResponse:
    response = HttpResponse(write_xlsx(str(export.title), export.header(), export.rows()), content_type=XLSX_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{export.filename()}.xlsx"'
    response["Cache-Control"] = "private, no-store"
    return response


def csv_response(export: Export) -> HttpResponse:
    response = HttpResponse(
        write_csv(export.header(), export.rows()).encode("utf-8"), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{export.filename()}.csv"'
    response["Cache-Control"] = "private, no-store"
    return response


# --- the interface ---------------------------------------------------------------------------------------------


class Export:
    """One export: `key` names it in the URL; built from the user and the URL's names (raising Http404 or
    PermissionDenied as its page would), it gives a file name, a header and rows of typed cells."""

    key: ClassVar[str]
    title: ClassVar[str]

    def __init__(self, user, query=None, **names):
        self.user = user
        self.query = query or {}
        self.names = names

    def filename(self) -> str:
        raise NotImplementedError

    def header(self) -> list[str]:
        raise NotImplementedError

    def rows(self) -> Iterator[list]:
        raise NotImplementedError

    #: Whether the requester directs what is exported (its event or club): they get players' own names, everyone
    #: else the public names (a display name a player chose), as on the pages.
    sees_real_names = False
    #: The club whose file it is (the event's): its switch says whether display names stand in for names.
    names_club = None

    def player_name(self, player) -> str:
        return player.name if self.sees_real_names else player.public_name_at(self.names_club)

    def entry_name(self, entry) -> str:
        return entry.real_name if self.sees_real_names else entry.name


EXPORTS: dict[str, type[Export]] = {}


def register(cls: type[Export]) -> type[Export]:
    EXPORTS[cls.key] = cls
    return cls


def _stamp() -> str:
    return timezone.localdate().isoformat()


class EventExport(Export):
    """An export of one event the user may see (`club`, `slug` in the URL)."""

    def __init__(self, user, query=None, **names):
        super().__init__(user, query, **names)
        self.event = tournament_selectors.event_or_404(user=user, club_slug=names["club"], slug=names["slug"])
        self.sees_real_names = club_access.can(user, "event.direct", self.event)
        self.names_club = self.event.club

    def filename(self) -> str:
        return f"{self.event.club.slug}-{self.event.slug}-{slugify(str(self.title))}-{_stamp()}"


class FlightExport(EventExport):
    def __init__(self, user, query=None, **names):
        super().__init__(user, query, **names)
        self.flight = tournament_selectors.flight_for(event=self.event, slug=names["flight"])
        if self.flight is None:
            raise Http404(_("No such flight."))

    def filename(self) -> str:
        return f"{self.event.club.slug}-{self.event.slug}-{self.flight.slug}-{slugify(str(self.title))}-{_stamp()}"


@register
class FlightEntries(FlightExport):
    key = "flight-entries"
    title = gettext_lazy("Entries")

    def header(self) -> list[str]:
        return [_("Player"), _("Team"), _("Status"), _("Seed"), _("Rating"), _("Late"), _("Re-entry"), _("Checked in")]

    def rows(self) -> Iterator[list]:
        for entry in tournament_selectors.flight_entries(flight=self.flight):
            yield [
                self.player_name(entry.player),
                entry.team_name,
                entry.get_status_display(),
                entry.seed,
                Number(entry.rating, 1),
                entry.is_late,
                entry.is_reentry,
                entry.checked_in_at,
            ]


@register
class EventResults(EventExport):
    key = "event-results"
    title = gettext_lazy("Results")

    def header(self) -> list[str]:
        return [_("Flight"), _("Place"), _("Player"), _("Matches won"), _("Matches lost")]

    def lines(self) -> Iterator[tuple]:
        for flight in tournament_selectors.flights(event=self.event):
            names = {e.pk: e for e in tournament_selectors.flight_entries(flight=flight)}
            tally = tournament_selectors.match_tally(flight=flight)
            for placement in tournament_selectors.flight_placements(flight=flight):
                entry = names.get(placement.entry_id)
                if entry is not None:
                    yield flight, placement.place, entry, tally.get(entry.pk, (0, 0))

    def rows(self) -> Iterator[list]:
        for flight, place, entry, (won, lost) in self.lines():
            yield [flight.name, place, self.entry_name(entry), won, lost]


@register
class FederationResults(EventResults):
    """The file a national federation asks for: one line per player and flight. Its column names are fixed (a
    federation's import reads them; docs/data.md lists the fields); its cells follow the language like any
    export's."""

    key = "federation-results"
    title = gettext_lazy("Federation results")

    def header(self) -> list[str]:
        return ["player", "federation_id", "event", "date", "flight", "place", "won", "lost"]

    def rows(self) -> Iterator[list]:
        for flight, place, entry, (won, lost) in self.lines():
            yield [
                self.player_name(entry.player), entry.player.federation_id, self.event.name, self.event.starts_on,
                flight.name, place, won, lost,
            ]  # fmt: skip


@register
class FlightStandings(FlightExport):
    key = "flight-standings"
    title = gettext_lazy("Standings")

    def __init__(self, user, query=None, **names):
        super().__init__(user, query, **names)
        if not self.flight.is_round_based:
            raise Http404(_("A knockout flight has no standings table; export its results instead."))
        self.columns = [t for t in round_selectors.tiebreaks_in_effect(self.flight) if t.key != "wins"]

    def header(self) -> list[str]:
        fixed = [_("Rank"), _("Player"), _("Withdrawn"), _("Wins"), _("Losses"), _("Byes")]
        return fixed + [_(t.name) for t in self.columns]

    def rows(self) -> Iterator[list]:
        for row in round_selectors.flight_standings(flight=self.flight):
            line = row.line
            fixed = [line.rank, self.entry_name(row.entry), row.withdrawn, line.wins, line.losses, line.byes]
            yield fixed + [getattr(line, t.key, None) for t in self.columns]


class ClubExport(Export):
    """An export of a club the user may see (`slug`); a private club is a 404 to an outsider."""

    def __init__(self, user, query=None, **names):
        super().__init__(user, query, **names)
        club = club_selectors.visible_club(user=user, slug=names["slug"])
        if club is None:
            raise Http404(_("No such club."))
        self.club = club
        self.sees_real_names = club_access.can(user, "club.direct", club)
        self.names_club = club

    def filename(self) -> str:
        return f"{self.club.slug}-{slugify(str(self.title))}-{_stamp()}"


@register
class ClubRatedMatches(ClubExport):
    key = "club-rated-matches"
    title = gettext_lazy("Rated matches")

    def header(self) -> list[str]:
        return [
            _("Played"), _("Variant"), _("Winner"), _("Loser"), _("Length"), _("Winner's rating before"),
            _("Loser's rating before"), _("Winner's change"), _("Loser's change"),
        ]  # fmt: skip

    def rows(self) -> Iterator[list]:
        for row in ratings_selectors.club_rated_matches(club=self.club, user=self.user):
            yield [
                row.played_at, row.pool.get_variant_display(), self.player_name(row.winner),
                self.player_name(row.loser), row.length,
                Number(row.winner_rating, 2), Number(row.loser_rating, 2), Number(row.winner_change, 2),
                Number(row.loser_change, 2),
            ]  # fmt: skip


@register
class ClubStandings(ClubExport):
    """The leaderboard as its page shows it: the whole club or one season (`?season=<id>`), every points scheme
    or one (`?scheme=`)."""

    key = "club-standings"
    title = gettext_lazy("Standings")

    def __init__(self, user, query=None, **names):
        super().__init__(user, query, **names)
        self.season = None
        season = self.query.get("season")
        scheme = self.query.get("scheme") or None
        self.scheme = scheme if scheme in ratings_selectors.POINTS_SCHEMES else None
        if season:
            self.season = next((s for s in ratings_selectors.club_seasons(club=self.club) if str(s.pk) == season), None)
            if self.season is None:
                raise Http404(_("This club has no such season."))

    def filename(self) -> str:
        season = f"-{slugify(self.season.name)}" if self.season else ""
        return f"{self.club.slug}-{slugify(str(self.title))}{season}-{_stamp()}"

    def header(self) -> list[str]:
        return [
            _("Rank"), _("Player"), _("Season"), _("Points"), _("Events"), _("Rating"), _("Matches"), _("Wins"),
            _("Win share"),
        ]  # fmt: skip

    def rows(self) -> Iterator[list]:
        season = self.season.name if self.season else _("All seasons")
        standings = ratings_selectors.leaderboard(club=self.club, season=self.season, scheme=self.scheme)
        for rank, row in enumerate(standings, start=1):
            share = None if row.win_share is None else row.win_share * 100
            yield [
                rank, self.player_name(row.player), season, Number(row.points, 2), row.events,
                Number(row.rating, 2), row.matches, row.wins, Number(share, 1),
            ]  # fmt: skip


@register
class ClubMembers(ClubExport):
    """The club's active members in the import's columns (name, e-mail, the rating on file, membership number):
    exported and imported again it changes nothing. Directors only: it holds e-mail addresses."""

    key = "club-members"
    title = gettext_lazy("Members")

    def __init__(self, user, query=None, **names):
        super().__init__(user, query, **names)
        if not club_access.can(user, "club.direct", self.club):
            raise PermissionDenied(_("Only a director or admin of this club can export its members."))

    def header(self) -> list[str]:
        return ["name", "email", "rating", "number"]

    def rows(self) -> Iterator[list]:
        for membership in club_selectors.club_members(club=self.club):
            yield [membership.player.name, membership.email, Number(membership.rating, 2), membership.number]


@register
class ChouetteLedger(Export):
    """A chouette table's ledger: one line per game and player (points and money), for its players and the
    club's directors only, as on its settlement page."""

    key = "chouette-ledger"
    title = gettext_lazy("Ledger")

    def __init__(self, user, query=None, **names):
        super().__init__(user, query, **names)
        try:
            self.session = chouette_selectors.session_for_detail(user=user, slug=names["slug"], pk=names["pk"])
        except ChouetteSession.DoesNotExist:
            raise Http404(_("No such chouette session.")) from None
        if not chouette_access.may_see_money(user, self.session):
            raise PermissionDenied(_("Only the players of this table and the club's directors see its money."))

    def filename(self) -> str:
        return f"{self.session.club.slug}-chouette-{self.session.pk}-{slugify(str(self.title))}-{_stamp()}"

    def header(self) -> list[str]:
        return [_("Game"), _("Played"), _("Player"), _("Role"), _("Deal"), _("Points"), _("Money")]

    def rows(self) -> Iterator[list]:
        for game in reversed(chouette_selectors.game_rows(self.session)):
            played = game["event"].created_at if game["event"] is not None else None
            for line in game["lines"]:
                yield [
                    game["number"], played, line.player.name, line.role, line.deal, Number(line.points, 1),
                    Money(line.cents),
                ]  # fmt: skip


@register
class CalcuttaSettlement(Export):
    """A Calcutta's settlement: each owner's money paid in and won, as on its settlement page: every owner's
    line and the total for the event's directors, a bidder's own line for that bidder, refused to anyone else."""

    key = "calcutta-settlement"
    title = gettext_lazy("Settlement")

    def __init__(self, user, query=None, **names):
        super().__init__(user, query, **names)
        try:
            self.calcutta = calcutta_selectors.calcutta_for(user=user, pk=names["pk"])
        except Calcutta.DoesNotExist:
            raise Http404(_("No such Calcutta.")) from None
        club_access.require(user, "calcutta.download_settlement", self.calcutta)

    def filename(self) -> str:
        return f"calcutta-{self.calcutta.pk}-{slugify(str(self.title))}-{_stamp()}"

    def header(self) -> list[str]:
        return [_("Owner"), _("Paid in"), _("Won"), _("Net")]

    def rows(self) -> Iterator[list]:
        report = calcutta_selectors.settlement_report(calcutta=self.calcutta, user=self.user)
        for line in report["lines"]:
            yield [line.bidder.name, Money(line.paid_in), Money(line.won), Money(line.won - line.paid_in)]
        if report["lines"] and report["sees_all"]:
            total_in, total_won = report["total_paid_in"], report["total_won"]
            yield [_("Total"), Money(total_in), Money(total_won), Money(total_won - total_in)]
