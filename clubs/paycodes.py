"""Transfer codes for settling up: an EPC GiroCode (base.epc) as an inline SVG QR (segno) for a payment to a player
who has stored their bank account. Shown only to the payer, the payee and the club's directors (the callers
decide); the IBAN never leaves through a list, an export or the public API.

Beside it, a payment link (base.paylinks) from the handle the payee stored with their account, the amount filled
in: shown to the payer only (a player who pays, or the directors when the club pays), as private as the IBAN."""

from __future__ import annotations

from dataclasses import dataclass

import segno
from django.utils.safestring import mark_safe

from base import epc, paylinks


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


def transfer_code(account, cents: int, text: str, currency: str, *, title: str = "") -> PayCode | None:
    """The code for paying `cents` in `currency` to `account` (a clubs.models.BankAccount) with this remittance
    text; None without an account, or when the amount cannot be a SEPA transfer. A GiroCode moves euros only (the
    EPC's format writes "EUR" before the amount): a table played in pounds gets no code, not one for as many euros."""
    if account is None or not account.iban or cents <= 0 or str(currency or "").upper() != "EUR":
        return None
    try:
        payload = epc.payload(epc.Transfer(account.holder, account.iban, cents, text=text, bic=account.bic))
    except epc.PaymentCodeError:
        return None
    qr = segno.make(payload, error="m", micro=False, encoding="utf-8")
    svg = mark_safe(qr.svg_inline(scale=3, title=title or text, light="#fff"))  # noqa: S308 - segno's own SVG
    return PayCode(payload, svg, account.holder, account.iban, cents)


@dataclass(frozen=True)
class PayLink:
    url: str  # empty: the provider does not take this currency (the page says so quietly)
    provider: str  # shown: "Pay with PayPal"
    currency: str


def pay_link(account, cents: int, currency: str) -> PayLink | None:
    """The link paying `cents` in `currency` to `account`'s stored handle; None without a handle. A provider that
    does not take the currency gives a link without a URL, so the page can say why there is none."""
    if account is None or not account.pay_handle or account.pay_provider not in paylinks.PROVIDERS:
        return None
    provider = paylinks.PROVIDERS[account.pay_provider]
    currency = str(currency or "").upper()
    if not provider.takes(currency):
        return PayLink("", provider.name, currency)
    url = provider.link(account.pay_handle, cents, currency)
    return PayLink(url, provider.name, currency) if url else None
