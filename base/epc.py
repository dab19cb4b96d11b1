"""The EPC "GiroCode" (EPC069-12): the text of a QR code a banking app reads as a SEPA credit transfer, and the
IBAN check it relies on. Pure: no Django.

The payload is 11 lines joined by "\\n" (no line after the last), in UTF-8 (character set 1):

    BCD / 002 / 1 / SCT / BIC (optional in version 002) / name (≤ 70) / IBAN / EUR<amount> (0.01 to
    999999999.99, at most two decimals, no thousands separator) / purpose code (≤ 4, optional) /
    structured reference (≤ 35) or unstructured text (≤ 140), never both.

The whole payload is at most 331 bytes. An IBAN is checked by ISO 13616's mod-97: the country and check digits
moved to the end, letters as 10..35, the number mod 97 is 1.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from base.errors import DomainError

MAX_NAME = 70
MAX_TEXT = 140
MAX_REFERENCE = 35
MAX_CENTS = 99_999_999_999  # 999,999,999.99
MAX_BYTES = 331
IBAN_SHAPE = re.compile(r"^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$")
BIC_SHAPE = re.compile(r"^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$")


class PaymentCodeError(DomainError):
    """Bad input for a transfer code (400); the message says what would work."""


def normalize_iban(text: str) -> str:
    """The IBAN in capitals without spaces, if its shape and mod-97 check digits are right."""
    iban = re.sub(r"[\s-]", "", str(text or "")).upper()
    if not IBAN_SHAPE.match(iban):
        raise PaymentCodeError(
            "iban_shape",
            "An IBAN is 2 letters, 2 check digits and 11 to 30 letters or digits, e.g. DE89 3704 0044 0532 0130 00.",
            "iban",
        )
    if iban_remainder(iban) != 1:
        raise PaymentCodeError(
            "iban_checksum", "This IBAN's check digits do not match: check it for a typing mistake.", "iban"
        )
    return iban


def iban_remainder(iban: str) -> int:
    """ISO 13616 mod-97 of an IBAN in capitals: 1 for a valid one."""
    moved = iban[4:] + iban[:4]
    digits = "".join(str(int(ch, 36)) for ch in moved)
    return int(digits) % 97


def normalize_bic(text: str) -> str:
    bic = re.sub(r"\s", "", str(text or "")).upper()
    if bic and not BIC_SHAPE.match(bic):
        raise PaymentCodeError("bic_shape", "A BIC is 8 or 11 letters and digits, e.g. COBADEFFXXX, or empty.", "bic")
    return bic


@dataclass(frozen=True)
class Transfer:
    name: str  # the payee, as on their account
    iban: str
    cents: int
    text: str = ""  # unstructured remittance text, e.g. "Chouette 12 March"
    reference: str = ""  # structured creditor reference (RF…), instead of the text
    bic: str = ""
    purpose: str = ""  # a 4-letter purpose code, e.g. GDDS; usually empty


def payload(transfer: Transfer) -> str:
    """The GiroCode text for a transfer, or a PaymentCodeError naming what is wrong."""
    name = " ".join(str(transfer.name or "").split())
    if not name:
        raise PaymentCodeError("payee_name_missing", "The payee's account holder name is needed.", "name")
    if len(name) > MAX_NAME:
        name = name[:MAX_NAME].rstrip()
    iban = normalize_iban(transfer.iban)
    bic = normalize_bic(transfer.bic)
    if isinstance(transfer.cents, bool) or not isinstance(transfer.cents, int) or not 1 <= transfer.cents <= MAX_CENTS:
        raise PaymentCodeError(
            "transfer_amount", "A transfer is between 0.01 and 999999999.99 euros.", "amount", max="999999999.99"
        )
    if transfer.text and transfer.reference:
        raise PaymentCodeError("text_and_reference", "Give a reference or a text, not both.", "text")
    text = " ".join(str(transfer.text or "").split())[:MAX_TEXT]
    reference = str(transfer.reference or "").replace(" ", "")
    if len(reference) > MAX_REFERENCE:
        raise PaymentCodeError("reference_too_long", "A reference has at most 35 characters.", "reference")
    purpose = str(transfer.purpose or "").upper()
    if purpose and not re.match(r"^[A-Z]{4}$", purpose):
        raise PaymentCodeError("purpose_code", "A purpose code is 4 letters, e.g. GDDS, or empty.", "purpose")
    euros, cents = divmod(transfer.cents, 100)
    lines = ["BCD", "002", "1", "SCT", bic, name, iban, f"EUR{euros}.{cents:02d}", purpose, reference, text]
    while not lines[-1]:  # the last filled field ends the payload, no separator after it
        lines.pop()
    out = "\n".join(lines)
    while len(out.encode("utf-8")) > MAX_BYTES and text:  # multi-byte names and texts: shorten the text
        text = text[:-1].rstrip()
        lines[-1] = text
        out = "\n".join(lines)
    return out
