"""Events and flights: what a director sets up before anyone registers."""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from base import numbers
from base.errors import Conflict, Invalid
from clubs import access
from clubs.models import Club
from games.matchplay.services.play import check_variant
from games.models.variants import DEFAULT_FORM
from tournaments.core.payouts import validate_template
from tournaments.formats import FORMATS, Settings, format_of
from tournaments.models import (
    ClockRule,
    DrawStatus,
    Event,
    EventStatus,
    FeedRule,
    Flight,
    FlightFormat,
    FlightKind,
    QualifyingTies,
    Seeding,
    TeamKind,
)
from tournaments.services import stages
from tournaments.services.common import event_changed, lock_flight
from tournaments.services.round_records import pairing_seed

# The highest round a flight has (the round pages and the API answer 404 above it): a length set for a later
# round, or for round 0, could never apply and only bloats the flight's settings.
MAX_ROUND_NUMBER = 999
REFUND_PERCENT_RANGE = gettext_lazy(
    "The refund on a withdrawal before the draw is a whole percent from 0 (none) to 100 (the whole fee)."
)


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
        raise Invalid(_("Give the event a name."), field="name")
    ends_on = ends_on or starts_on
    if ends_on < starts_on:
        raise Invalid(_("The event cannot end before it starts."), field="ends_on")
    house_percent = _house_percent(house_percent)
    slug = slugify(slug or name)[:60] or "event"
    if Event.objects.filter(club=club, slug=slug).exists():
        taken = _("The club already has an event with this short name; choose another.")
        raise Conflict(taken, code="conflict", field="slug")  # answered 409 (base.api)
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
        raise Invalid(_("The house percentage is between 0 and 100."), field="house_percent") from None


def _refund_percent(value) -> int:
    """What a withdrawal before the draw refunds of a paid fee: a whole percent from 0 to 100."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 100:
        raise Invalid(REFUND_PERCENT_RANGE, field="withdrawal_refund_percent")
    return value


@transaction.atomic
def update_event(*, actor, event: Event, **fields) -> Event:
    access.require(actor, "event.direct", event)
    allowed = {
        "name",
        "is_public",
        "registration_open",
        "house_percent",
        "ends_on",
        "closes_at",
        "withdrawal_refund_percent",
    }
    unknown = set(fields) - allowed
    if unknown:
        raise Invalid(_("This field cannot be changed here."), field=sorted(unknown)[0])
    if "house_percent" in fields:
        fields["house_percent"] = _house_percent(fields["house_percent"])
    if "withdrawal_refund_percent" in fields:
        fields["withdrawal_refund_percent"] = _refund_percent(fields["withdrawal_refund_percent"])
    if fields.get("registration_open") and event.status == EventStatus.FINISHED:
        # The end of the event closed registration (progression); an entry now would join no draw.
        raise Invalid(_("The event is finished: it takes no more entries."), field="registration_open")
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
    qualifying_ties: str = QualifyingTies.LOT,
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
        raise Invalid(
            _("Choose main, consolation, last chance, double elimination, side pool or jackpot."), field="kind"
        )
    if source is not None and source.event_id != event.pk:
        raise Invalid(_("The source flight must belong to the same event."), field="source")
    unknown = set(options) - set(OPTION_FIELDS)
    if unknown:
        raise Invalid(_("This field cannot be changed here."), field=sorted(unknown)[0])
    if format not in FORMATS:
        raise Invalid(_("Choose one of: %(formats)s.") % {"formats": ", ".join(FORMATS)}, field="format")
    tiebreaks = format_of(format).check(
        Settings(
            kind=kind,
            team_event=team_kind == TeamKind.TEAM,
            rounds=rounds,
            until_one_unbeaten=until_one_unbeaten,
            tiebreaks=list(tiebreaks or []),
            cut_size=cut_size,
            cycles=cycles,
            group_size=group_size,
            advance=advance,
        )
    )
    if cut_size is not None and team_kind != TeamKind.SINGLES:
        message = _("A cut's knockout is played by single players: leave the cut off for a pairs or team event.")
        raise Invalid(message, field="cut_size")
    if qualifying_ties not in QualifyingTies.values:
        raise Invalid(_("Choose lot or playoff."), field="qualifying_ties")
    if feed_rule == FeedRule.CUT:
        _check_cut(kind, source)
    elif format_of(format).round_based and source is not None:
        raise Invalid(_("A flight played in rounds has its own entries, no source."), field="source")
    elif kind in (FlightKind.MAIN, FlightKind.DOUBLE_ELIMINATION, FlightKind.JACKPOT):
        if source is not None:
            raise Invalid(
                _("A main, double-elimination or jackpot flight has its own draw, no source."), field="source"
            )
        feed_rule = FeedRule.DRAW
    else:
        if source is None:
            raise Invalid(_("Say which flight feeds this one."), field="source")
        if source.kind in (FlightKind.SIDE_POOL, FlightKind.DOUBLE_ELIMINATION, FlightKind.JACKPOT):
            raise Invalid(_("A side pool, double elimination or jackpot cannot feed another flight."), field="source")
        if kind == FlightKind.SIDE_POOL:
            feed_rule = FeedRule.POOL
        else:
            feed_rule = feed_rule or FeedRule.FIRST_PLAYED
            if feed_rule not in (FeedRule.FIRST_PLAYED, FeedRule.PROGRESSIVE, FeedRule.FRESH_DRAW):
                raise Invalid(_("Choose first_played, progressive or fresh_draw."), field="feed_rule")
            if feed_rule == FeedRule.PROGRESSIVE and source.kind != FlightKind.MAIN:
                raise Invalid(_("Only the main flight feeds a progressive consolation."), field="feed_rule")
            if feed_rule == FeedRule.PROGRESSIVE and source.third_place:
                message = _(
                    "%(source)s has a third-place match, which its semi-final losers play: feed this flight "
                    "first_played or fresh_draw, or switch the third-place match off."
                )
                raise Invalid(message % {"source": source.name}, field="feed_rule")
            fed = source.fed_flights.exclude(kind=FlightKind.SIDE_POOL).order_by("order", "id").first()
            if fed is not None:
                # The losers of a flight go to one place: name the flight that takes them and where to go instead.
                raise Invalid(
                    _(
                        "%(source)s already feeds %(fed)s: its losers go there. Feed this flight from "
                        "%(fed)s instead (its losers), or choose another flight as the source."
                    )
                    % {"source": source.name, "fed": fed.name},
                    field="source",
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
        raise Invalid(_("Feed rounds are between 1 and 12."), field="feed_rounds")
    for field_name, value in (("length", length), ("final_length", final_length)):
        if value is not None and not 1 <= int(value) <= 99:
            raise Invalid(_("A match length is between 1 and 99 points."), field=field_name)
    round_lengths = round_lengths or {}
    try:
        round_lengths = {str(int(r)): int(n) for r, n in round_lengths.items()}
    except (TypeError, ValueError, AttributeError):
        raise Invalid(_('Give lengths by round like {"3": 9}.'), field="round_lengths") from None
    if any(not 1 <= int(r) <= MAX_ROUND_NUMBER for r in round_lengths):
        raise Invalid(_("Rounds are numbered from 1 to %(max)d.") % {"max": MAX_ROUND_NUMBER}, field="round_lengths")
    if any(not 1 <= n <= 99 for n in round_lengths.values()):
        raise Invalid(_("A match length is between 1 and 99 points."), field="round_lengths")
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
        raise Invalid(_("The event already has a flight with this short name."), field="slug")
    draft = Flight(event=event, kind=kind, feed_rule=feed_rule, seeding=seeding, format=format, **options)
    _check_options(draft)
    created = Flight.objects.create(
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
        qualifying_ties=qualifying_ties,
        **form,
    )
    if feed_rule == FeedRule.CUT:
        stages.cut_added(created, actor=actor)
    elif format_of(created).feeds_cut(created):
        _add_cut(created, actor=actor)
    return created


def _add_cut(stage: Flight, *, actor) -> Flight:
    """The knockout a stage feeds, made with the stage so its page names it from the start ("then the top 4 play
    a knockout") and the stage's end fills and draws it (tournaments.services.stages). Its matches are played
    as the stage's; the director may rename it or add another cut instead while it is empty."""
    name = (
        _("%(stage)s: top %(n)s") % {"stage": stage.name, "n": stage.cut_size}
        if stage.cut_size
        else _("%(stage)s: knockout") % {"stage": stage.name}
    )
    slug = f"{stage.slug[:34]}-cut"
    taken = set(stage.event.flights.values_list("slug", flat=True))
    number = 2
    while slug in taken:
        slug, number = f"{stage.slug[:31]}-cut{number}", number + 1
    return add_flight(
        actor=actor,
        event=stage.event,
        name=name[:80],
        slug=slug,
        source=stage,
        feed_rule=FeedRule.CUT,
        length=stage.length,
        payout_template=[],
    )


def _check_team(team_kind, team_size, kind, source, format, options) -> int:  # noqa: A002
    """Who makes up an entry, refused with what would work. Returns the players per entry (a team's boards). A
    pair or team flight is a main or double-elimination flight with its own draw: the flights fed by another take
    single players (a loser's Entry is its captain alone), so none is fed by a pair or team flight, and a pair or
    team does not buy back in. A team event is not played in groups (the knockout they feed would be fed by it)."""
    if team_kind not in TeamKind.values:
        raise Invalid(_("Choose singles, doubles, consultation or team."), field="team_kind")
    if team_kind == TeamKind.TEAM:
        if team_size is None or not 2 <= int(team_size) <= 9:
            raise Invalid(_("A team plays on 2 to 9 boards: give the number of boards."), field="team_size")
        size = int(team_size)
    else:
        size = 1 if team_kind == TeamKind.SINGLES else 2
        if team_size is not None and int(team_size) != size:
            message = _("A %(kind)s entry is %(size)s player(s): leave the number of players empty or give %(size)s.")
            raise Invalid(message % {"kind": TeamKind(team_kind).label, "size": size}, field="team_size")
    if source is not None and source.is_team_event:
        message = _("%(source)s is played by pairs or teams: only a singles flight feeds another flight.")
        raise Invalid(message % {"source": source.name}, field="source")
    if team_kind != TeamKind.SINGLES:
        if kind not in (FlightKind.MAIN, FlightKind.DOUBLE_ELIMINATION) or source is not None:
            message = _(
                "Pairs and teams play a main or double-elimination flight with its own draw: choose one of those."
            )
            raise Invalid(message, field="team_kind")
        if options.get("awards_entry_to") is not None:
            message = _("A pair or team flight awards no satellite entry: leave the satellite off.")
            raise Invalid(message, field="team_kind")
    target = options.get("awards_entry_to")
    if target is not None and target.is_team_event:
        message = _("%(flight)s is played by pairs or teams: a satellite awards an entry to a singles flight.")
        raise Invalid(message % {"flight": target.name}, field="awards_entry_to")
    return size


def _check_cut(kind, source) -> None:
    if (
        kind != FlightKind.MAIN
        or source is None
        or not source.is_round_based
        or not format_of(source).feeds_cut(source)
    ):
        raise Invalid(
            _("A cut is a main knockout fed by groups, or by a flight played in rounds with a cut size."),
            field="source",
        )
    started = source.fed_flights.filter(feed_rule=FeedRule.CUT).exclude(draw_status=DrawStatus.NONE, entries=None)
    if started.exists():
        message = _("This flight's cut %(cut)s is filled already: it is played as drawn.")
        raise Invalid(message % {"cut": started.first().name}, field="source")


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
        raise Invalid(_("Choose required, preferred or none."), field="clock_rule")
    if not 10 <= int(seconds_per_point) <= 600:
        raise Invalid(_("Give between 10 and 600 seconds per point."), field="clock_seconds_per_point")
    if not 0 <= int(delay) <= 60:
        raise Invalid(_("Give a delay between 0 and 60 seconds."), field="clock_delay_seconds")


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
        raise Invalid(message, field="grand_final_reset")
    own_knockout = flight.feed_rule in (FeedRule.DRAW, FeedRule.FRESH_DRAW, FeedRule.POD)
    if flight.third_place and (flight.kind == FlightKind.DOUBLE_ELIMINATION or not own_knockout):
        message = _(
            "A third-place match belongs to a knockout with its own draw (a main, a jackpot or a fresh-draw "
            "flight): leave it off for this flight."
        )
        raise Invalid(message, field="third_place")
    if flight.playoff_second:
        knockout_main = flight.kind == FlightKind.MAIN and not flight.is_round_based
        if not knockout_main or flight.feed_rule != FeedRule.DRAW:
            message = _(
                "A playoff for 2nd is played by a knockout main flight's finalist against its consolation's "
                "winner: switch it on for the main flight."
            )
            raise Invalid(message, field="playoff_second")
        if flight.third_place:
            message = _("A playoff for 2nd places 3rd itself: switch the third-place match off, or the playoff.")
            raise Invalid(message, field="playoff_second")
    if flight.seed_top_n is not None:
        if not 1 <= int(flight.seed_top_n) <= 4096:
            raise Invalid(_("Seed between 1 and 4096 players, or leave it empty."), field="seed_top_n")
        if flight.seeding != Seeding.RATING:
            message = _("Seeding the top players needs seeding by rating: choose it, or leave the number empty.")
            raise Invalid(message, field="seed_top_n")
    if not 0 <= int(flight.max_reentries) <= 20:
        raise Invalid(_("A player re-enters between 0 and 20 times."), field="max_reentries")
    if flight.reentry_until_round is not None and not 1 <= int(flight.reentry_until_round) <= 20:
        raise Invalid(_("Re-entry closes at a round between 1 and 20."), field="reentry_until_round")
    is_jackpot = flight.kind == FlightKind.JACKPOT
    if is_jackpot != (flight.pod_size is not None) or (is_jackpot and flight.pod_size not in (4, 8, 16)):
        message = _("A jackpot has pods of 4, 8 or 16 players; other flights have no pod size.")
        raise Invalid(message, field="pod_size")
    target = flight.awards_entry_to
    if target is not None:
        if target.event_id != flight.event_id or target.pk == flight.pk:
            message = _("A satellite awards an entry to another flight of the same event.")
            raise Invalid(message, field="awards_entry_to")
        if target.feed_rule != FeedRule.DRAW or target.kind == FlightKind.JACKPOT:
            message = _("A satellite awards an entry to a flight players register for (a main or double elimination).")
            raise Invalid(message, field="awards_entry_to")


@transaction.atomic
def update_flight(*, actor, flight: Flight, **fields) -> Flight:
    """Change a flight's day-of settings: its check-in deadline, its clock, its re-entry limits and the knockout
    options. A deadline set after the draw changes nothing already drawn; it only decides who is drawn (again)
    from now on. Options that change the bracket's shape change only before the release."""
    access.require(actor, "event.direct", flight.event)
    flight = lock_flight(flight)
    allowed = {"check_in_deadline", "clock_rule", "clock_seconds_per_point", "clock_delay_seconds", *OPTION_FIELDS}
    unknown = set(fields) - allowed - {"pairing_seed"}
    if unknown:
        raise Invalid(_("This field cannot be changed here."), field=sorted(unknown)[0])
    if "pairing_seed" in fields:  # a flight in rounds' random_seed, before round 1 only
        fields["random_seed"] = pairing_seed(flight, fields.pop("pairing_seed"))
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
            raise Invalid(message, field="payout_template")
    flight.payout_template = template
    flight.save(update_fields=["payout_template"])
    return flight
