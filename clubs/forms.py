from django import forms
from django.utils.translation import gettext_lazy as _


class WalkInPlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    country = forms.CharField(label=_("Country (ISO code)"), max_length=2, required=False)


class InviteForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)
