import logging
import smtplib

from django import forms
from django.contrib.auth.forms import PasswordResetForm as DjangoPasswordResetForm
from django.utils.translation import gettext_lazy as _

logger = logging.getLogger(__name__)


class MailNotSent(Exception):
    """The mail server refused or could not be reached; the user must be told, not shown "sent"."""


class PasswordResetForm(DjangoPasswordResetForm):
    def send_mail(self, *args, **kwargs):
        try:
            super().send_mail(*args, **kwargs)
        except (smtplib.SMTPException, OSError) as exc:  # OSError: refused, unreachable, timed out
            logger.error("Password reset mail not sent: %s", exc)
            raise MailNotSent from exc


class TokenForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100, help_text=_("What the token is for, e.g. a script."))
