"""Transfer codes for settling up: an EPC GiroCode (base.epc) as an inline SVG QR (segno) for a payment to a player
who has stored their bank account. Shown only to the payer, the payee and the club's directors (the callers
decide); the IBAN never leaves through a list, an export or the public API."""

from __future__ import annotations

from dataclasses import dataclass

import segno
from django.utils.safestring import mark_safe

from base import epc


@dataclass(frozen=True)
class PayCode:
    payload: str
    svg: str  # safe inline SVG
    holder: str
    iban: str
    cents: int

    @property
    def iban_grouped(self) -> str:
        return " ".join(self.iban[i : i + 4] for i in range(0, len(self.iban), 4))


def transfer_code(account, cents: int, text: str, *, title: str = "") -> PayCode | None:
    """The code for paying `cents` to `account` (a clubs.models.BankAccount) with this remittance text; None
    without an account or when the amount cannot be a SEPA transfer."""
    if account is None or cents <= 0:
        return None
    try:
        payload = epc.payload(epc.Transfer(account.holder, account.iban, cents, text=text, bic=account.bic))
    except epc.PaymentCodeError:
        return None
    qr = segno.make(payload, error="m", micro=False, encoding="utf-8")
    svg = mark_safe(qr.svg_inline(scale=3, title=title or text, light="#fff"))  # noqa: S308 - segno's own SVG
    return PayCode(payload, svg, account.holder, account.iban, cents)
