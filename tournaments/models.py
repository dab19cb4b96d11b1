"""Events, their flights, entries and the bracket slots that link entries to games.models.Match rows.

The bracket's shape is not stored: it follows from the flight's kind, feed rule and size through the pure
core (tournaments.core.layout), so a slot only records who sits on each side and what came of it. Places are
stored on the entry the moment it is eliminated, so reading a flight's standings is one query.
"""

from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from base.models import SettleUp
from base.settle_up import Reminder
from clubs import selectors as club_selectors
from clubs.models import Club, Player
from games.models.variants import VariantFields, variant_constraints
from tournaments.core.groups import label as group_label
from tournaments.format_registry import FORMATS


class EventStatus(models.TextChoices):
    PLANNED = "planned", _("Planned")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")


class FlightKind(models.TextChoices):
    MAIN = "main", _("Main")
    CONSOLATION = "consolation", _("Consolation")
    LAST_CHANCE = "last_chance", _("Last chance")
    DOUBLE_ELIMINATION = "double_elimination", _("Double elimination")
    SIDE_POOL = "side_pool", _("Side pool")
    JACKPOT = "jackpot", _("Jackpot")


class FlightFormat(models.TextChoices):
    """How a flight's matches are made: a knockout bracket (Slot rows) or rounds of pairings (Pairing rows)."""

    KNOCKOUT = "knockout", _("Knockout")
    SWISS = "swiss", _("Swiss")
    ROUND_ROBIN = "round_robin", _("Round robin")
    GROUPS = "groups", _("Groups, then knockout")
    TRIPLE_ELIMINATION = "triple_elimination", _("Triple elimination (modified Swiss)")


class FeedRule(models.TextChoices):
    """How a flight gets its entrants."""

    DRAW = "draw", _("Own draw of registered entries")
    FIRST_PLAYED = "first_played", _("Losers of each player's first played match (linked)")
    PROGRESSIVE = "progressive", _("Losers of the source's rounds 1..k (progressive)")
    FRESH_DRAW = "fresh_draw", _("Losers of each player's first played match (fresh draw)")
    POOL = "pool", _("Side pool on the source flight")
    POD = "pod", _("A pod of a jackpot's waiting list")
    CUT = "cut", _("Top of the source's standings (a cut)")


class Seeding(models.TextChoices):
    RANDOM = "random", _("Random")
    RATING = "rating", _("Seeded by rating")


class TeamKind(models.TextChoices):
    """Who makes up one entry: one player, a pair playing one match together (doubles: the partners alternate
    the games; consultation: they confer on every move), or a team playing several boards at once."""

    SINGLES = "singles", _("Singles")
    DOUBLES = "doubles", _("Doubles")
    CONSULTATION = "consultation", _("Consultation")
    TEAM = "team", _("Team")


class DrawStatus(models.TextChoices):
    NONE = "none", _("Not drawn")
    DRAFT = "draft", _("Draft")
    CONFIRMED = "confirmed", _("Confirmed")
    RELEASED = "released", _("Released")


class ClockRule(models.TextChoices):
    """Whether a flight's matches are played with a clock."""

    NONE = "none", _("No clock")
    PREFERRED = "preferred", _("Clock preferred")
    REQUIRED = "required", _("Clock required")


class QualifyingTies(models.TextChoices):
    """How players equal on every criterion across a stage's qualifying line are separated: never silently."""

    LOT = "lot", _("A lot drawn by the director")
    PLAYOFF = "playoff", _("A playoff match (two players for one place; otherwise a lot)")


class FlightStatus(models.TextChoices):
    OPEN = "open", _("Open")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")


class Event(models.Model):
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="events")
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("short name"), max_length=60)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))
    directors = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="directed_events")
    is_public = models.BooleanField(_("public"), default=True)
    registration_open = models.BooleanField(_("registration open"), default=True)
    status = models.CharField(_("status"), max_length=16, choices=EventStatus.choices, default=EventStatus.PLANNED)
    house_percent = models.DecimalField(
        _("house percentage"),
        max_digits=5,
        decimal_places=2,
        default=Decimal("0"),
        validators=[MinValueValidator(0), MaxValueValidator(100)],
        help_text=_("Share of every pool the house keeps, 0 to 100."),
    )
    currency = models.CharField(_("currency"), max_length=3, default="EUR")
    auto_call = models.BooleanField(
        _("call matches automatically"),
        default=False,
        help_text=_("Call the longest-waiting match to the next free board whenever a board or a player frees up."),
    )
    call_grace_minutes = models.PositiveSmallIntegerField(
        _("grace period (minutes)"),
        default=5,
        help_text=_("Minutes after a call before lateness penalty points are shown to the director."),
    )
    closes_at = models.DateTimeField(
        _("closing time"), null=True, blank=True, help_text=_("When the venue closes: play must end by then.")
    )
    # A cap on the players across the event's flights (empty: none; tournaments.services.waiting, "event cap"):
    # a sign-up past it joins its flight's waiting list, and a place freed anywhere in the event is offered to
    # the earliest waiting player of a flight with room. Counted: the entries of the flights players sign up for
    # (not a jackpot, a side pool, a fed flight or a re-entry), so one player entered in two such flights counts
    # twice, and an open offer holds its place.
    cap = models.PositiveIntegerField(
        _("event cap"),
        null=True,
        blank=True,
        help_text=_(
            "At most this many entries across the event's flights; more join the waiting lists. A player entered "
            "in two flights counts twice; jackpots, side pools, consolation flights fed by another flight and "
            "re-entries do not count."
        ),
    )
    # What a withdrawal before the draw gives back of a paid fee (tournaments.services.entries): the entry is kept
    # with its payment lines and the club keeps the rest of the fee (Entry.kept_fee).
    withdrawal_refund_percent = models.PositiveSmallIntegerField(
        _("refund on withdrawal before the draw (%)"),
        default=100,
        help_text=_(
            "How much of a paid entry fee a player who withdraws before the draw gets back: 100 refunds it all, "
            "0 nothing."
        ),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="event_unique_slug_per_club"),
            models.CheckConstraint(condition=Q(ends_on__gte=F("starts_on")), name="event_ends_after_start"),
            models.CheckConstraint(
                condition=Q(house_percent__gte=0) & Q(house_percent__lte=100), name="event_house_percent_range"
            ),
            models.CheckConstraint(condition=Q(status__in=EventStatus.values), name="event_status_known"),
            models.CheckConstraint(condition=Q(cap__isnull=True) | Q(cap__gt=0), name="event_cap_positive"),
            models.CheckConstraint(
                condition=Q(withdrawal_refund_percent__gte=0) & Q(withdrawal_refund_percent__lte=100),
                name="event_withdrawal_refund_percent_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:event-detail", kwargs={"club": self.club.slug, "slug": self.slug})

    def user_is_director(self, user) -> bool:
        """The event's directors, the club's directors and admins, and superusers."""
        if not getattr(user, "is_authenticated", False):
            return False
        if user.is_superuser:
            return True
        if self.directors.filter(pk=user.pk).exists():
            return True
        return club_selectors.is_club_director(user=user, club=self.club)


class Flight(VariantFields):  # the variant and stakes its matches are played in
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="flights")
    kind = models.CharField(_("kind"), max_length=20, choices=FlightKind.choices, default=FlightKind.MAIN)
    format = models.CharField(_("format"), max_length=20, choices=FlightFormat.choices, default=FlightFormat.KNOCKOUT)
    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(_("short name"), max_length=40)
    order = models.PositiveSmallIntegerField(default=0)
    source = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="fed_flights",
        help_text=_("The flight whose losers (or players) this flight takes."),
    )
    feed_rule = models.CharField(_("feed rule"), max_length=16, choices=FeedRule.choices, default=FeedRule.DRAW)
    feed_rounds = models.PositiveSmallIntegerField(
        _("feed rounds"), default=1, help_text=_("Progressive consolation: losers of the source's rounds 1..k.")
    )
    entry_round = models.PositiveSmallIntegerField(
        _("entry round"), default=1, help_text=_("Side pool: players still in the source flight at this round join.")
    )
    entry_fee = models.DecimalField(_("entry fee"), max_digits=9, decimal_places=2, default=Decimal("0"))
    reentry_fee = models.DecimalField(_("re-entry fee"), max_digits=9, decimal_places=2, null=True, blank=True)
    reentry_deadline = models.DateTimeField(_("re-entry deadline"), null=True, blank=True)
    length = models.PositiveSmallIntegerField(_("match length"), default=7)
    final_length = models.PositiveSmallIntegerField(_("final length"), null=True, blank=True)
    round_lengths = models.JSONField(
        _("lengths by round"), default=dict, blank=True, help_text=_('E.g. {"3": 9}: round 3 is played to 9.')
    )
    seeding = models.CharField(_("seeding"), max_length=8, choices=Seeding.choices, default=Seeding.RANDOM)
    separate_clubs = models.BooleanField(_("keep players of one club apart in round 1"), default=False)
    draw_status = models.CharField(max_length=12, choices=DrawStatus.choices, default=DrawStatus.NONE)
    random_seed = models.BigIntegerField(null=True, blank=True, help_text=_("Reproduces the draw."))
    size = models.PositiveIntegerField(null=True, blank=True, help_text=_("Bracket size (a power of two)."))
    status = models.CharField(max_length=12, choices=FlightStatus.choices, default=FlightStatus.OPEN)
    payout_template = models.JSONField(
        _("payout template"),
        default=list,
        blank=True,
        help_text=_('Shares of this flight\'s pool: [{"flight": "main", "place": 1, "percent": 50}, ...].'),
    )
    # A payout table that grows with the field (tournaments.core.payout_tables): a preset's key, or a club's own
    # table; with neither, the fixed payout_template above shares the pool.
    payout_table = models.CharField(_("payout table"), max_length=20, blank=True)
    club_payout_table = models.ForeignKey(
        "ClubPayoutTable",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="flights",
        verbose_name=_("club's payout table"),
    )
    house_percent = models.DecimalField(
        _("house percentage"),
        max_digits=5,
        decimal_places=2,
        null=True,
        blank=True,
        help_text=_("Share of this flight's fees the house keeps; empty: the event's."),
    )
    house_fixed = models.DecimalField(_("house take per entry"), max_digits=9, decimal_places=2, default=Decimal("0"))
    added_money = models.DecimalField(_("added money"), max_digits=9, decimal_places=2, default=Decimal("0"))
    # Fees: what a member of the club or a junior pays instead of the entry fee (empty: the entry fee), and whether
    # an entry must be paid (or waived) to go into the draw.
    member_fee = models.DecimalField(_("members' fee"), max_digits=9, decimal_places=2, null=True, blank=True)
    junior_fee = models.DecimalField(_("juniors' fee"), max_digits=9, decimal_places=2, null=True, blank=True)
    payment_required = models.BooleanField(
        _("payment required before the draw"),
        default=False,
        help_text=_("The draw leaves out the entries not paid or waived."),
    )
    check_in_deadline = models.DateTimeField(
        _("check-in deadline"),
        null=True,
        blank=True,
        help_text=_("When set, the draw takes only the players who have checked in."),
    )
    clock_rule = models.CharField(_("clock"), max_length=10, choices=ClockRule.choices, default=ClockRule.NONE)
    clock_seconds_per_point = models.PositiveSmallIntegerField(
        _("clock seconds per point"), default=120, help_text=_("Time on each clock per point of match length.")
    )
    clock_delay_seconds = models.PositiveSmallIntegerField(_("clock delay (seconds)"), default=12)
    rounds = models.PositiveSmallIntegerField(
        _("rounds"),
        null=True,
        blank=True,
        help_text=_("Swiss: the number of rounds; empty with “until one unbeaten”."),
    )
    until_one_unbeaten = models.BooleanField(
        _("until one unbeaten"), default=False, help_text=_("Swiss: pair rounds until one player has not lost.")
    )
    current_round = models.PositiveSmallIntegerField(_("current round"), default=0)
    auto_pair = models.BooleanField(
        _("pair the next round automatically"),
        default=True,
        help_text=_("Pair the next round as soon as the last result of a round is in; otherwise the director does."),
    )
    tiebreaks = models.JSONField(
        _("tie-break order"),
        default=list,
        blank=True,
        help_text=_('E.g. ["wins", "buchholz", "median_buchholz", "sonneborn_berger", "head_to_head"].'),
    )
    cut_size = models.PositiveSmallIntegerField(
        _("cut to the top"),
        null=True,
        blank=True,
        help_text=_("The top N of the standings go on to the knockout flight fed by this one."),
    )
    # Round robin and groups (tournaments/core/roundrobin.py, groups.py).
    cycles = models.PositiveSmallIntegerField(
        _("cycles"), default=1, help_text=_("Round robin and groups: everyone meets once (1) or twice (2).")
    )
    group_size = models.PositiveSmallIntegerField(
        _("group size"), null=True, blank=True, help_text=_("Groups: the largest group; sizes differ by one at most.")
    )
    advance = models.PositiveSmallIntegerField(
        _("advance per group"), null=True, blank=True, help_text=_("Groups: how many of each group reach the knockout.")
    )
    drawn_at = models.DateTimeField(null=True, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    released_at = models.DateTimeField(null=True, blank=True)
    # --- knockout options, re-entry, jackpots and satellites (docs/tournaments.md "Knockout options") ---
    grand_final_reset = models.BooleanField(
        _("grand-final reset"),
        default=False,
        help_text=_("Double elimination: the winners' finalist must be beaten twice (a second final)."),
    )
    third_place = models.BooleanField(_("third-place match"), default=False)
    playoff_second = models.BooleanField(
        _("playoff for 2nd"),
        default=False,
        help_text=_("Knockout main: its final's loser plays the consolation's winner for 2nd place."),
    )
    seed_top_n = models.PositiveSmallIntegerField(
        _("seed the top"), null=True, blank=True, help_text=_("Seeded draw: only the best N by rating are seeded.")
    )
    max_reentries = models.PositiveSmallIntegerField(
        _("re-entries per player"), default=1, help_text=_("How many times one player may buy back in.")
    )
    reentry_until_round = models.PositiveSmallIntegerField(
        _("re-entry until round"),
        null=True,
        blank=True,
        help_text=_("Re-entry stays open until a match of this round has started."),
    )
    pod_size = models.PositiveSmallIntegerField(
        _("pod size"), null=True, blank=True, help_text=_("Jackpot: a pod of 4, 8 or 16 starts when this many wait.")
    )
    awards_entry_to = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="satellites",
        help_text=_("Satellite: the winner gets a free entry to this flight."),
    )
    # Doubles, consultation and team events (docs/tournaments.md "Doubles, consultation and teams"): an entry is
    # `team_size` players; the bracket and the rounds still work with entries (the captain is Entry.player).
    team_kind = models.CharField(_("entries are"), max_length=12, choices=TeamKind.choices, default=TeamKind.SINGLES)
    team_size = models.PositiveSmallIntegerField(
        _("players per entry"),
        default=1,
        help_text=_("1 for singles, 2 for doubles and consultation, a team's boards."),
    )
    # A cap on the entries (empty: none): sign-ups past it join the waiting list (WaitingSpot), whose next player
    # is offered a freed place for `offer_hours` hours; `waiting_closed` ends the list (nobody more joins).
    cap = models.PositiveIntegerField(
        _("entry cap"), null=True, blank=True, help_text=_("At most this many entries; more join the waiting list.")
    )
    offer_hours = models.PositiveSmallIntegerField(
        _("hours to accept a place"),
        default=24,
        help_text=_("A player offered a freed place has this long to accept it before it passes on."),
    )
    waiting_closed = models.BooleanField(_("waiting list closed"), default=False)
    qualifying_ties = models.CharField(
        _("ties at the qualifying line"),
        max_length=8,
        choices=QualifyingTies.choices,
        default=QualifyingTies.LOT,
        help_text=_("Players equal on every tie-break across the cut's line: a lot or a playoff."),
    )

    class Meta:
        ordering = ["event", "order", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "slug"], name="flight_unique_slug_per_event"),
            models.CheckConstraint(condition=Q(kind__in=FlightKind.values), name="flight_kind_known"),
            models.CheckConstraint(condition=Q(format__in=FlightFormat.values), name="flight_format_known"),
            models.CheckConstraint(
                condition=Q(rounds__isnull=True) | Q(rounds__gte=1), name="flight_rounds_at_least_1"
            ),
            models.CheckConstraint(
                condition=Q(cut_size__isnull=True) | Q(cut_size__gte=2), name="flight_cut_size_at_least_2"
            ),
            models.CheckConstraint(
                condition=~Q(format=FlightFormat.SWISS) | Q(rounds__isnull=False) | Q(until_one_unbeaten=True),
                name="flight_swiss_has_an_end",
            ),
            models.CheckConstraint(condition=Q(cycles__in=[1, 2]), name="flight_cycles_single_or_double"),
            models.CheckConstraint(
                condition=Q(group_size__isnull=True) | Q(group_size__gte=2), name="flight_group_size_at_least_2"
            ),
            models.CheckConstraint(
                condition=Q(advance__isnull=True) | Q(advance__gte=1), name="flight_advance_at_least_1"
            ),
            models.CheckConstraint(
                condition=~Q(format=FlightFormat.GROUPS) | Q(group_size__isnull=False, advance__isnull=False),
                name="flight_groups_have_size_and_advance",
            ),
            models.CheckConstraint(condition=Q(feed_rule__in=FeedRule.values), name="flight_feed_rule_known"),
            models.CheckConstraint(condition=Q(draw_status__in=DrawStatus.values), name="flight_draw_status_known"),
            models.CheckConstraint(condition=Q(feed_rounds__gte=1), name="flight_feed_rounds_at_least_1"),
            models.CheckConstraint(condition=Q(length__gte=1), name="flight_length_at_least_1"),
            models.CheckConstraint(condition=Q(clock_rule__in=ClockRule.values), name="flight_clock_rule_known"),
            models.CheckConstraint(condition=Q(entry_fee__gte=0), name="flight_entry_fee_not_negative"),
            models.CheckConstraint(
                condition=Q(house_percent__isnull=True) | Q(house_percent__gte=0, house_percent__lte=100),
                name="flight_house_percent_range",
            ),
            models.CheckConstraint(condition=Q(house_fixed__gte=0), name="flight_house_fixed_not_negative"),
            models.CheckConstraint(condition=Q(added_money__gte=0), name="flight_added_money_not_negative"),
            models.CheckConstraint(
                condition=Q(source__isnull=True) | ~Q(feed_rule=FeedRule.DRAW), name="flight_fed_has_feed_rule"
            ),
            models.CheckConstraint(
                condition=Q(pod_size__isnull=True) | Q(pod_size__in=[4, 8, 16]), name="flight_pod_size_4_8_16"
            ),
            models.CheckConstraint(condition=Q(max_reentries__lte=20), name="flight_max_reentries_at_most_20"),
            models.CheckConstraint(
                condition=Q(seed_top_n__isnull=True) | Q(seed_top_n__gte=1), name="flight_seed_top_n_positive"
            ),
            models.CheckConstraint(
                condition=Q(reentry_until_round__isnull=True) | Q(reentry_until_round__gte=1),
                name="flight_reentry_until_round_positive",
            ),
            models.CheckConstraint(
                condition=Q(awards_entry_to__isnull=True) | ~Q(awards_entry_to=F("pk")),
                name="flight_satellite_not_itself",
            ),
            models.CheckConstraint(  # the playoff places 3rd itself, and needs a knockout main's final
                condition=Q(playoff_second=False)
                | Q(kind=FlightKind.MAIN, format=FlightFormat.KNOCKOUT, feed_rule=FeedRule.DRAW, third_place=False),
                name="flight_playoff_second_on_a_knockout_main",
            ),
            models.CheckConstraint(condition=Q(team_kind__in=TeamKind.values), name="flight_team_kind_known"),
            models.CheckConstraint(
                condition=Q(team_kind=TeamKind.SINGLES, team_size=1)
                | Q(team_kind__in=[TeamKind.DOUBLES, TeamKind.CONSULTATION], team_size=2)
                | Q(team_kind=TeamKind.TEAM, team_size__gte=2, team_size__lte=9),
                name="flight_team_size_fits_kind",
            ),
            models.CheckConstraint(condition=Q(cap__isnull=True) | Q(cap__gte=1), name="flight_cap_at_least_1"),
            models.CheckConstraint(
                condition=Q(offer_hours__gte=1, offer_hours__lte=336), name="flight_offer_hours_1_to_336"
            ),
            *variant_constraints("flight"),
        ]

    def __str__(self) -> str:
        return f"{self.event} – {self.name}"

    @property
    def club(self) -> Club:
        """The club a flight belongs to is its event's (what the permission rules ask; clubs.access)."""
        return self.event.club

    @property
    def is_team_event(self) -> bool:
        """An entry is more than one player (doubles, consultation, a team)."""
        return self.team_kind != TeamKind.SINGLES

    def get_absolute_url(self) -> str:
        return reverse(
            "tournaments:flight-bracket",
            kwargs={"club": self.event.club.slug, "slug": self.event.slug, "flight": self.slug},
        )

    def time_control(self) -> str:
        """The clock setting in words, e.g. "2 min per point + 12 s delay"; empty without a clock."""
        if self.clock_rule == ClockRule.NONE:
            return ""
        minutes, seconds = divmod(self.clock_seconds_per_point, 60)
        per_point = (
            _("%(m)s min per point") % {"m": minutes}
            if not seconds
            else _("%(s)s s per point") % {"s": self.clock_seconds_per_point}
        )
        return _("%(per_point)s + %(delay)s s delay") % {"per_point": per_point, "delay": self.clock_delay_seconds}

    @property
    def is_under_way(self) -> bool:
        """Drawn and released, round 1 paired, or finished: checking in changes nothing any more (a late arrival
        goes through a director), so no page offers a player's check-in."""
        return self.draw_status == DrawStatus.RELEASED or self.current_round > 0 or self.status == FlightStatus.FINISHED

    @property
    def is_round_based(self) -> bool:
        """Played in rounds of Pairing rows (Swiss, round robin, groups, triple elimination), not in Slots: the
        format says (tournaments.formats)."""
        return FORMATS[self.format].round_based

    def length_for(self, round_number: int, *, is_final: bool) -> int:
        if is_final and self.final_length:
            return self.final_length
        return int(self.round_lengths.get(str(round_number), self.length))


class ClubPayoutTable(models.Model):
    """A club's own payout table: bands of field sizes, each with the percentages of its paid places
    (tournaments.core.payout_tables.parse_bands checks them)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="payout_tables")
    name = models.CharField(_("name"), max_length=80)
    bands = models.JSONField(_("bands"), default=list)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "name"]
        constraints = [models.UniqueConstraint(fields=["club", "name"], name="club_payout_table_unique_name")]

    def __str__(self) -> str:
        return self.name


class PrizePayment(SettleUp):
    """A prize handed over: who won which place of which flight and how much, recorded once when the club (a
    director) marks it paid; the winner confirms they received it (or a director does for them). Never edited
    otherwise. Marking and confirming, and the reminder to confirm a day after it was paid, are `base.settle_up`'s,
    shared with chouette and Calcutta transfers."""

    remind_from = "paid_at"

    flight = models.ForeignKey(Flight, on_delete=models.CASCADE, related_name="prize_payments")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="prizes_paid")
    place = models.PositiveIntegerField()
    amount_cents = models.BigIntegerField()

    def reminder(self) -> Reminder | None:
        """Once marked paid (always, as the row is made then), the winner is asked to confirm it arrived."""
        flight = self.flight
        users = (self.player.user_id,) if self.player.user_id else ()
        where = f"{flight.event.name} – {flight.name}"
        url = reverse("tournaments:prizes", kwargs={"club": flight.event.club.slug, "slug": flight.event.slug})
        return Reminder(users, "payee", flight.event.club.name, self.amount_cents, where, url, f"prize:{self.pk}")

    class Meta:
        ordering = ["flight", "place", "id"]
        constraints = [
            models.UniqueConstraint(fields=["flight", "player"], name="prize_paid_once_per_flight"),
            models.CheckConstraint(condition=Q(amount_cents__gte=0), name="prize_amount_not_negative"),
        ]


class FeeCategory(models.TextChoices):
    STANDARD = "standard", _("Standard")
    MEMBER = "member", _("Member")
    JUNIOR = "junior", _("Junior")


class PaymentMethod(models.TextChoices):
    CASH = "cash", _("Cash")
    TRANSFER = "transfer", _("Bank transfer")
    ONLINE = "online", _("Online")
    WAIVED = "waived", _("Waived")


class EntryPayment(models.Model):
    """One line of an entry's payments, append-only: a payment (positive), a refund (negative) or a waiver
    (amount 0, method waived). Nothing is edited: a mistake is put right by a refund or a further payment. `seq`
    numbers an entry's lines 1, 2, …: a director records against the number they saw, so two directors recording
    the same payment at once record it once (the second is refused, unique (entry, seq)). `key` is a client's
    idempotency key, unique per entry."""

    entry = models.ForeignKey("Entry", on_delete=models.CASCADE, related_name="payments")
    seq = models.PositiveIntegerField()
    method = models.CharField(_("method"), max_length=10, choices=PaymentMethod.choices)
    amount = models.DecimalField(_("amount"), max_digits=9, decimal_places=2)
    reference = models.CharField(_("reference"), max_length=80, blank=True)
    note = models.CharField(_("note"), max_length=200, blank=True)
    key = models.CharField(max_length=80, blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["entry", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["entry", "seq"], name="entry_payment_seq_once"),
            models.UniqueConstraint(fields=["entry", "key"], condition=~Q(key=""), name="entry_payment_key_once"),
            models.CheckConstraint(condition=Q(method__in=PaymentMethod.values), name="entry_payment_method_known"),
            models.CheckConstraint(
                condition=~Q(method=PaymentMethod.WAIVED) | Q(amount=0), name="entry_payment_waiver_is_zero"
            ),
        ]


class EntryStatus(models.TextChoices):
    REGISTERED = "registered", _("Registered")
    CHECKED_IN = "checked_in", _("Checked in")
    WITHDRAWN = "withdrawn", _("Withdrawn")


class Entry(models.Model):
    flight = models.ForeignKey(Flight, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="tournament_entries")
    status = models.CharField(max_length=12, choices=EntryStatus.choices, default=EntryStatus.REGISTERED)
    is_late = models.BooleanField(_("late entry"), default=False)
    is_reentry = models.BooleanField(_("re-entry"), default=False)
    reentry_number = models.PositiveSmallIntegerField(
        _("re-entry number"), default=0, help_text=_("0 for the first entry, 1 for the first buy-back, ...")
    )
    is_satellite = models.BooleanField(_("satellite entry"), default=False, help_text=_("Won in a satellite."))
    fee = models.DecimalField(_("fee"), max_digits=9, decimal_places=2, default=Decimal("0"))
    fee_category = models.CharField(
        _("fee category"), max_length=8, choices=FeeCategory.choices, default=FeeCategory.STANDARD
    )
    registered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    seed = models.PositiveIntegerField(null=True, blank=True)
    rating = models.FloatField(null=True, blank=True, help_text=_("Rating used for seeding."))
    seeding_rating = models.FloatField(
        _("seeding rating"),
        null=True,
        blank=True,
        help_text=_("From a rating list the director imported (e.g. the federation's): the draw seeds by it."),
    )
    draw_position = models.PositiveIntegerField(
        null=True, blank=True, help_text=_("Place on the round-1 line (0-based); the round-1 slot is this // 2.")
    )
    first_played_slot = models.ForeignKey(
        "Slot",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=_("The first match this entry actually played (a bye or walkover is not one)."),
    )
    had_bye = models.BooleanField(default=False)
    place = models.PositiveIntegerField(null=True, blank=True, help_text=_("Final place; empty while alive."))
    out_round = models.PositiveSmallIntegerField(null=True, blank=True)
    # Round robin and groups: the group (1, 2, ... in a groups flight; 0 otherwise) and, for a withdrawal, whether
    # the games left are forfeited to the opponents (True) or not scored at all (False), as the director chose.
    group = models.PositiveSmallIntegerField(default=0)
    remaining_scored = models.BooleanField(default=True)
    # A pair or team: its name as every list shows it ("Anna / Ben" unless the team chose one); empty for singles.
    # Stored, not joined, so a bracket or standings page costs no query more for a doubles flight.
    team_name = models.CharField(_("team name"), max_length=120, blank=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    # Withdrawn before the draw after paying something: what the club keeps of the fee (the event's refund
    # percent decides it), so the fee account owes this instead of the fee and shows the rest to refund. Empty
    # for every other entry; set only by a withdrawal before the draw, cleared when the player enters again.
    kept_fee = models.DecimalField(_("fee kept"), max_digits=9, decimal_places=2, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["flight", "seed", "draw_position", "id"]
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["flight", "player", "reentry_number"], name="entry_once_per_flight"),
            models.UniqueConstraint(
                fields=["flight", "draw_position"],
                condition=Q(draw_position__isnull=False),
                name="entry_unique_draw_position",
            ),
            models.CheckConstraint(condition=Q(status__in=EntryStatus.values), name="entry_status_known"),
            models.CheckConstraint(condition=Q(fee__gte=0), name="entry_fee_not_negative"),
            models.CheckConstraint(
                condition=Q(kept_fee__isnull=True) | Q(kept_fee__gte=0), name="entry_kept_fee_not_negative"
            ),
            models.CheckConstraint(condition=Q(place__isnull=True) | Q(place__gte=1), name="entry_place_positive"),
        ]
        indexes = [models.Index(fields=["player", "flight"])]

    def __str__(self) -> str:
        return f"{self.name} in {self.flight}"

    @property
    def name(self) -> str:
        """What lists show for the entry: the pair's or team's name, else the player's public name (the display
        name they chose, if the event's club allows display names: brackets, standings and embeds are public).
        The club is read only for a player with a display name, through the entry's flight (a list that loads
        the entries from their flight shares the one flight)."""
        if self.team_name:
            return self.team_name
        player = self.player
        return player.public_name_at(self.flight.event.club) if player.display_name else player.name

    @property
    def withdrew_before_draw(self) -> bool:
        """Withdrawn before the draw and kept for its payment lines: never drawn, paired or placed."""
        return self.status == EntryStatus.WITHDRAWN and self.kept_fee is not None

    @property
    def fee_due(self) -> Decimal:
        """What the fee account owes: the fee, or after a withdrawal before the draw what the club keeps of it."""
        return self.fee if self.kept_fee is None else self.kept_fee

    @property
    def real_name(self) -> str:
        """The entry as the directors' pages show it: the pair's or team's name, else the player's own name."""
        return self.team_name or self.player.name


class EntryMember(models.Model):
    """One player of a pair or team entry, the captain (Entry.player, order 1) included. `flight` repeats the
    entry's so the database keeps a player to one pair or team per flight."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="members")
    flight = models.ForeignKey(Flight, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="tournament_memberships")
    order = models.PositiveSmallIntegerField(help_text=_("1 for the captain; a team's board order."))

    class Meta:
        ordering = ["entry", "order"]
        constraints = [
            models.UniqueConstraint(fields=["flight", "player"], name="entrymember_once_per_flight"),
            models.UniqueConstraint(fields=["entry", "order"], name="entrymember_unique_order"),
            models.CheckConstraint(condition=Q(order__gte=1), name="entrymember_order_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.order}) in {self.entry_id}"


class SlotResult(models.TextChoices):
    PENDING = "pending", _("Pending")
    READY = "ready", _("Ready to play")
    PLAYED = "played", _("Played")
    BYE = "bye", _("Bye")
    WALKOVER = "walkover", _("Walkover")
    DOUBLE_FORFEIT = "double_forfeit", _("Double forfeit")
    EMPTY = "empty", _("Empty")


class CalledToABoard:
    """A bracket slot or a round's table that a `Call` can name (its reverse accessor `call`)."""

    @property
    def called_board(self):
        """The board this match is called to, None before the call and once the board is freed (a query unless
        the selector took `call__board` along)."""
        try:
            call = self.call
        except ObjectDoesNotExist:
            return None
        return call.board if call.freed_at is None else None


class Slot(CalledToABoard, models.Model):
    """One match position of a flight's bracket: section (w main/winners, l losers, g grand final, c fed
    bracket), round and position. A side is pending (no entry, not empty), taken (entry) or empty (a bye)."""

    flight = models.ForeignKey(Flight, on_delete=models.CASCADE, related_name="slots")
    section = models.CharField(max_length=1, default="w")
    round = models.PositiveSmallIntegerField()
    position = models.PositiveIntegerField()
    entry_a = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    entry_b = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    a_empty = models.BooleanField(default=False)
    b_empty = models.BooleanField(default=False)
    match = models.OneToOneField(
        "games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="tournament_slot"
    )
    result = models.CharField(max_length=16, choices=SlotResult.choices, default=SlotResult.PENDING)
    winner = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    loser = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["flight", "section", "round", "position"]
        constraints = [
            models.UniqueConstraint(fields=["flight", "section", "round", "position"], name="slot_unique_place"),
            models.CheckConstraint(condition=Q(result__in=SlotResult.values), name="slot_result_known"),
            models.CheckConstraint(condition=~(Q(a_empty=True) & Q(entry_a__isnull=False)), name="slot_a_empty"),
            models.CheckConstraint(condition=~(Q(b_empty=True) & Q(entry_b__isnull=False)), name="slot_b_empty"),
            models.CheckConstraint(
                condition=Q(entry_a__isnull=True) | Q(entry_b__isnull=True) | ~Q(entry_a=F("entry_b")),
                name="slot_two_different_entries",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.flight} {self.section}{self.round}.{self.position}"


class PairingResult(models.TextChoices):
    PENDING = "pending", _("Pending")
    PLAYED = "played", _("Played")
    BYE = "bye", _("Bye")
    FORFEIT = "forfeit", _("Forfeit")
    DOUBLE_FORFEIT = "double_forfeit", _("Double forfeit")
    NOT_SCORED = "not_scored", _("Not scored")


#: Pairing results that count in the standings (a pending or not-scored pairing does not).
SCORED_RESULTS = frozenset(
    {PairingResult.PLAYED, PairingResult.BYE, PairingResult.FORFEIT, PairingResult.DOUBLE_FORFEIT}
)


class Pairing(CalledToABoard, models.Model):
    """One table of one round of a round-based flight (Swiss, round robin, groups, triple elimination).

    entry_b empty is a bye. The match is created through games' match creation path, so reporting,
    confirmation and the Crawford rule are those of every match; the result arrives back through the
    match-play hook. `score_a`/`score_b` are the match points each side scored (the standings' points for and
    against). `group` numbers the group of a groups flight (0 for a flight played as one field).
    RoundSeat rows keep an entry to one table per round in the database."""

    flight = models.ForeignKey(Flight, on_delete=models.CASCADE, related_name="pairings")
    round = models.PositiveSmallIntegerField()
    table = models.PositiveIntegerField()
    group = models.PositiveSmallIntegerField(default=0)
    entry_a = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    entry_b = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    match = models.OneToOneField(
        "games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="tournament_pairing"
    )
    result = models.CharField(max_length=16, choices=PairingResult.choices, default=PairingResult.PENDING)
    winner = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    score_a = models.PositiveSmallIntegerField(default=0)
    score_b = models.PositiveSmallIntegerField(default=0)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["flight", "round", "table"]
        constraints = [
            models.UniqueConstraint(fields=["flight", "round", "table"], name="pairing_unique_table"),
            models.UniqueConstraint(fields=["flight", "round", "entry_a"], name="pairing_a_once_per_round"),
            models.UniqueConstraint(
                fields=["flight", "round", "entry_b"],
                condition=Q(entry_b__isnull=False),
                name="pairing_b_once_per_round",
            ),
            models.CheckConstraint(condition=Q(round__gte=1), name="pairing_round_at_least_1"),
            models.CheckConstraint(condition=Q(table__gte=1), name="pairing_table_at_least_1"),
            models.CheckConstraint(condition=Q(result__in=PairingResult.values), name="pairing_result_known"),
            models.CheckConstraint(
                condition=Q(entry_b__isnull=True) | ~Q(entry_a=F("entry_b")), name="pairing_two_different_entries"
            ),
            models.CheckConstraint(
                condition=~Q(result=PairingResult.BYE) | Q(entry_b__isnull=True), name="pairing_bye_has_no_opponent"
            ),
            models.CheckConstraint(
                condition=~Q(result__in=[PairingResult.PLAYED, PairingResult.FORFEIT]) | Q(winner__isnull=False),
                name="pairing_decided_has_winner",
            ),
        ]
        indexes = [models.Index(fields=["flight", "round"])]

    def __str__(self) -> str:
        return f"{self.flight} R{self.round} T{self.table}"

    @property
    def group_label(self) -> str:
        """A, B, ... for the groups of a groups flight; empty for a flight played as one field."""
        return group_label(self.group - 1) if self.group else ""


class TeamBoard(models.Model):
    """One board of a team match (a nations cup): board k is played by the k-th players of the two teams' lineups
    as an ordinary singles match, reported, confirmed and rated like any. The team match is the knockout slot
    (or, later, the round's pairing); tournaments.services.teams decides it from its boards."""

    flight = models.ForeignKey(Flight, on_delete=models.CASCADE, related_name="+")
    slot = models.ForeignKey(Slot, null=True, blank=True, on_delete=models.CASCADE, related_name="boards")
    pairing = models.ForeignKey("Pairing", null=True, blank=True, on_delete=models.CASCADE, related_name="boards")
    board = models.PositiveSmallIntegerField()
    match = models.OneToOneField("games.Match", on_delete=models.PROTECT, related_name="team_board")

    class Meta:
        ordering = ["flight", "slot", "pairing", "board"]
        constraints = [
            models.CheckConstraint(condition=Q(board__gte=1), name="teamboard_board_positive"),
            models.CheckConstraint(
                condition=Q(slot__isnull=True, pairing__isnull=False) | Q(slot__isnull=False, pairing__isnull=True),
                name="teamboard_slot_or_pairing",
            ),
            models.UniqueConstraint(
                fields=["slot", "board"], condition=Q(slot__isnull=False), name="teamboard_once_per_slot"
            ),
            models.UniqueConstraint(
                fields=["pairing", "board"], condition=Q(pairing__isnull=False), name="teamboard_once_per_pairing"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.slot or self.pairing} board {self.board}"


class QualifyingTie(models.Model):
    """Players equal on every criterion across a stage's qualifying line (the cut's, or a group's), and how they
    were separated: a lot drawn by the director or a playoff match. The cut waits until `order` is set; the row
    stays as the record of who decided, how and when."""

    flight = models.ForeignKey(Flight, on_delete=models.CASCADE, related_name="qualifying_ties_found")
    group = models.PositiveSmallIntegerField(default=0)
    tied = models.JSONField(help_text=_("The tied entries, in standings (seed) order."))
    places = models.PositiveSmallIntegerField(help_text=_("How many of them go on."))
    method = models.CharField(max_length=8, choices=QualifyingTies.choices)
    order = models.JSONField(default=list, blank=True, help_text=_("The tied entries in the order decided."))
    match = models.OneToOneField(
        "games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="qualifying_playoff"
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["flight", "group"]
        constraints = [
            models.UniqueConstraint(fields=["flight", "group"], name="qualifying_tie_once_per_pool"),
            models.CheckConstraint(condition=Q(places__gte=1), name="qualifying_tie_places_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.flight} tie (group {self.group})"


class FlightChange(models.Model):
    """One write that changed what a flight's bracket page or API shows (tournaments.services.common.
    flights_changed). The flight's version, which keys its cached renderings, is the number of these rows: a
    change makes the old renderings unreachable instead of stale. Rows are only ever added, so writers of one
    flight never wait for each other here; a counter column on the flight row was raised in the middle of every
    confirmation and held to its commit, so a flight's results queued on it. A count (not the highest id) is the
    version: ids are handed out before commit, so a row committed late can have a lower id than one seen."""

    flight = models.ForeignKey(Flight, on_delete=models.CASCADE, related_name="+")


class RoundSeat(models.Model):
    """An entry's seat in one round: the database's guarantee that an entry plays at most once per round
    (entry_a in one pairing and entry_b in another cannot both be stored)."""

    flight = models.ForeignKey(Flight, on_delete=models.CASCADE, related_name="+")
    round = models.PositiveSmallIntegerField()
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="seats")
    pairing = models.ForeignKey(Pairing, on_delete=models.CASCADE, related_name="seats")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["flight", "round", "entry"], name="seat_once_per_round"),
        ]


class RoundStandings(models.Model):
    """The standings a round was paired from, kept as they were at the pairing: the live standings change with
    every later result and correction, and a director (or a player asking "why did I get this opponent?") reads
    back what the pairing saw. One per round; written once, when the round is paired
    (tournaments.services.round_records)."""

    flight = models.ForeignKey(Flight, on_delete=models.CASCADE, related_name="round_standings")
    round = models.PositiveSmallIntegerField(help_text=_("The round paired from these standings."))
    rows = models.JSONField(
        default=list, help_text=_("The standings, best first: entry, player, rank, wins, losses, byes, tie-breaks.")
    )
    order = models.JSONField(default=list, help_text=_("The tie-break order in effect, first to last."))
    seed = models.BigIntegerField(null=True, blank=True, help_text=_("The pairing seed the round was paired with."))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["flight", "round"], name="round_standings_once_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.flight} round {self.round}"


class BracketChange(models.Model):
    """A director's override or re-route, with the later matches it voided (the audit trail)."""

    flight = models.ForeignKey(Flight, on_delete=models.CASCADE, related_name="changes")
    slot = models.ForeignKey(Slot, null=True, on_delete=models.SET_NULL, related_name="+")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    kind = models.CharField(max_length=16)
    voided = models.JSONField(default=list, blank=True, help_text=_("Slots whose results were voided."))
    comment = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]


class Board(models.Model):
    """A numbered table of an event; `tags` name its features ("step-free", "clock") for matches that need
    them. A board is busy while a call on it is not freed (`Call.freed_at`)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="boards")
    number = models.PositiveSmallIntegerField(_("number"))
    tags = models.JSONField(_("features"), default=list, blank=True, help_text=_('E.g. ["step-free", "clock"].'))

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="board_unique_number_per_event"),
            models.CheckConstraint(condition=Q(number__gte=1), name="board_number_positive"),
        ]

    def __str__(self) -> str:
        return _("Board %(number)s") % {"number": self.number}


class Call(models.Model):
    """A table called to a board: a bracket match (`slot`), a round's table (`pairing`) or one board of a team
    match (`team_board`), exactly one of them. Made once per table (the database refuses a second), and a board
    holds one unfreed call at a time. `called_at` starts the lateness clock."""

    slot = models.OneToOneField(Slot, null=True, blank=True, on_delete=models.CASCADE, related_name="call")
    pairing = models.OneToOneField(Pairing, null=True, blank=True, on_delete=models.CASCADE, related_name="call")
    team_board = models.OneToOneField(TeamBoard, null=True, blank=True, on_delete=models.CASCADE, related_name="call")
    match = models.ForeignKey(
        "games.Match",
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=_(
            "The table's match when called: a replaced match (an override, an annulled result) makes it stale."
        ),
    )
    board = models.ForeignKey(Board, on_delete=models.PROTECT, related_name="calls")
    called_at = models.DateTimeField()
    called_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    freed_at = models.DateTimeField(null=True, blank=True)
    lateness_applied_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["called_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["board"], condition=Q(freed_at__isnull=True), name="call_one_match_per_board"
            ),
            models.CheckConstraint(
                condition=Q(slot__isnull=False, pairing__isnull=True, team_board__isnull=True)
                | Q(slot__isnull=True, pairing__isnull=False, team_board__isnull=True)
                | Q(slot__isnull=True, pairing__isnull=True, team_board__isnull=False),
                name="call_one_table",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.row} @ {self.board}"

    @property
    def row(self):
        """The called table's row, the slot, the pairing or the team board: the one place that tells them apart
        (each has the flight and the match a call reads; tournaments.selectors.tables reads the rest)."""
        if self.slot_id is not None:
            return self.slot
        return self.pairing if self.pairing_id is not None else self.team_board

    @staticmethod
    def of(row) -> dict:
        """The fields that name `row` (a Slot, a Pairing or a TeamBoard) in a new call."""
        field = {Slot: "slot", Pairing: "pairing", TeamBoard: "team_board"}[type(row)]
        return {field: row}


class SpotStatus(models.TextChoices):
    WAITING = "waiting", _("Waiting")
    OFFERED = "offered", _("Offered a place")
    ACCEPTED = "accepted", _("Accepted")
    DECLINED = "declined", _("Declined")
    EXPIRED = "expired", _("Offer expired")
    LEFT = "left", _("Left the list")
    CLOSED = "closed", _("List closed")


OPEN_SPOT = [SpotStatus.WAITING, SpotStatus.OFFERED]


class WaitingSpot(models.Model):
    """A place on a capped flight's waiting list (tournaments.services.waiting). `position` orders the open spots
    (waiting or offered): unique among them, so two sign-ups at once cannot share a place in the queue, and a
    player holds one open spot per flight. An offer carries its deadline; accepting it makes the entry
    (`entry`). A spot is never deleted: declined, expired, left and closed spots are the list's history."""

    flight = models.ForeignKey(Flight, on_delete=models.CASCADE, related_name="waiting_spots")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="waiting_spots")
    position = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=SpotStatus.choices, default=SpotStatus.WAITING)
    joined_at = models.DateTimeField(auto_now_add=True)
    registered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    offered_at = models.DateTimeField(null=True, blank=True)
    offer_expires_at = models.DateTimeField(null=True, blank=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    # the entry an accepted offer made (emptied if that entry is withdrawn before the draw and deleted)
    entry = models.OneToOneField(Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="waiting_spot")
    # a pair's or team's spot: its name (its players are WaitingMember rows, the captain `player` first)
    team_name = models.CharField(_("team name"), max_length=120, blank=True)

    class Meta:
        ordering = ["flight", "position", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["flight", "position"], condition=Q(status__in=OPEN_SPOT), name="waiting_spot_unique_position"
            ),
            models.UniqueConstraint(
                fields=["flight", "player"], condition=Q(status__in=OPEN_SPOT), name="waiting_spot_once_per_player"
            ),
            models.CheckConstraint(condition=Q(status__in=SpotStatus.values), name="waiting_spot_status_known"),
            models.CheckConstraint(
                condition=~Q(status=SpotStatus.OFFERED) | Q(offered_at__isnull=False, offer_expires_at__isnull=False),
                name="waiting_spot_offer_has_deadline",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} waiting for {self.flight}"


class WaitingMember(models.Model):
    """One player of a pair or team waiting on a list, the captain (WaitingSpot.player, order 1) included: accepting
    the offer makes the team entry with these players in this order (EntryMember)."""

    spot = models.ForeignKey(WaitingSpot, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    order = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["spot", "order"]
        constraints = [
            models.UniqueConstraint(fields=["spot", "player"], name="waitingmember_once_per_spot"),
            models.UniqueConstraint(fields=["spot", "order"], name="waitingmember_unique_order"),
            models.CheckConstraint(condition=Q(order__gte=1), name="waitingmember_order_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.order}) on spot {self.spot_id}"


class WaitingMove(models.Model):
    """A director moved a waiting player up the list, and why (append-only: the list's order is kept except for
    these)."""

    spot = models.ForeignKey(WaitingSpot, on_delete=models.CASCADE, related_name="moves")
    from_place = models.PositiveIntegerField()
    to_place = models.PositiveIntegerField()
    reason = models.CharField(_("reason"), max_length=200)
    moved_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    moved_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["spot", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(to_place__lt=F("from_place")), name="waiting_move_goes_up"),
            models.CheckConstraint(condition=~Q(reason=""), name="waiting_move_has_reason"),
        ]
