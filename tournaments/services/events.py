"""Events and flights: what a director sets up before anyone registers."""

from __future__ import annotations

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from base import numbers
from base.api import Conflict
from clubs import access
from clubs.models import Club
from tournaments.core.payouts import validate_template
from tournaments.models import ClockRule, DrawStatus, Event, FeedRule, Flight, FlightKind, Seeding
from tournaments.services.common import lock_flight


@transaction.atomic
def create_event(
    *,
    actor,
    club: Club,
    name: str,
    starts_on,
    ends_on=None,
    slug: str = "",
    is_public: bool = True,
    registration_open: bool = True,
    house_percent: Decimal = Decimal("0"),
    currency: str = "EUR",
) -> Event:
    access.require(actor, "event.create", club)
    if not name.strip():
        raise ValidationError({"name": [_("Give the event a name.")]})
    ends_on = ends_on or starts_on
    if ends_on < starts_on:
        raise ValidationError({"ends_on": [_("The event cannot end before it starts.")]})
    house_percent = _house_percent(house_percent)
    slug = slugify(slug or name)[:60] or "event"
    if Event.objects.filter(club=club, slug=slug).exists():
        raise ValidationError({"slug": [_("The club already has an event with this short name; choose another.")]})
    event = Event.objects.create(
        club=club,
        name=name.strip(),
        slug=slug,
        starts_on=starts_on,
        ends_on=ends_on,
        is_public=is_public,
        registration_open=registration_open,
        house_percent=house_percent,
        currency=currency,
    )
    event.directors.add(actor)
    return event


def _house_percent(value) -> Decimal:
    """The house percentage parsed with the shared bounds (services may be called with text, not only forms)."""
    try:
        return numbers.parse_decimal(value, max_digits=5, decimal_places=2, min_value=0, max_value=100)
    except numbers.NumberError:
        raise ValidationError({"house_percent": [_("The house percentage is between 0 and 100.")]}) from None


@transaction.atomic
def update_event(*, actor, event: Event, **fields) -> Event:
    access.require(actor, "event.direct", event)
    allowed = {"name", "is_public", "registration_open", "house_percent", "ends_on", "closes_at"}
    unknown = set(fields) - allowed
    if unknown:
        raise ValidationError({sorted(unknown)[0]: [_("This field cannot be changed here.")]})
    if "house_percent" in fields:
        fields["house_percent"] = _house_percent(fields["house_percent"])
    for name, value in fields.items():
        setattr(event, name, value)
    event.save(update_fields=list(fields))
    return event


@transaction.atomic
def add_director(*, actor, event: Event, user) -> None:
    access.require(actor, "event.direct", event)
    event.directors.add(user)


@transaction.atomic
def add_flight(
    *,
    actor,
    event: Event,
    name: str,
    kind: str = FlightKind.MAIN,
    slug: str = "",
    source: Flight | None = None,
    feed_rule: str | None = None,
    feed_rounds: int = 1,
    entry_round: int = 1,
    entry_fee: Decimal = Decimal("0"),
    reentry_fee: Decimal | None = None,
    reentry_deadline=None,
    length: int = 7,
    final_length: int | None = None,
    round_lengths: dict | None = None,
    seeding: str = Seeding.RANDOM,
    separate_clubs: bool = False,
    payout_template: list | None = None,
    check_in_deadline=None,
    clock_rule: str = ClockRule.NONE,
    clock_seconds_per_point: int = 120,
    clock_delay_seconds: int = 12,
) -> Flight:
    access.require(actor, "event.direct", event)
    _check_clock(clock_rule, clock_seconds_per_point, clock_delay_seconds)
    if kind not in FlightKind.values:
        raise ValidationError({"kind": [_("Choose main, consolation, last chance, double elimination or side pool.")]})
    if source is not None and source.event_id != event.pk:
        raise ValidationError({"source": [_("The source flight must belong to the same event.")]})
    if kind in (FlightKind.MAIN, FlightKind.DOUBLE_ELIMINATION):
        if source is not None:
            raise ValidationError({"source": [_("A main or double-elimination flight has its own draw, no source.")]})
        feed_rule = FeedRule.DRAW
    else:
        if source is None:
            raise ValidationError({"source": [_("Say which flight feeds this one.")]})
        if source.kind in (FlightKind.SIDE_POOL, FlightKind.DOUBLE_ELIMINATION):
            raise ValidationError({"source": [_("A side pool or double elimination cannot feed another flight.")]})
        if kind == FlightKind.SIDE_POOL:
            feed_rule = FeedRule.POOL
        else:
            feed_rule = feed_rule or FeedRule.FIRST_PLAYED
            if feed_rule not in (FeedRule.FIRST_PLAYED, FeedRule.PROGRESSIVE, FeedRule.FRESH_DRAW):
                raise ValidationError({"feed_rule": [_("Choose first_played, progressive or fresh_draw.")]})
            if feed_rule == FeedRule.PROGRESSIVE and source.kind != FlightKind.MAIN:
                raise ValidationError({"feed_rule": [_("Only the main flight feeds a progressive consolation.")]})
            fed = source.fed_flights.exclude(kind=FlightKind.SIDE_POOL).order_by("order", "id").first()
            if fed is not None:
                # The losers of a flight go to one place: name the flight that takes them and where to go instead.
                raise ValidationError(
                    {
                        "source": [
                            _(
                                "%(source)s already feeds %(fed)s: its losers go there. Feed this flight from "
                                "%(fed)s instead (its losers), or choose another flight as the source."
                            )
                            % {"source": source.name, "fed": fed.name}
                        ]
                    }
                )
            if source.draw_status != DrawStatus.NONE:
                raise Conflict(
                    _(
                        "%(source)s is drawn already: the flights its losers go to are added before its draw. "
                        "Feed this flight from a flight not drawn yet."
                    )
                    % {"source": source.name},
                    code="source_drawn",
                )
    if not 1 <= int(feed_rounds) <= 12:
        raise ValidationError({"feed_rounds": [_("Feed rounds are between 1 and 12.")]})
    for field_name, value in (("length", length), ("final_length", final_length)):
        if value is not None and not 1 <= int(value) <= 99:
            raise ValidationError({field_name: [_("A match length is between 1 and 99 points.")]})
    round_lengths = round_lengths or {}
    try:
        round_lengths = {str(int(r)): int(n) for r, n in round_lengths.items()}
    except (TypeError, ValueError, AttributeError):
        raise ValidationError({"round_lengths": [_('Give lengths by round like {"3": 9}.')]}) from None
    if any(not 1 <= n <= 99 for n in round_lengths.values()):
        raise ValidationError({"round_lengths": [_("A match length is between 1 and 99 points.")]})
    for field_name, fee in (("entry_fee", entry_fee), ("reentry_fee", reentry_fee)):
        if fee is not None:
            try:
                numbers.parse_decimal(fee, max_digits=9, decimal_places=2, min_value=0)
            except numbers.NumberError as error:
                error.field = field_name  # the refusal names the fee it is about; its code and text stay
                raise
    payout_template = payout_template or []
    validate_template(payout_template)
    slug = slugify(slug or name)[:40] or kind
    if event.flights.filter(slug=slug).exists():
        raise ValidationError({"slug": [_("The event already has a flight with this short name.")]})
    return Flight.objects.create(
        event=event,
        name=name.strip() or FlightKind(kind).label,
        slug=slug,
        kind=kind,
        order=event.flights.count(),
        source=source,
        feed_rule=feed_rule,
        feed_rounds=feed_rounds,
        entry_round=entry_round,
        entry_fee=entry_fee,
        reentry_fee=reentry_fee,
        reentry_deadline=reentry_deadline,
        length=length,
        final_length=final_length,
        round_lengths=round_lengths,
        seeding=seeding,
        separate_clubs=separate_clubs,
        payout_template=payout_template,
        check_in_deadline=check_in_deadline,
        clock_rule=clock_rule,
        clock_seconds_per_point=clock_seconds_per_point,
        clock_delay_seconds=clock_delay_seconds,
    )


def _check_clock(rule: str, seconds_per_point: int, delay: int) -> None:
    if rule not in ClockRule.values:
        raise ValidationError({"clock_rule": [_("Choose required, preferred or none.")]})
    if not 10 <= int(seconds_per_point) <= 600:
        raise ValidationError({"clock_seconds_per_point": [_("Give between 10 and 600 seconds per point.")]})
    if not 0 <= int(delay) <= 60:
        raise ValidationError({"clock_delay_seconds": [_("Give a delay between 0 and 60 seconds.")]})


@transaction.atomic
def update_flight(*, actor, flight: Flight, **fields) -> Flight:
    """Change a flight's day-of settings: its check-in deadline and its clock. A deadline set after the draw
    changes nothing already drawn; it only decides who is drawn (again) from now on."""
    flight = lock_flight(flight)
    access.require(actor, "event.direct", flight.event)
    allowed = {"check_in_deadline", "clock_rule", "clock_seconds_per_point", "clock_delay_seconds"}
    unknown = set(fields) - allowed
    if unknown:
        raise ValidationError({sorted(unknown)[0]: [_("This field cannot be changed here.")]})
    for name, value in fields.items():
        setattr(flight, name, value)
    _check_clock(flight.clock_rule, flight.clock_seconds_per_point, flight.clock_delay_seconds)
    flight.save(update_fields=list(fields))
    return flight


@transaction.atomic
def set_payout_template(*, actor, flight: Flight, template: list) -> Flight:
    access.require(actor, "event.direct", flight.event)
    validate_template(template)
    slugs = set(flight.event.flights.values_list("slug", flat=True))
    for line in template:
        if line.get("flight") and line["flight"] not in slugs:
            message = _("No flight %(slug)s in this event.") % {"slug": line["flight"]}
            raise ValidationError({"payout_template": [message]})
    flight.payout_template = template
    flight.save(update_fields=["payout_template"])
    return flight
