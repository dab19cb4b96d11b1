"""Payment links from a handle the payee stores: "Pay with PayPal" and the like, the amount filled in, beside the
GiroCode of a settle-up (clubs.paycodes). Pure: no Django.

One class per provider behind one small interface (`Provider`): the handle's shape (checked strictly: letters
and digits, and what else the provider allows, within its length; never a slash, a query or a scheme), the
currencies it takes, and the URL for an amount. A currency a provider does not take means no link (`link` answers
None); the GiroCode may still be there.

    PayPal.me   https://paypal.me/<handle>/<amount><CUR>    amount with a dot and 2 decimals, e.g. 12.50EUR.
                PayPal's help: a PayPal.Me name is letters and digits only, at most 20 characters.
    Revolut.me  https://revolut.me/<handle>?amount=<cents>&currency=<CUR>    the amount in the minor unit.
    Monzo.me    https://monzo.me/<handle>/<amount>    pounds with a dot and 2 decimals; GBP only.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from typing import ClassVar
from urllib.parse import quote, urlencode

from base.errors import DomainError

MAX_CENTS = 99_999_999_999


class PayLinkError(DomainError):
    """A handle a provider could not have, or a provider not offered (400); the message says what would work."""


class Provider(ABC):
    """A payment service whose public page takes an amount in its URL."""

    key: ClassVar[str]  # stored on the account, e.g. "paypal"
    name: ClassVar[str]  # shown: "Pay with <name>"
    currencies: ClassVar[frozenset[str]]
    handle_shape: ClassVar[re.Pattern[str]]
    handle_hint: ClassVar[str]  # what a handle looks like (English; the apps translate it by the error's code)

    def normalize(self, text: str) -> str:
        """The handle as stored: without spaces and a leading @ or the provider's address typed before it, if its
        shape is right; else a PayLinkError whose message says what a handle looks like."""
        handle = re.sub(r"\s", "", str(text or ""))
        handle = re.sub(rf"^(https?://)?(www\.)?{re.escape(self.host)}/", "", handle, flags=re.IGNORECASE)
        handle = handle.removeprefix("@")
        if not self.handle_shape.fullmatch(handle):
            raise PayLinkError(f"{self.key}_handle", self.handle_hint, "pay_handle")
        return handle

    @property
    def host(self) -> str:
        return f"{self.key}.me"

    def takes(self, currency: str) -> bool:
        return str(currency or "").upper() in self.currencies

    def link(self, handle: str, cents: int, currency: str) -> str | None:
        """The URL paying `cents` in `currency` to `handle`; None for a currency the provider does not take, an
        amount that cannot be paid, or a stored handle that no longer passes the check."""
        currency = str(currency or "").upper()
        if not self.takes(currency) or isinstance(cents, bool) or not isinstance(cents, int):
            return None
        if not 1 <= cents <= MAX_CENTS:
            return None
        try:
            handle = self.normalize(handle)
        except PayLinkError:
            return None
        return self.url(quote(handle, safe=""), cents, currency)

    @abstractmethod
    def url(self, handle: str, cents: int, currency: str) -> str:
        """The URL for a checked, URL-encoded handle and a payable amount in a currency it takes."""


def decimal_amount(cents: int) -> str:
    """12.50 for 1250: a dot and two decimals, no thousands separator."""
    units, rest = divmod(cents, 100)
    return f"{units}.{rest:02d}"


class PayPalMe(Provider):
    key = "paypal"
    name = "PayPal"
    # PayPal's own list of currencies with two decimals that a PayPal.Me link can ask for.
    currencies = frozenset({"EUR", "USD", "GBP", "CHF", "PLN", "SEK", "NOK", "DKK", "CZK", "AUD", "CAD"})
    handle_shape = re.compile(r"[A-Za-z0-9]{1,20}")
    handle_hint = "A PayPal.Me name is 1 to 20 letters and digits, e.g. AnnaMueller (paypal.me/AnnaMueller)."

    def url(self, handle: str, cents: int, currency: str) -> str:
        return f"https://paypal.me/{handle}/{decimal_amount(cents)}{currency}"


class RevolutMe(Provider):
    key = "revolut"
    name = "Revolut"
    currencies = frozenset({"EUR", "USD", "GBP", "CHF", "PLN", "SEK", "NOK", "DKK", "CZK", "RON"})
    handle_shape = re.compile(r"[A-Za-z0-9_]{3,30}")
    handle_hint = "A Revolut.me name is 3 to 30 letters, digits or _, e.g. annamueller (revolut.me/annamueller)."

    def url(self, handle: str, cents: int, currency: str) -> str:
        return f"https://revolut.me/{handle}?{urlencode({'amount': cents, 'currency': currency})}"


class MonzoMe(Provider):
    key = "monzo"
    name = "Monzo"
    currencies = frozenset({"GBP"})
    handle_shape = re.compile(r"[A-Za-z0-9]{3,30}")
    handle_hint = "A Monzo.me name is 3 to 30 letters and digits, e.g. annamueller (monzo.me/annamueller)."

    def url(self, handle: str, cents: int, currency: str) -> str:
        return f"https://monzo.me/{handle}/{decimal_amount(cents)}"


PROVIDERS: dict[str, Provider] = {p.key: p for p in (PayPalMe(), RevolutMe(), MonzoMe())}


def provider(key: str) -> Provider:
    """The provider stored under `key`, or a PayLinkError naming the ones there are."""
    found = PROVIDERS.get(str(key or ""))
    if found is None:
        raise PayLinkError("pay_provider", "Choose PayPal, Revolut or Monzo.", "pay_provider")
    return found


def link(key: str, handle: str, cents: int, currency: str) -> str | None:
    """The payment URL for a stored provider and handle, or None (no such provider, a currency it does not take)."""
    found = PROVIDERS.get(str(key or ""))
    return found.link(handle, cents, currency) if found is not None else None
