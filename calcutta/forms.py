"""Forms for the Calcutta pages. They only parse input; the services decide."""

from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from base.fields import DecimalFormField, MoneyFormField
from calcutta import core
from calcutta.models import Calcutta
from calcutta.selectors import display_money


class PayoutField(forms.CharField):
    """The payout table written as percentages separated by commas or spaces, e.g. "50, 30, 20"."""

    def clean(self, value):
        text = super().clean(value) or ""
        parts = [p for p in text.replace(";", ",").replace(" ", ",").split(",") if p.strip()]
        if not parts:
            raise forms.ValidationError(_("Give the percentages by place, e.g. 50, 30, 20."))
        try:
            return [str(core.parse_percent(p.strip())) for p in parts]
        except core.CalcuttaError:
            raise forms.ValidationError(_("Each payout is a percentage between 0 and 100, e.g. 50, 30, 20.")) from None


class SettingsForm(forms.Form):
    payout_places = PayoutField(
        label=_("Payout table (% by place)"), help_text=_("Winner, finalist, 3rd, 4th, … e.g. 50, 25, 15, 10.")
    )
    consolation_percent = DecimalFormField(
        max_digits=5, label=_("Consolation winner %"), min_value=0, max_value=100, decimal_places=2, initial=0
    )
    house_take_percent = DecimalFormField(
        max_digits=5, label=_("House take %"), min_value=0, max_value=Decimal("99.99"), decimal_places=2, initial=10
    )
    minimum_opening_bid = MoneyFormField(label=_("Minimum opening bid"), initial="1.00")
    increment = MoneyFormField(label=_("Increment"), initial="1.00")
    buy_back_limit_percent = DecimalFormField(
        max_digits=5,
        label=_("Buy-back limit %"),
        min_value=0,
        max_value=100,
        decimal_places=2,
        initial=50,
        help_text=_("Of the player's own part of a lot; 0 turns buy-backs off."),
    )
    buy_back_deadline = forms.DateTimeField(
        label=_("Buy-backs until"), required=False, widget=forms.DateTimeInput(attrs={"type": "datetime-local"})
    )
    self_bidding = forms.BooleanField(label=_("Players may bid on themselves"), required=False)

    @classmethod
    def for_calcutta(cls, calcutta: Calcutta) -> "SettingsForm":
        return cls(
            initial={
                "payout_places": ", ".join(str(p) for p in calcutta.payout_places),
                "consolation_percent": calcutta.consolation_percent,
                "house_take_percent": calcutta.house_take_percent,
                "minimum_opening_bid": display_money(calcutta.minimum_opening_bid),
                "increment": display_money(calcutta.increment),
                "buy_back_limit_percent": calcutta.buy_back_limit_percent,
                "buy_back_deadline": calcutta.buy_back_deadline,
                "self_bidding": calcutta.self_bidding,
            }
        )


class CreateForm(SettingsForm):
    flight = forms.TypedChoiceField(label=_("Flight"), coerce=int)

    def __init__(self, *args, flights=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["flight"].choices = [(f.pk, str(f)) for f in flights]
        self.order_fields(["flight"])


class BidForm(forms.Form):
    lot = forms.IntegerField(widget=forms.HiddenInput, min_value=0, max_value=32767)
    bidder = forms.TypedChoiceField(label=_("Bidder"), coerce=int)
    amount = MoneyFormField(label=_("Amount"))
    idempotency_key = forms.CharField(widget=forms.HiddenInput, required=False, max_length=80)

    def __init__(self, *args, bidders=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["bidder"].choices = [(b.pk, b.name) for b in bidders]


class BidderForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120, required=False)
    player = forms.TypedChoiceField(label=_("Player (optional)"), coerce=int, required=False, empty_value=None)

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [("", "—")] + [(p.pk, p.name) for p in players]


class ProposeForm(forms.Form):
    style = forms.ChoiceField(
        label=_("Grouping"),
        choices=[
            (core.GroupingStyle.PAIR_LESSER, _("Strongest alone, the rest with their neighbours by rating")),
            (core.GroupingStyle.BALANCED, _("Teams balanced by rating")),
        ],
    )
    singles = forms.IntegerField(label=_("Sold alone"), min_value=0, max_value=256, initial=4)
    group_size = forms.IntegerField(label=_("Entrants per group"), min_value=2, max_value=64, initial=2)
    field = forms.IntegerField(label=_("Left to the field"), min_value=0, max_value=256, initial=0)


class OwnershipForm(forms.Form):
    lot = forms.IntegerField(label=_("Lot"), min_value=0, max_value=32767)
    share = forms.CharField(label=_("Share"), max_length=40, help_text=_("e.g. 1/4, 0.25 or 25%"))


class SyndicateForm(forms.Form):
    lot = forms.IntegerField(label=_("Lot"), min_value=0, max_value=32767)
    shares = forms.CharField(
        label=_("Members and shares"),
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("One per line: bidder name = share, e.g. Sara = 1/3. The shares total 100%."),
    )

    def clean_shares(self):
        pairs = []
        for line in self.cleaned_data["shares"].splitlines():
            if not line.strip():
                continue
            name, sep, share = line.partition("=")
            if not sep or not name.strip() or not share.strip():
                raise forms.ValidationError(_("Write each member as: name = share."))
            pairs.append((name.strip(), share.strip()))
        if not pairs:
            raise forms.ValidationError(_("Name at least one member."))
        return pairs
