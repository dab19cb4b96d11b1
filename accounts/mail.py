"""The mail backend of a production site that has no mail server configured."""

import logging
import smtplib

from django.core.mail.backends.base import BaseEmailBackend

logger = logging.getLogger(__name__)


class UnconfiguredEmailBackend(BaseEmailBackend):
    """Refuses to send, so the user is told the mail could not go out rather than that it went nowhere."""

    def send_messages(self, email_messages):
        if not email_messages:
            return 0
        logger.error("No mail server configured: set EMAIL_HOST (and EMAIL_PORT, EMAIL_HOST_USER, ...).")
        if self.fail_silently:
            return 0
        raise smtplib.SMTPException("no mail server configured (EMAIL_HOST is unset)")
