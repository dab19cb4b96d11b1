"""The password-reset mail, and the mail backend of a production site that has no mail server configured."""

import logging
import smtplib
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.core.mail import EmailMessage
from django.core.mail.backends.base import BaseEmailBackend
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

logger = logging.getLogger(__name__)


def password_reset_message(user, *, language: str) -> EmailMessage:
    """Django's reset mail (its templates, its token generator, so its confirm page takes the link), made when it
    is sent: the token is fresh and never stored. The link points at SITE_URL, as every mail of the site does;
    the mail is in the language of the page it was asked on."""
    site = urlsplit(settings.SITE_URL)
    context = {
        "email": user.email,
        "domain": site.netloc,
        "site_name": site.netloc,
        "uid": urlsafe_base64_encode(force_bytes(user.pk)),
        "user": user,
        "token": default_token_generator.make_token(user),
        "protocol": site.scheme or "https",
    }
    with translation.override(language or settings.LANGUAGE_CODE):
        subject = "".join(render_to_string("registration/password_reset_subject.txt", context).splitlines())
        body = render_to_string("registration/password_reset_email.html", context)
    return EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [user.email])


class UnconfiguredEmailBackend(BaseEmailBackend):
    """Refuses to send, so a mail stays due (and the admin shows why) rather than going nowhere."""

    def send_messages(self, email_messages):
        if not email_messages:
            return 0
        logger.error("No mail server configured: set EMAIL_HOST (and EMAIL_PORT, EMAIL_HOST_USER, ...).")
        if self.fail_silently:
            return 0
        raise smtplib.SMTPException("no mail server configured (EMAIL_HOST is unset)")
