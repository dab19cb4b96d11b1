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
from games.matchplay.services.play import check_variant
from games.models.variants import DEFAULT_FORM
from tournaments.core.payouts import validate_template
from tournaments.core.standings import validate_order
from tournaments.models import (
    ClockRule,
    DrawStatus,
    Event,
    EventStatus,
    FeedRule,
    Flight,
    FlightFormat,
    FlightKind,
    Seeding,
    TeamKind,
)
from tournaments.services.common import event_changed, lock_flight

# The highest round a flight has (the round pages and the API answer 404 above it): a length set for a later
# round, or for round 0, could never apply and only bloats the flight's settings.
MAX_ROUND_NUMBER = 999


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
        taken = _("The club already has an event with this short name; choose another.")
        raise ValidationError({"slug": ValidationError(taken, code="conflict")})  # answered 409 (base.api)
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
    if fields.get("registration_open") and event.status == EventStatus.FINISHED:
        # The end of the event closed registration (progression); an entry now would join no draw.
        raise ValidationError({"registration_open": [_("The event is finished: it takes no more entries.")]})
    for name, value in fields.items():
        setattr(event, name, value)
    event.save(update_fields=list(fields))
    event_changed(event)
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
    format: str = FlightFormat.KNOCKOUT,  # noqa: A002 - the model field's name
    rounds: int | None = None,
    until_one_unbeaten: bool = False,
    auto_pair: bool = True,
    tiebreaks: list | None = None,
    cut_size: int | None = None,
    cycles: int = 1,
    group_size: int | None = None,
    advance: int | None = None,
    variant: str | None = None,
    stakes: str | None = None,
    dave_progression: str | None = None,
    backward_hits: str | None = None,
    head_doubles: str | None = None,
    six_block: str | None = None,
    team_kind: str = TeamKind.SINGLES,
    team_size: int | None = None,
    **options,
) -> Flight:
    """A flight of the event. Its variant and stakes (standard with the cube unless given) are the ones its
    matches are played in; a flight fed by another takes the source's unless given. `options`: the knockout
    options of OPTION_FIELDS (reset, third place, seeding the top N, re-entries, jackpot pod size, the flight a
    satellite awards an entry to), checked by `_check_options`. `team_kind`: singles, pairs (doubles,
    consultation; `team_size` 2) or teams (`team_size` boards), checked by `_check_team`."""
    access.require(actor, "event.direct", event)
    team_size = _check_team(team_kind, team_size, kind, source, format, options)
    _check_clock(clock_rule, clock_seconds_per_point, clock_delay_seconds)
    form = _variant_of(
        source,
        variant=variant,
        stakes=stakes,
        dave_progression=dave_progression,
        backward_hits=backward_hits,
        head_doubles=head_doubles,
        six_block=six_block,
    )
    if kind not in FlightKind.values:
        raise ValidationError(
            {"kind": [_("Choose main, consolation, last chance, double elimination, side pool or jackpot.")]}
        )
    if source is not None and source.event_id != event.pk:
        raise ValidationError({"source": [_("The source flight must belong to the same event.")]})
    unknown = set(options) - set(OPTION_FIELDS)
    if unknown:
        raise ValidationError({sorted(unknown)[0]: [_("This field cannot be changed here.")]})
    tiebreaks = _check_rounds(format, kind, rounds, until_one_unbeaten, tiebreaks, cut_size)
    check_robin_settings(format, cycles, group_size, advance)
    if feed_rule == FeedRule.CUT:
        _check_cut(kind, source)
    elif format != FlightFormat.KNOCKOUT and source is not None:
        raise ValidationError({"source": [_("A flight played in rounds has its own entries, no source.")]})
    elif kind in (FlightKind.MAIN, FlightKind.DOUBLE_ELIMINATION, FlightKind.JACKPOT):
        if source is not None:
            raise ValidationError(
                {"source": [_("A main, double-elimination or jackpot flight has its own draw, no source.")]}
            )
        feed_rule = FeedRule.DRAW
    else:
        if source is None:
            raise ValidationError({"source": [_("Say which flight feeds this one.")]})
        if source.kind in (FlightKind.SIDE_POOL, FlightKind.DOUBLE_ELIMINATION, FlightKind.JACKPOT):
            raise ValidationError(
                {"source": [_("A side pool, double elimination or jackpot cannot feed another flight.")]}
            )
        if kind == FlightKind.SIDE_POOL:
            feed_rule = FeedRule.POOL
        else:
            feed_rule = feed_rule or FeedRule.FIRST_PLAYED
            if feed_rule not in (FeedRule.FIRST_PLAYED, FeedRule.PROGRESSIVE, FeedRule.FRESH_DRAW):
                raise ValidationError({"feed_rule": [_("Choose first_played, progressive or fresh_draw.")]})
            if feed_rule == FeedRule.PROGRESSIVE and source.kind != FlightKind.MAIN:
                raise ValidationError({"feed_rule": [_("Only the main flight feeds a progressive consolation.")]})
            if feed_rule == FeedRule.PROGRESSIVE and source.third_place:
                message = _(
                    "%(source)s has a third-place match, which its semi-final losers play: feed this flight "
                    "first_played or fresh_draw, or switch the third-place match off."
                )
                raise ValidationError({"feed_rule": [message % {"source": source.name}]})
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
    if any(not 1 <= int(r) <= MAX_ROUND_NUMBER for r in round_lengths):
        raise ValidationError(
            {"round_lengths": [_("Rounds are numbered from 1 to %(max)d.") % {"max": MAX_ROUND_NUMBER}]}
        )
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
    draft = Flight(event=event, kind=kind, feed_rule=feed_rule, seeding=seeding, format=format, **options)
    _check_options(draft)
    return Flight.objects.create(
        **{name: getattr(draft, name) for name in OPTION_FIELDS},
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
        format=format,
        rounds=rounds,
        until_one_unbeaten=until_one_unbeaten,
        auto_pair=auto_pair,
        tiebreaks=tiebreaks,
        cut_size=cut_size,
        cycles=cycles,
        group_size=group_size,
        advance=advance,
        team_kind=team_kind,
        team_size=team_size,
        **form,
    )


def _check_team(team_kind, team_size, kind, source, format, options) -> int:  # noqa: A002
    """Who makes up an entry, refused with what would work. Returns the players per entry (a team's boards). A
    pair or team flight is a main or double-elimination flight with its own draw: the flights fed by another take
    single players (a loser's Entry is its captain alone), so none is fed by a pair or team flight, and a pair or
    team does not buy back in. A team event is not played in groups (the knockout they feed would be fed by it)."""
    if team_kind not in TeamKind.values:
        raise ValidationError({"team_kind": [_("Choose singles, doubles, consultation or team.")]})
    if team_kind == TeamKind.TEAM:
        if team_size is None or not 2 <= int(team_size) <= 9:
            raise ValidationError({"team_size": [_("A team plays on 2 to 9 boards: give the number of boards.")]})
        if format == FlightFormat.GROUPS:
            message = _("A team event is a knockout, a Swiss, a round robin or a triple elimination: choose one.")
            raise ValidationError({"format": [message]})
        size = int(team_size)
    else:
        size = 1 if team_kind == TeamKind.SINGLES else 2
        if team_size is not None and int(team_size) != size:
            message = _("A %(kind)s entry is %(size)s player(s): leave the number of players empty or give %(size)s.")
            raise ValidationError({"team_size": [message % {"kind": TeamKind(team_kind).label, "size": size}]})
    if source is not None and source.is_team_event:
        message = _("%(source)s is played by pairs or teams: only a singles flight feeds another flight.")
        raise ValidationError({"source": [message % {"source": source.name}]})
    if team_kind != TeamKind.SINGLES:
        if kind not in (FlightKind.MAIN, FlightKind.DOUBLE_ELIMINATION) or source is not None:
            message = _(
                "Pairs and teams play a main or double-elimination flight with its own draw: choose one of those."
            )
            raise ValidationError({"team_kind": [message]})
        if options.get("awards_entry_to") is not None:
            message = _("A pair or team flight awards no satellite entry: leave the satellite off.")
            raise ValidationError({"team_kind": [message]})
    target = options.get("awards_entry_to")
    if target is not None and target.is_team_event:
        message = _("%(flight)s is played by pairs or teams: a satellite awards an entry to a singles flight.")
        raise ValidationError({"awards_entry_to": [message % {"flight": target.name}]})
    return size


def _check_rounds(format, kind, rounds, until_one_unbeaten, tiebreaks, cut_size) -> list:  # noqa: A002
    """Impossible round-based settings, each refused with what would work. Returns the tie-break order."""
    if format not in FlightFormat.values:
        raise ValidationError({"format": [_("Choose knockout, swiss, round_robin, groups or triple_elimination.")]})
    if format == FlightFormat.KNOCKOUT:
        if rounds is not None or until_one_unbeaten or tiebreaks or cut_size is not None:
            raise ValidationError({"format": [_("Rounds, tie-breaks and a cut belong to a flight played in rounds.")]})
        return []
    if kind != FlightKind.MAIN:
        raise ValidationError({"kind": [_("A flight played in rounds is a main flight.")]})
    if rounds is not None and not 1 <= int(rounds) <= 99:
        raise ValidationError({"rounds": [_("Play between 1 and 99 rounds.")]})
    if format == FlightFormat.SWISS and rounds is None and not until_one_unbeaten:
        raise ValidationError({"rounds": [_("A Swiss needs a number of rounds (1 to 99) or “until one unbeaten”.")]})
    if format != FlightFormat.SWISS and (rounds is not None or until_one_unbeaten):
        raise ValidationError({"rounds": [_("Only a Swiss is set to a number of rounds or “until one unbeaten”.")]})
    if cut_size is not None and not 2 <= int(cut_size) <= 256:
        raise ValidationError({"cut_size": [_("Cut to between the top 2 and the top 256.")]})
    return list(validate_order(tiebreaks or []) if tiebreaks else [])


def check_robin_settings(format, cycles, group_size, advance) -> None:  # noqa: A002
    """Round robin and groups settings, each refused with what would work (the field's own size is checked at the
    first round, when the entries are known: tournaments.core.groups.check)."""
    if cycles not in (1, 2):
        raise ValidationError({"cycles": [_("Everyone meets once (1) or twice (2).")]})
    if cycles != 1 and format not in (FlightFormat.ROUND_ROBIN, FlightFormat.GROUPS):
        raise ValidationError({"cycles": [_("Only a round robin or groups are played twice over.")]})
    if format != FlightFormat.GROUPS:
        if group_size is not None or advance is not None:
            raise ValidationError({"group_size": [_("A group size and how many advance belong to groups.")]})
        return
    if group_size is None or not 2 <= int(group_size) <= 1024:
        raise ValidationError({"group_size": [_("Groups need a size from 2 to 1024 players, for example 4.")]})
    if advance is None or not 1 <= int(advance) < int(group_size):
        raise ValidationError(
            {"advance": [_("From 1 to %(most)s players of each group can advance.") % {"most": int(group_size) - 1}]}
        )


def _check_cut(kind, source) -> None:
    if (
        kind != FlightKind.MAIN
        or source is None
        or not source.is_round_based
        or not (source.cut_size or source.format == FlightFormat.GROUPS)
    ):
        raise ValidationError(
            {"source": [_("A cut is a main knockout fed by groups, or by a flight played in rounds with a cut size.")]}
        )
    if source.fed_flights.filter(feed_rule=FeedRule.CUT).exists():
        raise ValidationError({"source": [_("This flight already feeds its cut.")]})


def _variant_of(source: Flight | None, **given: str | None) -> dict[str, str]:
    """The variant, stakes, Dave progression and settings of a new flight: what was given, else the source
    flight's, else standard with the cube; checked by the match-play rule (Dave stakes only on the standard
    board, a setting only for its variant). A flight of another game than its source does not take the
    source's settings: they belong to the source's game."""
    variant = given["variant"] or (source.variant if source is not None else DEFAULT_FORM["variant"])
    inherit = source is not None and source.variant == variant
    form = {
        name: value if value is not None else (getattr(source, name) if inherit else DEFAULT_FORM[name])
        for name, value in given.items()
    }
    form["variant"] = variant
    form.update(check_variant(**form))
    return form


def _check_clock(rule: str, seconds_per_point: int, delay: int) -> None:
    if rule not in ClockRule.values:
        raise ValidationError({"clock_rule": [_("Choose required, preferred or none.")]})
    if not 10 <= int(seconds_per_point) <= 600:
        raise ValidationError({"clock_seconds_per_point": [_("Give between 10 and 600 seconds per point.")]})
    if not 0 <= int(delay) <= 60:
        raise ValidationError({"clock_delay_seconds": [_("Give a delay between 0 and 60 seconds.")]})


# The knockout options a flight is created with and may change later (the shape ones only before release).
OPTION_FIELDS = (
    "grand_final_reset",
    "third_place",
    "playoff_second",
    "seed_top_n",
    "max_reentries",
    "reentry_until_round",
    "pod_size",
    "awards_entry_to",
)
SHAPE_FIELDS = ("grand_final_reset", "third_place", "playoff_second", "seed_top_n", "pod_size")


def _check_options(flight: Flight) -> None:
    """Impossible combinations are refused with what would work instead."""
    if flight.grand_final_reset and flight.kind != FlightKind.DOUBLE_ELIMINATION:
        message = _("A grand-final reset belongs to a double elimination: choose that kind or leave the reset off.")
        raise ValidationError({"grand_final_reset": [message]})
    own_knockout = flight.feed_rule in (FeedRule.DRAW, FeedRule.FRESH_DRAW, FeedRule.POD)
    if flight.third_place and (flight.kind == FlightKind.DOUBLE_ELIMINATION or not own_knockout):
        message = _(
            "A third-place match belongs to a knockout with its own draw (a main, a jackpot or a fresh-draw "
            "flight): leave it off for this flight."
        )
        raise ValidationError({"third_place": [message]})
    if flight.playoff_second:
        knockout_main = flight.kind == FlightKind.MAIN and flight.format == FlightFormat.KNOCKOUT
        if not knockout_main or flight.feed_rule != FeedRule.DRAW:
            message = _(
                "A playoff for 2nd is played by a knockout main flight's finalist against its consolation's "
                "winner: switch it on for the main flight."
            )
            raise ValidationError({"playoff_second": [message]})
        if flight.third_place:
            message = _("A playoff for 2nd places 3rd itself: switch the third-place match off, or the playoff.")
            raise ValidationError({"playoff_second": [message]})
    if flight.seed_top_n is not None:
        if not 1 <= int(flight.seed_top_n) <= 4096:
            raise ValidationError({"seed_top_n": [_("Seed between 1 and 4096 players, or leave it empty.")]})
        if flight.seeding != Seeding.RATING:
            message = _("Seeding the top players needs seeding by rating: choose it, or leave the number empty.")
            raise ValidationError({"seed_top_n": [message]})
    if not 0 <= int(flight.max_reentries) <= 20:
        raise ValidationError({"max_reentries": [_("A player re-enters between 0 and 20 times.")]})
    if flight.reentry_until_round is not None and not 1 <= int(flight.reentry_until_round) <= 20:
        raise ValidationError({"reentry_until_round": [_("Re-entry closes at a round between 1 and 20.")]})
    is_jackpot = flight.kind == FlightKind.JACKPOT
    if is_jackpot != (flight.pod_size is not None) or (is_jackpot and flight.pod_size not in (4, 8, 16)):
        message = _("A jackpot has pods of 4, 8 or 16 players; other flights have no pod size.")
        raise ValidationError({"pod_size": [message]})
    target = flight.awards_entry_to
    if target is not None:
        if target.event_id != flight.event_id or target.pk == flight.pk:
            message = _("A satellite awards an entry to another flight of the same event.")
            raise ValidationError({"awards_entry_to": [message]})
        if target.feed_rule != FeedRule.DRAW or target.kind == FlightKind.JACKPOT:
            message = _("A satellite awards an entry to a flight players register for (a main or double elimination).")
            raise ValidationError({"awards_entry_to": [message]})


@transaction.atomic
def update_flight(*, actor, flight: Flight, **fields) -> Flight:
    """Change a flight's day-of settings: its check-in deadline, its clock, its re-entry limits and the knockout
    options. A deadline set after the draw changes nothing already drawn; it only decides who is drawn (again)
    from now on. Options that change the bracket's shape change only before the release."""
    access.require(actor, "event.direct", flight.event)
    flight = lock_flight(flight)
    allowed = {"check_in_deadline", "clock_rule", "clock_seconds_per_point", "clock_delay_seconds", *OPTION_FIELDS}
    unknown = set(fields) - allowed
    if unknown:
        raise ValidationError({sorted(unknown)[0]: [_("This field cannot be changed here.")]})
    shape = sorted(set(fields) & set(SHAPE_FIELDS))
    if shape and flight.draw_status in (DrawStatus.CONFIRMED, DrawStatus.RELEASED):
        message = _("The draw is confirmed: %(field)s changes only while the draw is a draft or not made.")
        raise Conflict(message % {"field": shape[0]}, code="draw_confirmed")
    for name, value in fields.items():
        setattr(flight, name, value)
    _check_clock(flight.clock_rule, flight.clock_seconds_per_point, flight.clock_delay_seconds)
    _check_options(flight)
    flight.save(update_fields=list(fields))
    return flight


@transaction.atomic
def set_payout_template(*, actor, flight: Flight, template: list) -> Flight:
    access.require(actor, "event.direct", flight.event)
    flight = lock_flight(flight)
    validate_template(template)
    slugs = set(flight.event.flights.values_list("slug", flat=True))
    for line in template:
        if line.get("flight") and line["flight"] not in slugs:
            message = _("No flight %(slug)s in this event.") % {"slug": line["flight"]}
            raise ValidationError({"payout_template": [message]})
    flight.payout_template = template
    flight.save(update_fields=["payout_template"])
    return flight
