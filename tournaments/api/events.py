"""REST endpoints for events (under /api/v1/events/): events, flights, entries, draws, brackets, placements,
prizes, the director's dashboard, overrides, and a player's next matches. Results themselves are reported and
confirmed through /api/v1/matches/ (each bracket slot names its match)."""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status, viewsets
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response

from base.api import KnownFieldsOnly, validated
from base.fields import DecimalField
from base.idempotency import idempotent
from clubs import access, names
from clubs import selectors as club_selectors
from clubs.api import ShownNameField
from clubs.models import Club, Player
from games.matchplay.api import setting_serializer_fields
from games.models.matches import MatchOutcome
from games.models.variants import DaveProgression, GameVariant, StakeForm
from tournaments import selectors, services
from tournaments.core.tiebreaks import Tiebreak
from tournaments.models import (
    ClockRule,
    DrawStatus,
    Entry,
    EntryStatus,
    Event,
    EventStatus,
    FeedRule,
    Flight,
    FlightFormat,
    FlightKind,
    FlightStatus,
    QualifyingTies,
    Seeding,
    Slot,
    SlotResult,
    TeamKind,
)
from tournaments.selectors import rounds as round_selectors


def one_of(choices, **kwargs) -> serializers.CharField:
    """A string field naming its values in the schema's description instead of as a named enum, so fields
    called "kind" or "status" do not collide with other apps' enums of the same name."""
    values = ", ".join(value for value, _label in choices)
    return serializers.CharField(help_text=f"One of: {values}.", **kwargs)


# --- serializers ------------------------------------------------------------------------------------------


def _domain_text(text) -> dict:
    """A bounded field refused with the service's own message, which says what works, instead of DRF's "Ensure
    this value is greater than or equal to 2." (the bounds stay in the schema)."""
    return {"min_value": text, "max_value": text}


KNOCKOUT_OPTIONS = services.OPTION_FIELDS


class KnockoutOptionsSerializer(serializers.Serializer):
    """The knockout options, shared by creating and changing a flight (all optional; bounds here, combinations
    checked by the service)."""

    grand_final_reset = serializers.BooleanField(required=False)
    third_place = serializers.BooleanField(required=False)
    playoff_second = serializers.BooleanField(
        required=False, help_text="Knockout main: its final's loser plays the consolation's winner for 2nd."
    )
    seed_top_n = serializers.IntegerField(min_value=1, max_value=4096, required=False, allow_null=True)
    max_reentries = serializers.IntegerField(min_value=0, max_value=20, required=False)
    reentry_until_round = serializers.IntegerField(min_value=1, max_value=20, required=False, allow_null=True)
    pod_size = serializers.IntegerField(
        min_value=4, max_value=16, required=False, allow_null=True, help_text="Jackpot: 4, 8 or 16."
    )
    awards_entry_to = serializers.SlugField(
        max_length=40, required=False, allow_null=True, help_text="Satellite: slug of the flight it awards an entry to."
    )


class TiebreakSerializer(serializers.Serializer):
    """A tie-break criterion in the reader's language (tournaments.core.tiebreaks)."""

    key = serializers.CharField(help_text="As in the flight's tiebreaks.")
    name = serializers.SerializerMethodField()
    abbreviation = serializers.SerializerMethodField(help_text="The standings column's header.")

    def get_name(self, tiebreak: Tiebreak) -> str:
        return gettext(tiebreak.name)

    def get_abbreviation(self, tiebreak: Tiebreak) -> str:
        return gettext(tiebreak.abbreviation)


class FlightSerializer(serializers.ModelSerializer):
    source = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True)
    awards_entry_to = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True)
    clock_rule = one_of(ClockRule.choices, read_only=True)
    time_control = serializers.CharField(read_only=True, help_text="The clock in words; empty without a clock.")
    kind = one_of(FlightKind.choices, read_only=True)
    format = one_of(FlightFormat.choices, read_only=True)
    draw_status = one_of(DrawStatus.choices, read_only=True)
    status = one_of(FlightStatus.choices, read_only=True)
    team_kind = one_of(TeamKind.choices, read_only=True)
    pairing_seed = serializers.IntegerField(
        source="random_seed",
        read_only=True,
        allow_null=True,
        help_text="The seed a knockout was drawn with or a flight in rounds is paired with (the same as random_seed).",
    )
    tiebreaks_in_effect = serializers.SerializerMethodField(
        help_text="The tie-breaks the standings are sorted by, first to last: the flight's tiebreaks, else its "
        "format's default (empty for a knockout)."
    )

    class Meta:
        model = Flight
        fields = [
            "id",
            "slug",
            "name",
            "kind",
            "source",
            "feed_rule",
            "feed_rounds",
            "entry_round",
            "entry_fee",
            "reentry_fee",
            "reentry_deadline",
            "length",
            "final_length",
            "round_lengths",
            "variant",
            "stakes",
            "dave_progression",
            "backward_hits",
            "head_doubles",
            "six_block",
            "seeding",
            "separate_clubs",
            "draw_status",
            "random_seed",
            "pairing_seed",
            "size",
            "status",
            "payout_template",
            "check_in_deadline",
            "clock_rule",
            "clock_seconds_per_point",
            "clock_delay_seconds",
            "time_control",
            *KNOCKOUT_OPTIONS,
            "format",
            "rounds",
            "until_one_unbeaten",
            "current_round",
            "auto_pair",
            "tiebreaks",
            "tiebreaks_in_effect",
            "cut_size",
            "qualifying_ties",
            "team_kind",
            "team_size",
            "cycles",
            "group_size",
            "advance",
        ]
        read_only_fields = fields

    @extend_schema_field(TiebreakSerializer(many=True))
    def get_tiebreaks_in_effect(self, flight: Flight) -> list:
        return TiebreakSerializer(round_selectors.tiebreaks_in_effect(flight), many=True).data


class EventSerializer(serializers.ModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    status = one_of(EventStatus.choices, read_only=True)
    flights = FlightSerializer(many=True, read_only=True)

    class Meta:
        model = Event
        fields = [
            "id",
            "club",
            "slug",
            "name",
            "starts_on",
            "ends_on",
            "is_public",
            "registration_open",
            "status",
            "house_percent",
            "currency",
            "closes_at",
            "cap",
            "withdrawal_refund_percent",
            "flights",
        ]
        read_only_fields = fields


class EventInputSerializer(serializers.Serializer):
    club = serializers.SlugRelatedField(slug_field="slug", queryset=Club.objects.all())
    name = serializers.CharField(max_length=120)
    slug = serializers.SlugField(max_length=60, required=False, default="")
    starts_on = serializers.DateField()
    ends_on = serializers.DateField(required=False, allow_null=True, default=None)
    is_public = serializers.BooleanField(default=True)
    registration_open = serializers.BooleanField(default=True)
    house_percent = DecimalField(max_digits=5, decimal_places=2, min_value=0, max_value=100, default=0)
    currency = serializers.CharField(max_length=3, default="EUR")


class EventUpdateSerializer(KnownFieldsOnly, serializers.Serializer):
    """What a director changes of an event; a body naming any other field is refused (400) and changes nothing."""

    name = serializers.CharField(max_length=120, required=False)
    is_public = serializers.BooleanField(required=False)
    registration_open = serializers.BooleanField(required=False)
    house_percent = DecimalField(max_digits=5, decimal_places=2, min_value=0, max_value=100, required=False)
    closes_at = serializers.DateTimeField(required=False, allow_null=True)
    withdrawal_refund_percent = serializers.IntegerField(
        min_value=0,
        max_value=100,
        required=False,
        help_text="How much of a paid fee a withdrawal before the draw refunds, in percent (100: all of it).",
        error_messages=_domain_text(services.REFUND_PERCENT_RANGE),
    )


class FlightInputSerializer(KnockoutOptionsSerializer):
    name = serializers.CharField(max_length=80)
    slug = serializers.SlugField(max_length=40, required=False, default="")
    kind = one_of(FlightKind.choices, default=FlightKind.MAIN, max_length=20)
    source = serializers.SlugField(
        required=False, allow_null=True, default=None, help_text="Slug of the feeding flight."
    )
    feed_rule = serializers.ChoiceField(choices=FeedRule.choices, required=False, allow_null=True, default=None)
    feed_rounds = serializers.IntegerField(min_value=1, max_value=12, default=1)
    entry_round = serializers.IntegerField(min_value=1, max_value=20, default=1)
    entry_fee = DecimalField(max_digits=9, decimal_places=2, min_value=0, default=0)
    reentry_fee = DecimalField(max_digits=9, decimal_places=2, min_value=0, required=False, allow_null=True)
    reentry_deadline = serializers.DateTimeField(required=False, allow_null=True)
    length = serializers.IntegerField(min_value=1, max_value=99, default=7)
    final_length = serializers.IntegerField(min_value=1, max_value=99, required=False, allow_null=True)
    round_lengths = serializers.DictField(child=serializers.IntegerField(min_value=1, max_value=99), required=False)
    variant = serializers.ChoiceField(
        choices=GameVariant.choices, required=False, help_text="Default: the source flight's, else standard."
    )
    stakes = serializers.ChoiceField(
        choices=StakeForm.choices, required=False, help_text="cube or dave (standard board only)."
    )
    dave_progression = serializers.ChoiceField(choices=DaveProgression.choices, required=False)
    backward_hits, head_doubles, six_block = setting_serializer_fields(inherit=True)
    seeding = serializers.ChoiceField(choices=Seeding.choices, default=Seeding.RANDOM)
    separate_clubs = serializers.BooleanField(default=False)
    payout_template = serializers.ListField(child=serializers.DictField(), required=False)
    check_in_deadline = serializers.DateTimeField(required=False, allow_null=True)
    clock_rule = serializers.ChoiceField(choices=ClockRule.choices, default=ClockRule.NONE)
    clock_seconds_per_point = serializers.IntegerField(min_value=10, max_value=600, default=120)
    clock_delay_seconds = serializers.IntegerField(min_value=0, max_value=60, default=12)
    format = one_of(FlightFormat.choices, default=FlightFormat.KNOCKOUT, max_length=20)
    team_kind = one_of(TeamKind.choices, default=TeamKind.SINGLES, max_length=12)
    team_size = serializers.IntegerField(
        min_value=1, max_value=9, required=False, allow_null=True, default=None, help_text="Default: from team_kind."
    )
    rounds = serializers.IntegerField(
        min_value=1,
        max_value=99,
        required=False,
        allow_null=True,
        default=None,
        error_messages=_domain_text(gettext_lazy("Play between 1 and 99 rounds.")),
    )
    until_one_unbeaten = serializers.BooleanField(default=False)
    auto_pair = serializers.BooleanField(default=True)
    tiebreaks = serializers.ListField(
        child=serializers.CharField(max_length=20), max_length=10, required=False, help_text="Tie-break order."
    )
    cut_size = serializers.IntegerField(
        min_value=2,
        max_value=256,
        required=False,
        allow_null=True,
        default=None,
        error_messages=_domain_text(gettext_lazy("Cut to between the top 2 and the top 256.")),
    )
    qualifying_ties = one_of(QualifyingTies.choices, default=QualifyingTies.LOT, max_length=8)
    cycles = serializers.IntegerField(
        min_value=1,
        max_value=2,
        default=1,
        help_text="Round robin and groups: everyone meets once (1) or twice (2).",
        error_messages=_domain_text(gettext_lazy("Everyone meets once (1) or twice (2).")),
    )
    group_size = serializers.IntegerField(
        min_value=2,
        max_value=1024,
        required=False,
        allow_null=True,
        default=None,
        help_text="Groups: the largest.",
        error_messages=_domain_text(gettext_lazy("Groups need a size from 2 to 1024 players, for example 4.")),
    )
    # No bounds of its own: what works depends on the group size, so the service says it ("From 1 to 3 ...").
    advance = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Groups: how many of each group advance to the knockout (1 to the group size less one).",
    )


class FlightUpdateSerializer(KnownFieldsOnly, KnockoutOptionsSerializer):
    """What a director changes of a flight once it is made: its knockout options, check-in deadline, pairing seed
    and clock. A body naming any other field is refused (400) and changes nothing; the fees are set at the
    flight's `fees/`."""

    check_in_deadline = serializers.DateTimeField(required=False, allow_null=True)
    pairing_seed = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="A flight in rounds: the seed its rounds are paired with (0 to 2**62), set before round 1 is "
        "paired; null for a new one at round 1.",
    )
    clock_rule = serializers.ChoiceField(choices=ClockRule.choices, required=False)
    clock_seconds_per_point = serializers.IntegerField(min_value=10, max_value=600, required=False)
    clock_delay_seconds = serializers.IntegerField(min_value=0, max_value=60, required=False)


class EntrySerializer(serializers.ModelSerializer):
    player_name = serializers.SerializerMethodField(
        help_text="The player's name, or the display name they chose where the event's club allows display names. "
        "A flight's detail is the same for everyone (the public form); an entry just made shows the name to the "
        "player and the club's directors."
    )
    status = one_of(EntryStatus.choices, read_only=True)

    class Meta:
        model = Entry
        fields = [
            "id",
            "player",
            "player_name",
            "status",
            "is_late",
            "is_reentry",
            "reentry_number",
            "is_satellite",
            "team_name",
            "fee",
            "seed",
            "rating",
            "draw_position",
            "had_bye",
            "place",
        ]
        read_only_fields = fields

    def get_player_name(self, entry) -> str:
        request = self.context.get("request")
        player = entry.player
        if not player.display_name:
            return player.name
        return names.shown_name(player, viewer=getattr(request, "user", None), club=entry.flight.event.club)


class PlayerInputSerializer(serializers.Serializer):
    player = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), required=False, allow_null=True, help_text="Default: yourself."
    )


class TeamInputSerializer(serializers.Serializer):
    players = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), many=True, help_text="The players, the captain first (a team: board order)."
    )
    team_name = serializers.CharField(
        max_length=120, required=False, allow_blank=True, default="", help_text='Default: "Anna & Ben".'
    )


class LineupInputSerializer(serializers.Serializer):
    players = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), many=True, help_text="The team's players in board order, board 1 first."
    )


class MemberSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = ShownNameField(source="player")  # the event's club, from the context ("names_club")
    order = serializers.IntegerField(help_text="1 for the captain.")


class TeamBoardSerializer(serializers.Serializer):
    board = serializers.IntegerField(help_text="1 is the top board.")
    match = serializers.IntegerField(source="match_id", help_text="Reported and confirmed through /api/v1/matches/.")
    player_a = ShownNameField(
        source="match.player_a", help_text="Team A's player on this board (as the caller may see them)."
    )
    player_b = ShownNameField(
        source="match.player_b", help_text="Team B's player on this board (as the caller may see them)."
    )
    status = serializers.CharField(source="match.status")
    winner = serializers.IntegerField(source="match.winner_id", allow_null=True, help_text="The winning player.")
    score_a = serializers.IntegerField(source="match.score_a", allow_null=True)
    score_b = serializers.IntegerField(source="match.score_b", allow_null=True)


class WithdrawInputSerializer(serializers.Serializer):
    comment = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class DrawInputSerializer(serializers.Serializer):
    seed = serializers.IntegerField(
        min_value=0, max_value=2**62, required=False, allow_null=True, help_text="Reproduce a draw with its seed."
    )


class SwapInputSerializer(serializers.Serializer):
    a = serializers.IntegerField(min_value=0, max_value=4095, help_text="A position of the draw line (0-based).")
    b = serializers.IntegerField(min_value=0, max_value=4095, help_text="The position it changes places with.")


class SlotSerializer(serializers.ModelSerializer):
    result = one_of(SlotResult.choices, read_only=True)
    player_a = serializers.SerializerMethodField()
    player_b = serializers.SerializerMethodField()
    winner_player = serializers.SerializerMethodField()
    match_status = serializers.CharField(source="match.status", read_only=True, default=None, allow_null=True)
    score_a = serializers.IntegerField(source="match.score_a", read_only=True, default=None, allow_null=True)
    score_b = serializers.IntegerField(source="match.score_b", read_only=True, default=None, allow_null=True)
    board = serializers.SerializerMethodField(help_text="The number of the board the match is called to.")
    boards_won = serializers.SerializerMethodField(
        help_text="A team match: the boards each team has won so far, [A, B] (null for any other slot)."
    )

    class Meta:
        model = Slot
        fields = [
            "id",
            "section",
            "round",
            "position",
            "entry_a",
            "entry_b",
            "player_a",
            "player_b",
            "a_empty",
            "b_empty",
            "result",
            "winner",
            "winner_player",
            "match",
            "match_status",
            "score_a",
            "score_b",
            "board",
            "boards_won",
        ]
        read_only_fields = fields

    def get_boards_won(self, slot) -> list[int] | None:
        if not getattr(slot, "team_boards", None):  # the bracket selector's, for a team flight's slots only
            return None
        return [slot.boards_a, slot.boards_b]

    def get_board(self, slot) -> int | None:
        board = slot.called_board
        return None if board is None else board.number

    def _name(self, entry) -> str | None:
        return None if entry is None else entry.name  # a pair's or team's name, else the player's

    def get_player_a(self, slot) -> str | None:
        return self._name(slot.entry_a)

    def get_player_b(self, slot) -> str | None:
        return self._name(slot.entry_b)

    def get_winner_player(self, slot) -> int | None:
        return None if slot.winner is None else slot.winner.player_id


class RoundSerializer(serializers.Serializer):
    section = serializers.CharField()
    number = serializers.IntegerField()
    title = serializers.CharField()
    slots = SlotSerializer(many=True)


class FlightDetailSerializer(serializers.Serializer):
    flight = FlightSerializer()
    entries = EntrySerializer(many=True)
    rounds = RoundSerializer(many=True)
    no_shows = EntrySerializer(many=True, help_text="With a check-in deadline: entries not checked in, not drawn.")


class PlacementSerializer(serializers.Serializer):
    entry_id = serializers.IntegerField()
    player_id = serializers.IntegerField()
    place = serializers.IntegerField(allow_null=True)


class PaidLineSerializer(serializers.Serializer):
    flight = serializers.CharField(source="share.flight")
    place = serializers.IntegerField(source="share.place")
    percent = DecimalField(source="share.percent", max_digits=6, decimal_places=2)
    amount_cents = serializers.IntegerField(source="amount")
    holders = serializers.ListField(child=serializers.CharField())
    each_cents = serializers.ListField(child=serializers.IntegerField(), source="each")


class PrizeWinnerSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    amount_cents = serializers.IntegerField(source="amount")
    paid_cents = serializers.IntegerField(source="paid", allow_null=True, help_text="Marked paid by the club.")
    received = serializers.BooleanField(help_text="The winner (or a director) confirmed it arrived.")


class PrizeAwardSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    covers = serializers.ListField(child=serializers.IntegerField(), help_text="The paid places a tie shares.")
    winners = PrizeWinnerSerializer(many=True)


class PaidPlaceSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    percent = DecimalField(max_digits=6, decimal_places=2)
    amount_cents = serializers.IntegerField(source="amount")


class TablePrizesSerializer(serializers.Serializer):
    name = serializers.CharField()
    house_percent = DecimalField(max_digits=5, decimal_places=2)
    collected_cents = serializers.IntegerField(source="pool.collected")
    house_cents = serializers.IntegerField(source="pool.house")
    added_cents = serializers.IntegerField(source="pool.added")
    net_cents = serializers.IntegerField(source="pool.net")
    return_percent = DecimalField(source="pool.return_percent", max_digits=7, decimal_places=1, allow_null=True)
    places = PaidPlaceSerializer(many=True)
    awards = PrizeAwardSerializer(many=True)


class PrizeSerializer(serializers.Serializer):
    flight = serializers.CharField(source="flight.slug")
    entries = serializers.IntegerField()
    pool_cents = serializers.IntegerField(source="payout.pool")
    house_cents = serializers.IntegerField(source="payout.house")
    net_cents = serializers.IntegerField(source="payout.net")
    lines = PaidLineSerializer(many=True, source="payout.lines")
    table = TablePrizesSerializer(allow_null=True, help_text="A payout table that grows with the field, if set.")


class PayoutInputSerializer(serializers.Serializer):
    payout_template = serializers.ListField(child=serializers.DictField())


class TableSerializer(serializers.Serializer):
    """A table of the tournament day in any format (tournaments.selectors.tables.Table)."""

    id = serializers.IntegerField(source="row.pk", help_text="The bracket slot's or the round pairing's id.")
    kind = serializers.SerializerMethodField(help_text='"slot" (a knockout match) or "pairing" (a round\'s table).')
    event = serializers.CharField(source="event.name")
    event_slug = serializers.SlugField(source="event.slug")
    club = serializers.SlugField(source="event.club.slug")
    flight = serializers.CharField(source="flight.name")
    flight_slug = serializers.SlugField(source="flight.slug")
    round = serializers.IntegerField()
    label = serializers.CharField(help_text='"Semi-final", "Round 3, table 2", "Group B, round 2, table 1".')
    table = serializers.IntegerField(source="number", allow_null=True, help_text="The round's table number.")
    team_board = serializers.IntegerField(allow_null=True, help_text="The board of a team match.")
    state = serializers.ChoiceField(
        choices=["waiting", "ready", "called", "in_progress", "reported", "disputed", "decided"]
    )
    player_a = serializers.CharField(source="name_a", allow_null=True)
    player_b = serializers.CharField(source="name_b", allow_null=True)
    player_a_id = serializers.IntegerField(source="player_ids.0", allow_null=True)
    player_b_id = serializers.IntegerField(source="player_ids.1", allow_null=True)
    match = serializers.IntegerField(source="match_id", allow_null=True)
    board = serializers.SerializerMethodField(help_text="The board the table is called to.")

    def get_kind(self, table) -> str:
        return "slot" if table.slot_id is not None else "pairing"

    def get_board(self, table) -> int | None:
        return None if table.board is None else table.board.number


class DashboardSerializer(serializers.Serializer):
    ready = TableSerializer(many=True)
    in_progress = TableSerializer(many=True)
    reported = TableSerializer(many=True)
    waiting = TableSerializer(many=True)
    disputed = TableSerializer(many=True)


class RoundForecastSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    length = serializers.IntegerField()
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField()


class FlightForecastSerializer(serializers.Serializer):
    flight = serializers.SlugField(source="flight.slug")
    rounds = RoundForecastSerializer(many=True, source="forecast.rounds")
    ends_at = serializers.DateTimeField(source="forecast.ends_at", allow_null=True)
    ends_after_closing = serializers.BooleanField(source="late")


class CascadeSerializer(serializers.Serializer):
    slot = serializers.IntegerField(source="slot.pk")
    label = serializers.CharField(source="slot")
    match = serializers.IntegerField(source="slot.match_id", allow_null=True)
    started = serializers.BooleanField()


class OverrideInputSerializer(serializers.Serializer):
    winner_side = serializers.ChoiceField(choices=[0, 1], required=False, allow_null=True)
    outcome = serializers.ChoiceField(choices=MatchOutcome.choices, default=MatchOutcome.FORFEIT)
    score_a = serializers.IntegerField(min_value=0, max_value=99, required=False)
    score_b = serializers.IntegerField(min_value=0, max_value=99, required=False)
    comment = serializers.CharField(max_length=2000)


# --- views ------------------------------------------------------------------------------------------------
#
# ViewSets like the rest of the API, with their actions routed by hand in api_urls.py: an event is named by two
# slugs (club and event) and a flight by a third, which a router's single lookup cannot express.


def _event(request, club: str, slug: str) -> Event:
    return selectors.event_or_404(user=request.user, club_slug=club, slug=slug)


def event_in(request, club: str, slug: str) -> Event:
    """The event named in the URL, if the user may see it (404 otherwise)."""
    return _event(request, club, slug)


def _names_context(request, flight: Flight) -> dict:
    """A serializer context naming players as the caller may see them on a page of the event's club."""
    return {"request": request, "names_club": flight.event.club}


def flight_in(request, club: str, slug: str, flight: str) -> Flight:
    """The flight named in the URL, of an event the user may see (404 otherwise): every flight endpoint's first read."""
    return selectors.flight_or_404(user=request.user, club_slug=club, event_slug=slug, slug=flight)


def _awarded_flight(event: Event, data: dict) -> None:
    """A satellite names the flight it awards an entry to by its short name: replaced by the flight in `data`."""
    if data.get("awards_entry_to"):
        target = selectors.flight_for(event=event, slug=data["awards_entry_to"])
        if target is None:
            raise DjangoValidationError({"awards_entry_to": ["No flight with this short name in the event."]})
        data["awards_entry_to"] = target


def _entry(flight: Flight, pk: int) -> Entry:
    entry = selectors.entry_in(flight=flight, pk=pk)
    if entry is None:
        raise Http404("No such entry in this flight.")
    return entry


def _slot(flight: Flight, pk: int) -> Slot:
    slot = selectors.slot_in(flight=flight, pk=pk)
    if slot is None:
        raise Http404("No such slot in this flight.")
    return slot


# Events the caller may see; writes by the club's and the event's directors (checked by the services). No class
# docstrings on these ViewSets: the schema would repeat one as the description of every operation.
class EventViewSet(viewsets.ViewSet):
    permission_classes = [AllowAny]

    def get_permissions(self):
        if self.action in ("dashboard", "forecast", "next_matches"):
            return [IsAuthenticated()]
        return super().get_permissions()

    @extend_schema(responses=EventSerializer(many=True))
    def list(self, request):
        events = selectors.events_with_flights(user=request.user)[:200]
        return Response(EventSerializer(events, many=True).data)

    @extend_schema(request=EventInputSerializer, responses={201: EventSerializer})
    def create(self, request):
        if not request.user.is_authenticated:
            raise PermissionDenied("Sign in to create an event.")
        data = validated(EventInputSerializer, request)
        event = services.create_event(actor=request.user, **data)
        return Response(EventSerializer(event).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses=EventSerializer)
    def retrieve(self, request, club, slug):
        return Response(EventSerializer(_event(request, club, slug)).data)

    @extend_schema(request=EventUpdateSerializer, responses=EventSerializer)
    def partial_update(self, request, club, slug):
        event = _event(request, club, slug)
        data = validated(EventUpdateSerializer, request)
        return Response(EventSerializer(services.update_event(actor=request.user, event=event, **data)).data)

    @extend_schema(request=FlightInputSerializer, responses={201: FlightSerializer})
    def add_flight(self, request, club, slug):
        event = _event(request, club, slug)
        data = validated(FlightInputSerializer, request)
        source, source_slug = None, data.pop("source")
        if source_slug:
            source = selectors.flight_for(event=event, slug=source_slug)
            if source is None:
                raise DjangoValidationError({"source": ["No flight with this short name in the event."]})
        _awarded_flight(event, data)
        flight = services.add_flight(actor=request.user, event=event, source=source, **data)
        return Response(FlightSerializer(flight).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses=PrizeSerializer(many=True))
    def prizes(self, request, club, slug):
        event = _event(request, club, slug)
        return Response(PrizeSerializer(selectors.prize_list(event=event, viewer=request.user), many=True).data)

    @extend_schema(responses=DashboardSerializer)
    def dashboard(self, request, club, slug):
        event = _event(request, club, slug)
        access.require(request.user, "event.direct", event)
        return Response(DashboardSerializer(selectors.dashboard(event=event)).data)

    @extend_schema(
        responses=FlightForecastSerializer(many=True),
        description="Expected round starts and end of each flight from the club's match durations.",
    )
    def forecast(self, request, club, slug):
        event = _event(request, club, slug)
        access.require(request.user, "event.direct", event)
        times = selectors.event_forecast(event=event, now=timezone.now())
        return Response(FlightForecastSerializer(times, many=True).data)

    @extend_schema(responses=TableSerializer(many=True))
    def next_matches(self, request):
        player = club_selectors.player_for_user(request.user)
        tables = [] if player is None else selectors.next_matches(player=player)
        return Response(TableSerializer(tables, many=True).data)


# A flight's bracket, entries, draw, payouts and overrides. Reads are public with the event; every write needs a
# signed-in caller and is checked by the service (a director, or the player themself).
class FlightViewSet(viewsets.ViewSet):
    def get_permissions(self):
        return [AllowAny()] if self.action in ("retrieve", "placements", "members", "boards") else [IsAuthenticated()]

    @extend_schema(responses=FlightDetailSerializer)
    def retrieve(self, request, club, slug, flight):
        """The same answer for everyone who may see the event: cached per flight version and language."""
        found = flight_in(request, club, slug, flight)

        def detail() -> dict:
            data = {
                "flight": found,
                "entries": selectors.flight_entries(flight=found),
                "rounds": selectors.bracket(flight=found),
                "no_shows": selectors.no_shows(flight=found),
            }
            return dict(FlightDetailSerializer(data).data)

        return Response(selectors.cached_rendering(flight=found, kind="api", build=detail))

    @extend_schema(request=FlightUpdateSerializer, responses=FlightSerializer)
    def partial_update(self, request, club, slug, flight):
        found = flight_in(request, club, slug, flight)
        data = validated(FlightUpdateSerializer, request)
        _awarded_flight(found.event, data)
        return Response(FlightSerializer(services.update_flight(actor=request.user, flight=found, **data)).data)

    @extend_schema(responses=PlacementSerializer(many=True))
    def placements(self, request, club, slug, flight):
        found = flight_in(request, club, slug, flight)
        return Response(PlacementSerializer(selectors.flight_placements(flight=found), many=True).data)

    @extend_schema(request=PlayerInputSerializer, responses={201: EntrySerializer})
    def register(self, request, club, slug, flight):
        found = flight_in(request, club, slug, flight)
        data = validated(PlayerInputSerializer, request)
        entry = services.register(actor=request.user, flight=found, player=data.get("player"))
        return Response(EntrySerializer(entry, context={"request": request}).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=TeamInputSerializer, responses={201: EntrySerializer})
    def register_team(self, request, club, slug, flight):
        """A doubles or consultation pair or a team, entered by a director (each player must be one the caller may
        enter); the players' order is a team's lineup, board 1 first."""
        found = flight_in(request, club, slug, flight)
        data = validated(TeamInputSerializer, request)
        entry = services.register_team(
            actor=request.user, flight=found, players=data["players"], team_name=data["team_name"]
        )
        return Response(EntrySerializer(entry, context={"request": request}).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses=MemberSerializer(many=True))
    def members(self, request, club, slug, flight, pk):
        """The players of a pair or team entry, the captain first (empty for a singles entry)."""
        found = flight_in(request, club, slug, flight)
        members = selectors.entry_members(entry=_entry(found, pk))
        return Response(MemberSerializer(members, many=True, context=_names_context(request, found)).data)

    @extend_schema(request=LineupInputSerializer, responses=MemberSerializer(many=True))
    def set_lineup(self, request, club, slug, flight, pk):
        """A team's captain or a director sets its board order (the same players, board 1 first); it is played
        from the team's next match on."""
        found = flight_in(request, club, slug, flight)
        entry = _entry(found, pk)
        data = validated(LineupInputSerializer, request)
        members = services.set_lineup(actor=request.user, entry=entry, players=data["players"])
        return Response(MemberSerializer(members, many=True, context=_names_context(request, found)).data)

    @extend_schema(responses=TeamBoardSerializer(many=True))
    def boards(self, request, club, slug, flight, pk):
        """A team match's boards (empty for a slot of a singles or pair flight), board 1 first."""
        found = flight_in(request, club, slug, flight)
        boards = selectors.slot_boards(slot=_slot(found, pk))
        return Response(TeamBoardSerializer(boards, many=True, context=_names_context(request, found)).data)

    @extend_schema(request=PlayerInputSerializer, responses={201: EntrySerializer})
    def reenter(self, request, club, slug, flight):
        found = flight_in(request, club, slug, flight)
        data = validated(PlayerInputSerializer, request)
        player = data.get("player") or club_selectors.player_for_user(request.user)
        if player is None:
            raise DjangoValidationError({"player": ["Choose the player who re-enters."]})
        entry = services.reenter(actor=request.user, flight=found, player=player)
        return Response(EntrySerializer(entry, context={"request": request}).data, status=status.HTTP_201_CREATED)

    @idempotent
    @extend_schema(request=None, responses=EntrySerializer)
    def check_in(self, request, club, slug, flight, pk):
        entry = _entry(flight_in(request, club, slug, flight), pk)
        return Response(EntrySerializer(services.check_in(actor=request.user, entry=entry)).data)

    @extend_schema(
        request=None,
        responses={200: EntrySerializer},
        description="A director undoes a check-in (back to registered) before the draw or round 1; after it 409 "
        "`check_in_used`.",
    )
    def undo_check_in(self, request, club, slug, flight, pk):
        entry = _entry(flight_in(request, club, slug, flight), pk)
        return Response(EntrySerializer(services.undo_check_in(actor=request.user, entry=entry)).data)

    @idempotent
    @extend_schema(request=WithdrawInputSerializer, responses={200: EntrySerializer, 204: None})
    def withdraw(self, request, club, slug, flight, pk):
        entry = _entry(flight_in(request, club, slug, flight), pk)
        data = validated(WithdrawInputSerializer, request)
        kept = services.withdraw(actor=request.user, entry=entry, comment=data["comment"])
        if kept is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(EntrySerializer(kept).data)

    @extend_schema(
        request=DrawInputSerializer,
        responses=FlightSerializer,
        description="Draw round 1 (again, while the draw is a draft).",
    )
    def draw(self, request, club, slug, flight):
        found = flight_in(request, club, slug, flight)
        data = validated(DrawInputSerializer, request)
        found = services.draw_flight(actor=request.user, flight=found, seed=data.get("seed"))
        return Response(FlightSerializer(found).data)

    @extend_schema(
        request=SwapInputSerializer,
        responses=FlightDetailSerializer,
        description="Swap two positions of a draft draw (refused once the draw is confirmed).",
    )
    def swap_draw(self, request, club, slug, flight):
        found = flight_in(request, club, slug, flight)
        data = validated(SwapInputSerializer, request)
        services.swap_draft_positions(actor=request.user, flight=found, a=data["a"], b=data["b"])
        return self.retrieve(request, club, slug, flight)

    @extend_schema(request=None, responses=FlightSerializer, description="Confirm a draft draw: no redraw after this.")
    def confirm_draw(self, request, club, slug, flight):
        found = services.confirm_draw(actor=request.user, flight=flight_in(request, club, slug, flight))
        return Response(FlightSerializer(found).data)

    @extend_schema(
        request=None,
        responses=FlightSerializer,
        description="Publish a confirmed draw: the bracket is laid out and round-1 matches are created.",
    )
    def release_draw(self, request, club, slug, flight):
        found = services.release_draw(actor=request.user, flight=flight_in(request, club, slug, flight))
        return Response(FlightSerializer(found).data)

    @extend_schema(request=PayoutInputSerializer, responses=FlightSerializer)
    def payouts(self, request, club, slug, flight):
        found = flight_in(request, club, slug, flight)
        data = validated(PayoutInputSerializer, request)
        flight_obj = services.set_payout_template(actor=request.user, flight=found, template=data["payout_template"])
        return Response(FlightSerializer(flight_obj).data)

    @extend_schema(responses=CascadeSerializer(many=True), description="Which later matches an override would void.")
    def override_preview(self, request, club, slug, flight, pk):
        slot = _slot(flight_in(request, club, slug, flight), pk)
        return Response(CascadeSerializer(services.override_preview(actor=request.user, slot=slot), many=True).data)

    @idempotent
    @extend_schema(
        request=OverrideInputSerializer,
        responses=SlotSerializer,
        description="Apply an override: the later matches it voids are annulled and the players routed again.",
    )
    def override(self, request, club, slug, flight, pk):
        slot = _slot(flight_in(request, club, slug, flight), pk)
        data = validated(OverrideInputSerializer, request)
        scores = (data["score_a"], data["score_b"]) if "score_a" in data and "score_b" in data else None
        slot = services.override_result(
            actor=request.user,
            slot=slot,
            winner_side=data.get("winner_side"),
            outcome=data["outcome"],
            scores=scores,
            comment=data["comment"],
        )
        return Response(SlotSerializer(_slot(slot.flight, slot.pk)).data)
