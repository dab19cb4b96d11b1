from django import forms
from django.contrib.auth.forms import PasswordResetForm as DjangoPasswordResetForm
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts import services


class PasswordResetForm(DjangoPasswordResetForm):
    """Django's form, except that it queues the mail (accounts.services.request_password_reset) instead of looking
    for the account and sending at once: the answer and the work are the same whether an account has the address
    or not, and whether the mail server is up or not."""

    def save(self, *args, **kwargs):
        services.request_password_reset(address=self.cleaned_data["email"], language=translation.get_language() or "")


class TokenForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100, help_text=_("What the token is for, e.g. a script."))
