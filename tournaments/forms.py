from django import forms
from django.utils.translation import gettext_lazy as _

from base.fields import DecimalFormField
from games.models.matches import MatchOutcome
from games.models.variants import DaveProgression, GameVariant, StakeForm
from tournaments.models import ClockRule, FeedRule, FlightKind, Seeding, TeamKind


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
        for name in ("variant", "stakes", "dave_progression"):  # not chosen: the source flight's, else standard
            data[name] = data.get(name) or None
        data["team_kind"] = data.get("team_kind") or TeamKind.SINGLES  # an older page without the field: singles
        return data

    def __init__(self, *args, flights, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["source"].choices = [("", "—")] + [(f.slug, f.name) for f in flights]
        self.fields["awards_entry_to"].choices = self.fields["source"].choices


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
        self.fields["winner_side"].choices = [(0, slot.entry_a.player.name), (1, slot.entry_b.player.name)]
