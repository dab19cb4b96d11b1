from django import forms
from django.utils.translation import gettext_lazy as _

from base.fields import ModelMultipleChoiceField
from chouette.core.table_options import Rules
from clubs.models import Player
from games.models.variants import DaveProgression, StakeForm

OWN_RESULT_CHOICES = [
    ("box:single", _("box won single")),
    ("box:gammon", _("box won a gammon")),
    ("box:backgammon", _("box won a backgammon")),
    ("team:single", _("member won single")),
    ("team:gammon", _("member won a gammon")),
    ("team:backgammon", _("member won a backgammon")),
]
KIND_CHOICES = [("single", _("single")), ("gammon", _("gammon")), ("backgammon", _("backgammon"))]


class SessionForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120, required=False)
    players = ModelMultipleChoiceField(
        label=_("Players"), queryset=Player.objects.none(), widget=forms.CheckboxSelectMultiple, required=False
    )
    invite = ModelMultipleChoiceField(
        label=_("Invite"),
        queryset=Player.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text=_("Each invited player accepts on their own phone; the dice are rolled once 3 players sit."),
    )
    stake_cents = forms.IntegerField(label=_("Stake per point (cents)"), min_value=1, max_value=1_000_000, initial=100)
    stake_form = forms.ChoiceField(label=_("Stakes"), choices=StakeForm.choices, initial=StakeForm.CUBE, required=False)
    dave_progression = forms.ChoiceField(
        label=_("Dave progression"), choices=DaveProgression.choices, initial=DaveProgression.GEOMETRIC, required=False
    )

    def clean_stake_form(self) -> str:
        return self.cleaned_data.get("stake_form") or StakeForm.CUBE  # not sent: the cube, as before

    def clean_dave_progression(self) -> str:
        return self.cleaned_data.get("dave_progression") or DaveProgression.GEOMETRIC

    order_by = forms.ChoiceField(
        label=_("Starting order"),
        choices=[("roll", _("Roll the dice")), ("hand", _("As listed (first is the box)"))],
        initial="roll",
    )
    cubes = forms.ChoiceField(
        label=_("Cubes"), choices=[("multi", _("One cube per team member")), ("single", _("One cube for the team"))]
    )
    box_keeps = forms.ChoiceField(
        label=_("The box keeps the box"),
        choices=[("beats_captain", _("when it beats the captain")), ("net_not_loss", _("when its net is not a loss"))],
    )
    acting_captain = forms.ChoiceField(
        label=_("After the captain drops"),
        choices=[("highest_taker", _("the highest-ranked taker captains")), ("any_taker", _("any taker may captain"))],
    )
    box_min_takes = forms.ChoiceField(
        label=_("The box must take"),
        choices=[
            ("none", _("nothing")),
            ("half", _("at least half of simultaneous initial cubes")),
            ("captain", _("the captain's cube")),
        ],
    )
    partner_from = forms.IntegerField(
        label=_("Partner for the box from (players; 0 = never)"), min_value=0, max_value=20, initial=Rules.partner_from
    )
    partner_required = forms.BooleanField(label=_("Partner mandatory from then on"), required=False)
    max_players = forms.IntegerField(label=_("Largest table"), min_value=3, max_value=20, initial=Rules.max_players)
    partner_split = forms.ChoiceField(
        label=_("Box and partner split"), choices=[("odd_to_box", _("odd point to the box")), ("even", _("evenly"))]
    )
    newcomer = forms.ChoiceField(
        label=_("A newcomer joins"),
        choices=[("bottom", _("at the bottom")), ("ahead_of_loser", _("ahead of the player who just lost"))],
    )
    jacoby = forms.BooleanField(label=_("Jacoby"), required=False, initial=True)
    beaver = forms.BooleanField(label=_("Beavers"), required=False, initial=True)
    raccoon = forms.BooleanField(label=_("Raccoons"), required=False)
    automatic_doubles = forms.IntegerField(label=_("Automatic doubles (most)"), min_value=0, max_value=6, initial=0)
    deals = forms.BooleanField(
        label=_("Deals (the box settles with a member during a game)"), required=False, initial=True
    )

    RULE_FIELDS = [
        "cubes", "box_keeps", "acting_captain", "box_min_takes", "partner_from", "partner_required", "max_players",
        "partner_split", "newcomer", "jacoby", "beaver", "raccoon", "automatic_doubles", "deals",
    ]  # fmt: skip

    def __init__(self, *args, players=None, invitees=None, seats_others=True, **kwargs):
        """`players`: whom the user may seat at once; `invitees`: whom they may invite. A member who is no
        director sits down themselves on opening (`seats_others` False): no players to tick, no order by hand."""
        super().__init__(*args, **kwargs)
        self.fields["players"].queryset = players if players is not None else Player.objects.none()
        self.fields["invite"].queryset = invitees if invitees is not None else Player.objects.none()
        if not seats_others:
            del self.fields["players"]
            del self.fields["order_by"]

    def rules(self) -> dict:
        return {name: self.cleaned_data[name] for name in self.RULE_FIELDS}


class JoinCodeForm(forms.Form):
    code = forms.CharField(
        label=_("Join code"),
        max_length=12,
        help_text=_("The 5 characters shown on the table's page (or scan its QR code)."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}),
    )
