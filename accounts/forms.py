import logging
import smtplib

from django import forms
from django.contrib.auth.forms import PasswordResetForm as DjangoPasswordResetForm
from django.core.mail import EmailMultiAlternatives
from django.template import loader
from django.utils.translation import gettext_lazy as _

logger = logging.getLogger(__name__)


class MailNotSent(Exception):
    """The mail server refused or could not be reached; the user must be told, not shown "sent"."""


class PasswordResetForm(DjangoPasswordResetForm):
    """Django's form, except that a mail that could not be sent raises MailNotSent: Django's own send_mail
    logs the failure and carries on, and the view would then tell the user the mail is on its way."""

    def send_mail(
        self, subject_template_name, email_template_name, context, from_email, to_email, html_email_template_name=None
    ):
        subject = "".join(loader.render_to_string(subject_template_name, context).splitlines())
        body = loader.render_to_string(email_template_name, context)
        message = EmailMultiAlternatives(subject, body, from_email, [to_email])
        if html_email_template_name is not None:
            message.attach_alternative(loader.render_to_string(html_email_template_name, context), "text/html")
        try:
            message.send()
        except (smtplib.SMTPException, OSError) as exc:  # OSError: refused, unreachable, timed out
            logger.error("Password reset mail to user %s not sent: %s", context["user"].pk, exc)
            raise MailNotSent from exc


class TokenForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100, help_text=_("What the token is for, e.g. a script."))
