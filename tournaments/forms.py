from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from base.fields import DecimalFormField
from games.matchplay.forms import setting_fields
from games.models.matches import MatchOutcome
from games.models.variants import (
    DEFAULT_FORM,
    DaveProgression,
    GameVariant,
    StakeForm,
    settings_not_of,
)
from tournaments.core.names import NameMatch, match_names, name_key, split_names
from tournaments.formats import FORMATS
from tournaments.models import ClockRule, FeedRule, FlightFormat, FlightKind, QualifyingTies, Seeding, TeamKind


class EventForm(forms.Form):
    club = forms.ChoiceField(label=_("Club"))
    name = forms.CharField(label=_("Name"), max_length=120)
    starts_on = forms.DateField(label=_("Starts on"), widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(label=_("Ends on"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    is_public = forms.BooleanField(label=_("Public"), required=False, initial=True)
    house_percent = DecimalFormField(
        label=_("House percentage"), max_digits=5, decimal_places=2, min_value=0, max_value=100, initial=0
    )

    def __init__(self, *args, clubs, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["club"].choices = [(c.slug, c.name) for c in clubs]


class FlightForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    kind = forms.ChoiceField(label=_("Kind"), choices=FlightKind.choices)
    source = forms.ChoiceField(label=_("Fed by"), required=False)
    feed_rule = forms.ChoiceField(
        label=_("Feed rule"),
        required=False,
        choices=[("", "—")] + [(v, label) for v, label in FeedRule.choices if v not in ("draw", "pool")],
    )
    feed_rounds = forms.IntegerField(label=_("Feed rounds"), min_value=1, max_value=12, initial=1)
    entry_fee = DecimalFormField(label=_("Entry fee"), max_digits=9, decimal_places=2, min_value=0, initial=0)
    length = forms.IntegerField(label=_("Match length"), min_value=1, max_value=99, initial=7)
    final_length = forms.IntegerField(label=_("Final length"), min_value=1, max_value=99, required=False)
    variant = forms.ChoiceField(
        label=_("Game"),
        required=False,
        choices=[("", _("As the source flight (else backgammon)")), *GameVariant.choices],
    )
    stakes = forms.ChoiceField(label=_("Stakes"), required=False, choices=[("", "—"), *StakeForm.choices])
    dave_progression = forms.ChoiceField(
        label=_("Dave progression"), required=False, choices=[("", "—"), *DaveProgression.choices]
    )
    backward_hits, head_doubles, six_block = setting_fields(blank=_("As the source flight (else default)"))
    seeding = forms.ChoiceField(label=_("Seeding"), choices=Seeding.choices)
    separate_clubs = forms.BooleanField(label=_("Keep players of one club apart in round 1"), required=False)
    reentry_fee = DecimalFormField(label=_("Re-entry fee"), max_digits=9, decimal_places=2, min_value=0, required=False)
    reentry_deadline = forms.DateTimeField(
        label=_("Re-entry deadline"), required=False, widget=forms.DateTimeInput(attrs={"type": "datetime-local"})
    )
    check_in_deadline = forms.DateTimeField(
        label=_("Check-in deadline"),
        required=False,
        help_text=_("When set, the draw takes only the players who have checked in."),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    clock_rule = forms.ChoiceField(label=_("Clock"), choices=ClockRule.choices, initial=ClockRule.NONE, required=False)
    clock_seconds_per_point = forms.IntegerField(
        label=_("Clock seconds per point"), min_value=10, max_value=600, initial=120, required=False
    )
    clock_delay_seconds = forms.IntegerField(
        label=_("Clock delay (seconds)"), min_value=0, max_value=60, initial=12, required=False
    )
    payout_template = forms.CharField(
        label=_("Payouts"),
        required=False,
        help_text=_("Place:percent, e.g. 1:50, 2:25, consolation 1:25 (another flight's place by its short name)."),
    )

    grand_final_reset = forms.BooleanField(
        label=_("Grand-final reset (double elimination: the winners' finalist must be beaten twice)"), required=False
    )
    third_place = forms.BooleanField(label=_("Third-place match"), required=False)
    playoff_second = forms.BooleanField(
        label=_("Playoff for 2nd"),
        required=False,
        help_text=_("The main final's loser plays the consolation's winner: the winner is 2nd, the loser 3rd."),
    )
    seed_top_n = forms.IntegerField(
        label=_("Seed only the top"),
        min_value=1,
        max_value=4096,
        required=False,
        help_text=_("Seeded by rating: only this many best players are seeded, the rest drawn at random."),
    )
    max_reentries = forms.IntegerField(
        label=_("Re-entries per player"), min_value=0, max_value=20, initial=1, required=False
    )
    reentry_until_round = forms.IntegerField(label=_("Re-entry until round"), min_value=1, max_value=20, required=False)
    pod_size = forms.TypedChoiceField(
        label=_("Jackpot pod size"),
        required=False,
        coerce=int,
        empty_value=None,
        choices=[("", "—"), (4, "4"), (8, "8"), (16, "16")],
    )
    awards_entry_to = forms.ChoiceField(label=_("Satellite: the winner gets an entry to"), required=False)
    team_kind = forms.ChoiceField(label=_("Entries are"), choices=TeamKind.choices, required=False)
    team_size = forms.IntegerField(
        label=_("Boards per team match"),
        min_value=1,
        max_value=9,
        required=False,
        help_text=_("A team event only: 2 to 9 boards (a team is as many players)."),
    )

    # The round formats' options. No bounds here: the service refuses impossible values (0 rounds, a group of
    # one) with a message that says what would work, and the page shows it on the field.
    format = forms.ChoiceField(
        label=_("Format"), choices=FlightFormat.choices, initial=FlightFormat.KNOCKOUT, required=False
    )
    rounds = forms.IntegerField(label=_("Rounds"), required=False)
    until_one_unbeaten = forms.BooleanField(label=_("Until one player is unbeaten"), required=False)
    tiebreaks = forms.CharField(
        label=_("Tie-break order"),
        required=False,
        max_length=200,
        help_text=_(
            "In order, separated by commas: wins, buchholz, median_buchholz, sonneborn_berger, head_to_head, "
            "points_difference, points_for. Empty: the format's usual order."
        ),
    )
    cut_size = forms.IntegerField(
        label=_("Cut: the top players then play a knockout"), required=False, help_text=_("Empty: no cut.")
    )
    cycles = forms.TypedChoiceField(
        label=_("Everyone meets"),
        coerce=int,
        initial=1,
        required=False,
        choices=[(1, _("once (single round robin)")), (2, _("twice (double round robin)"))],
    )
    group_size = forms.IntegerField(label=_("Group size (the largest group)"), required=False)
    advance = forms.IntegerField(label=_("Advance from each group to the knockout"), required=False)
    auto_pair = forms.BooleanField(
        label=_("Pair the next round when the last result of a round is in"), required=False, initial=True
    )
    qualifying_ties = forms.ChoiceField(
        label=_("Players tied at the qualifying line"),
        choices=QualifyingTies.choices,
        initial=QualifyingTies.LOT,
        required=False,
    )

    def clean_payout_template(self) -> list:
        lines = []
        for part in filter(None, (p.strip() for p in self.cleaned_data["payout_template"].split(","))):
            flight, _sep, share = part.rpartition(" ")
            place, colon, percent = share.partition(":")
            if not colon:
                raise forms.ValidationError(_("Write each share as place:percent, e.g. 1:50."))
            lines.append({"flight": flight.strip(), "place": place.strip(), "percent": percent.strip()})
        return lines

    def clean(self) -> dict:
        data = _clock_defaults(super().clean())
        if data.get("max_reentries") is None:
            data["max_reentries"] = 1  # a form sent without it (an older page, a script): once, as before
        for name in DEFAULT_FORM:  # not chosen: the source flight's, else standard
            data[name] = data.get(name) or None
        for name in settings_not_of(data["variant"]):  # hidden on the page: not chosen
            data[name] = None
        data["team_kind"] = data.get("team_kind") or TeamKind.SINGLES  # an older page without the field: singles
        return _format_options(data)

    #: The page's groups of fields: (legend, the formats it belongs to, fields); the stylesheet hides a group whose
    #: formats do not include the chosen one (without it, the legends say which format each group is for).
    FIELDSETS = (
        (_("The flight"), "", ("name", "kind", "format", "length", "final_length", "entry_fee", "payout_template")),
        (_("Pairs and teams"), "", ("team_kind", "team_size")),
        (_("Swiss"), None, ("rounds", "until_one_unbeaten")),
        (_("Round robin and groups"), None, ("cycles",)),
        (_("Groups"), None, ("group_size", "advance")),
        (_("Every format played in rounds"), None, ("tiebreaks", "auto_pair", "qualifying_ties")),
        (_("Cut to a knockout"), None, ("cut_size",)),
        (
            _("Knockout"),
            "knockout",
            ("source", "feed_rule", "feed_rounds", "seeding", "separate_clubs", "third_place", "playoff_second")
            + ("grand_final_reset",)
            + ("seed_top_n", "pod_size", "awards_entry_to"),
        ),
        (
            _("Re-entry (knockout)"),
            "knockout",
            ("reentry_fee", "reentry_deadline", "max_reentries", "reentry_until_round"),
        ),
        (
            _("Game and day"),
            "",
            ("variant", "stakes", "dave_progression", "backward_hits", "head_doubles", "six_block")
            + ("check_in_deadline", "clock_rule")
            + ("clock_seconds_per_point", "clock_delay_seconds"),
        ),
    )

    def fieldsets(self) -> list[dict]:
        """A group whose formats are None belongs to every format that takes one of its fields."""
        return [
            {
                "legend": legend,
                "formats": formats
                if formats is not None
                else " ".join(key for key, taken in FORMAT_OPTIONS.items() if taken & set(names)),
                "fields": [self[name] for name in names],
            }
            for legend, formats, names in self.FIELDSETS
        ]

    def __init__(self, *args, flights, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["source"].choices = [("", "—")] + [(f.slug, f.name) for f in flights]
        self.fields["awards_entry_to"].choices = self.fields["source"].choices


#: Which round options each format takes (tournaments.formats says); the page shows only those (the others stay
#: hidden or apart). Every round format pairs itself or not, and says how a tie at its qualifying line is decided.
FORMAT_OPTIONS = {
    key: set(form.options) | ({"auto_pair", "qualifying_ties"} if form.round_based else set())
    for key, form in FORMATS.items()
}
OFF = {"rounds": None, "until_one_unbeaten": False, "tiebreaks": None, "cut_size": None, "cycles": 1}
OFF |= {"group_size": None, "advance": None, "auto_pair": True, "qualifying_ties": QualifyingTies.LOT}


def _format_options(data: dict) -> dict:
    """Options of another format than the one chosen are left out: the page hides them, so a value left in one
    from an earlier choice is nothing the director meant (and the service would refuse it for this format). A
    form sent without a format (an older page, a script) is a knockout."""
    chosen = data.get("format") or FlightFormat.KNOCKOUT
    data["format"] = chosen
    for name, off in OFF.items():
        if name not in FORMAT_OPTIONS.get(chosen, set()) or data.get(name) in (None, ""):
            data[name] = off
    if data["tiebreaks"]:
        data["tiebreaks"] = [t.strip() for t in data["tiebreaks"].replace(";", ",").split(",") if t.strip()]
    return data


class EntryListForm(forms.Form):
    """A director's list of players to enter into one flight: members ticked on the checklist and names pasted
    (one a line or comma-separated). `matching` (after is_valid) is what they come to, for the preview page:
    the members to enter, those already entered, and the pasted names that fit several members or none
    (tournaments.core.names: case, accents and spaces ignored). A ticked id that is no member offered here is
    a form error (a stale or forged page), not a name to guess."""

    players = forms.TypedMultipleChoiceField(
        label=_("Club members"), coerce=int, required=False, widget=forms.CheckboxSelectMultiple
    )
    names = forms.CharField(
        label=_("Or paste names, one a line or separated by commas"),
        required=False,
        max_length=20000,
        widget=forms.Textarea(attrs={"rows": 4}),
    )

    def __init__(self, *args, members, entered, **kwargs):
        super().__init__(*args, **kwargs)
        self.members = {p.pk: p for p in members}
        self.entered = set(entered)
        self.fields["players"].choices = [(p.pk, p.name) for p in members]
        self.matching = NameMatch()

    def clean(self):
        data = super().clean()
        ticked = list(dict.fromkeys(data.get("players") or []))
        pasted = split_names(data.get("names") or "")
        if not ticked and not pasted and not self.errors:
            raise forms.ValidationError(_("Tick the players to enter or paste their names."))
        by_names = match_names(pasted, ((p.pk, p.name) for p in self.members.values()), self.entered)
        matching = NameMatch()
        for pk in ticked:
            row = (self.members[pk].name, pk)
            (matching.already if pk in self.entered else matching.matched).append(row)
        seen = set(ticked)
        matching.matched.extend(row for row in by_names.matched if row[1] not in seen)
        matching.already.extend(row for row in by_names.already if row[1] not in seen)
        # a name that fits several members is settled once one of them is ticked (the preview offers them)
        matching.ambiguous.extend(row for row in by_names.ambiguous if not seen & set(row[1]))
        matching.unknown.extend(by_names.unknown)
        self.matching = matching
        return data


def checklist(members, entered) -> list[dict]:
    """The rows of a flight's checklist of members: the player, the key the filter box compares (the same
    spelling rule as the pasted names) and whether they are entered already (shown ticked and disabled)."""
    entered = set(entered)
    return [{"player": p, "key": name_key(p.name), "entered": p.pk in entered} for p in members]


class SwapForm(forms.Form):
    """Two places of a draft draw's line, numbered from 1 as the page shows them."""

    a = forms.IntegerField(label=_("Swap place"), min_value=1, max_value=4096)
    b = forms.IntegerField(label=_("with place"), min_value=1, max_value=4096)


class FlightDayForm(forms.Form):
    """A flight's day-of settings, changed on its page: the check-in deadline and the clock."""

    check_in_deadline = FlightForm.base_fields["check_in_deadline"]
    clock_rule = FlightForm.base_fields["clock_rule"]
    clock_seconds_per_point = FlightForm.base_fields["clock_seconds_per_point"]
    clock_delay_seconds = FlightForm.base_fields["clock_delay_seconds"]

    def clean(self) -> dict:
        return _clock_defaults(super().clean())

    @classmethod
    def for_flight(cls, flight) -> "FlightDayForm":
        """The form showing the flight's settings (the deadline in local time, as the datetime-local input)."""
        deadline = flight.check_in_deadline
        return cls(
            initial={
                "check_in_deadline": timezone.localtime(deadline).strftime("%Y-%m-%dT%H:%M") if deadline else None,
                "clock_rule": flight.clock_rule,
                "clock_seconds_per_point": flight.clock_seconds_per_point,
                "clock_delay_seconds": flight.clock_delay_seconds,
            }
        )


def _clock_defaults(data: dict) -> dict:
    """A form sent without the clock fields (an older page, a script) means no clock, at the usual setting."""
    defaults = {"clock_rule": ClockRule.NONE, "clock_seconds_per_point": 120, "clock_delay_seconds": 12}
    for name, default in defaults.items():
        if data.get(name) in (None, ""):
            data[name] = default
    return data


class ClosingTimeForm(forms.Form):
    closes_at = forms.DateTimeField(
        label=_("Closing time"),
        required=False,
        help_text=_("When the venue closes: the forecast warns when a flight would end later."),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )


class EventCapForm(forms.Form):
    cap = forms.IntegerField(
        label=_("Event cap (empty: none)"),
        required=False,
        min_value=1,
        max_value=100_000,
        help_text=_(
            "At most this many entries across the event's flights; more join the waiting lists. A player entered "
            "in two flights counts twice; jackpots, side pools, consolation flights fed by another flight and "
            "re-entries do not count."
        ),
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "size": 5}),
    )


class WithdrawalRefundForm(forms.Form):
    withdrawal_refund_percent = forms.IntegerField(
        label=_("Refund on withdrawal before the draw (%)"),
        min_value=0,
        max_value=100,
        help_text=_(
            "How much of a paid entry fee a player who withdraws before the draw gets back: 100 refunds it all, "
            "0 nothing. The refund is recorded on the payments page when the money goes back."
        ),
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "size": 4}),
    )


class OverrideForm(forms.Form):
    winner_side = forms.TypedChoiceField(label=_("Winner"), coerce=int, widget=forms.RadioSelect)
    outcome = forms.ChoiceField(
        label=_("Outcome"),
        choices=[(o.value, o.label) for o in MatchOutcome if o.value in ("played", "forfeit", "walkover")],
    )
    score_a = forms.IntegerField(min_value=0, max_value=99, required=False)
    score_b = forms.IntegerField(min_value=0, max_value=99, required=False)
    comment = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, slot, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["winner_side"].choices = [(0, slot.entry_a.name), (1, slot.entry_b.name)]


class CorrectionForm(forms.Form):
    """A director's corrected result of a round's table: who won (or nobody: a double forfeit), how, and why."""

    winner_side = forms.ChoiceField(label=_("Winner"), required=False, widget=forms.RadioSelect)
    outcome = forms.ChoiceField(
        label=_("Outcome"),
        choices=[(o.value, o.label) for o in MatchOutcome if o.value in ("played", "forfeit", "double_forfeit")],
    )
    score_a = OverrideForm.base_fields["score_a"]
    score_b = OverrideForm.base_fields["score_b"]
    comment = OverrideForm.base_fields["comment"]

    def __init__(self, *args, pairing, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["winner_side"].choices = [
            ("0", pairing.entry_a.name),
            ("1", pairing.entry_b.name),
            ("none", _("Nobody (double forfeit)")),
        ]
        self.fields["score_a"].label = pairing.entry_a.name
        self.fields["score_b"].label = pairing.entry_b.name

    def clean(self) -> dict:
        """A played result's winner is whoever scored more (so the radio and the score cannot disagree); a
        double forfeit has none."""
        data = super().clean()
        data["winner_side"] = {"0": 0, "1": 1}.get(data.get("winner_side") or "")
        if self.data.get("winner_side") == "none":
            data["outcome"] = "double_forfeit"
        a, b = data.get("score_a"), data.get("score_b")
        if data.get("outcome") == "played" and a is not None and b is not None and a != b:
            data["winner_side"] = 0 if a > b else 1
        if data.get("outcome") == "double_forfeit":
            data["winner_side"] = None
        elif data.get("winner_side") is None and "outcome" in data:
            self.add_error("winner_side", _("Choose the winner, or a double forfeit."))
        return data

    @property
    def scores(self) -> tuple[int, int] | None:
        a, b = self.cleaned_data.get("score_a"), self.cleaned_data.get("score_b")
        return (a, b) if self.cleaned_data.get("outcome") == "played" and a is not None and b is not None else None
