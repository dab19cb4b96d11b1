"""Event templates (docs/data.md, "Event templates"): what of an event a template keeps, read from the event
(`snapshot`, no writes), and what the services hand back to the tournaments' services to start a new event
from it (`event_settings`, `flight_settings`). The services (data.services) do the writing.

A template keeps settings, never people or results: the event's public / registration / house settings and
length in days, and for each flight, in order, its kind, format, match lengths, clock, rounds and tie-breaks,
team size, variant, knockout options, fees, payout template and payout table. A flight names another (its
source, the flight a satellite awards an entry to, the flights of a payout template) by its short name, so the
new event's flights name their new siblings. Times of day (a check-in or re-entry deadline, the closing time)
are kept as the days after the first day and the local time, and land on the new event's days."""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.utils import timezone

#: The version of the `setup` layout; a template of another version is refused rather than misread.
VERSION = 1

#: A flight's fields a template keeps as they are (numbers, text, flags, lists), in the order add_flight takes.
FLIGHT_FIELDS = (
    "name", "slug", "kind", "format", "feed_rule", "feed_rounds", "entry_round", "entry_fee", "reentry_fee",
    "length", "final_length", "round_lengths", "seeding", "separate_clubs", "clock_rule",
    "clock_seconds_per_point", "clock_delay_seconds", "rounds", "until_one_unbeaten", "auto_pair", "tiebreaks",
    "cut_size", "cycles", "group_size", "advance", "variant", "stakes", "dave_progression", "backward_hits",
    "head_doubles", "six_block", "team_kind", "team_size", "qualifying_ties",
    # the knockout options (tournaments.services.events.OPTION_FIELDS but the satellite's target, named below)
    "grand_final_reset", "third_place", "playoff_second", "seed_top_n", "max_reentries", "reentry_until_round",
    "pod_size",
)  # fmt: skip
#: Fees (set_fee_settings) and payouts (set_flight_payouts, set_payout_template) a template keeps.
FEE_FIELDS = ("member_fee", "junior_fee", "payment_required")
PAYOUT_FIELDS = ("payout_table", "house_percent", "house_fixed", "added_money", "payout_template")
#: Flights named by their short name: the source it is fed by, the flight a satellite awards an entry to.
LINK_FIELDS = ("source", "awards_entry_to")
#: Times of day, kept as days after the first day and the local time.
FLIGHT_TIMES = ("check_in_deadline", "reentry_deadline")
EVENT_FIELDS = ("is_public", "registration_open", "house_percent", "currency", "auto_call")


def _plain(value):
    """A value JSON keeps exactly: a Decimal as its text ("20.00")."""
    return str(value) if isinstance(value, Decimal) else value


def _time_of(moment, first_day: datetime.date) -> dict | None:
    if moment is None:
        return None
    local = timezone.localtime(moment)
    return {"days": (local.date() - first_day).days, "time": local.time().replace(microsecond=0).isoformat()}


def time_on(kept: dict | None, first_day: datetime.date):
    """A kept time of day on the new event's days (an aware datetime in the site's time zone), or None."""
    if not kept:
        return None
    day = first_day + datetime.timedelta(days=int(kept["days"]))
    moment = datetime.datetime.combine(day, datetime.time.fromisoformat(kept["time"]))
    return timezone.make_aware(moment)


def snapshot(event, flights) -> dict:
    """The setup of `event` and its `flights` (in their order) as a template keeps it: plain JSON."""
    slug_of = {flight.pk: flight.slug for flight in flights}
    rows = []
    for flight in flights:
        row = {name: _plain(getattr(flight, name)) for name in (*FLIGHT_FIELDS, *FEE_FIELDS, *PAYOUT_FIELDS)}
        row["club_payout_table"] = flight.club_payout_table_id
        for name in LINK_FIELDS:
            row[name] = slug_of.get(getattr(flight, f"{name}_id"))
        for name in FLIGHT_TIMES:
            row[name] = _time_of(getattr(flight, name), event.starts_on)
        rows.append(row)
    return {
        "version": VERSION,
        "event": {
            **{name: _plain(getattr(event, name)) for name in EVENT_FIELDS},
            "days": (event.ends_on - event.starts_on).days,
            "closes_at": _time_of(event.closes_at, event.starts_on),
        },
        "flights": rows,
    }


def flight_arguments(row: dict) -> dict:
    """add_flight's keyword arguments for a kept flight (its links, fees and payouts are set after all flights
    exist: a payout template or a satellite may name a later flight)."""
    return {name: row[name] for name in FLIGHT_FIELDS if name in row}


def payout_table_key(row: dict) -> str:
    """The table as set_flight_payouts takes it: a preset's key, "club-<id>" or "" for none."""
    return f"club-{row['club_payout_table']}" if row.get("club_payout_table") else row.get("payout_table", "")


def flight_count(setup: dict) -> int:
    return len(setup.get("flights", []))


def flight_names(setup: dict) -> list[str]:
    return [row.get("name", "") for row in setup.get("flights", [])]
