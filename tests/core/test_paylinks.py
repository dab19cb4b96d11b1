"""Payment links from a stored handle (base.paylinks), pure: each provider's URL for an amount, its strict handle
check, and no link for a currency it does not take."""

import pytest

from base import paylinks
from base.paylinks import MonzoMe, PayLinkError, PayPalMe, RevolutMe


@pytest.mark.parametrize(
    ("provider", "currency", "expected"),
    [
        (
            PayPalMe(),
            "EUR",
            [
                "https://paypal.me/Anna1/0.01EUR",
                "https://paypal.me/Anna1/12.50EUR",
                "https://paypal.me/Anna1/1234.56EUR",
            ],
        ),
        (
            RevolutMe(),
            "EUR",
            [
                "https://revolut.me/Anna1?amount=1&currency=EUR",
                "https://revolut.me/Anna1?amount=1250&currency=EUR",
                "https://revolut.me/Anna1?amount=123456&currency=EUR",
            ],
        ),
        (
            MonzoMe(),
            "GBP",
            ["https://monzo.me/Anna1/0.01", "https://monzo.me/Anna1/12.50", "https://monzo.me/Anna1/1234.56"],
        ),
    ],
)
def test_each_provider_fills_in_the_amount(provider, currency, expected):
    assert [provider.link("Anna1", cents, currency) for cents in (1, 1250, 123456)] == expected
    assert provider.link("Anna1", 1250, currency.lower()) == expected[1]  # the currency as a session stores it
    assert paylinks.link(provider.key, "Anna1", 1250, currency) == expected[1]


@pytest.mark.parametrize(
    ("provider", "currency"),
    [(PayPalMe(), "HUF"), (PayPalMe(), "JPY"), (RevolutMe(), "XYZ"), (MonzoMe(), "EUR"), (PayPalMe(), "")],
)
def test_a_currency_the_provider_does_not_take_makes_no_link(provider, currency):
    assert not provider.takes(currency)
    assert provider.link("Anna1", 1250, currency) is None


@pytest.mark.parametrize("cents", [0, -1, 10**12, True, 12.5])
def test_an_amount_that_cannot_be_paid_makes_no_link(cents):
    assert PayPalMe().link("Anna1", cents, "EUR") is None


@pytest.mark.parametrize(
    ("provider", "typed", "stored"),
    [
        (PayPalMe(), "AnnaMueller", "AnnaMueller"),
        (PayPalMe(), " @Anna Mueller ", "AnnaMueller"),  # spaces and a leading @ as people type them
        (PayPalMe(), "https://www.paypal.me/AnnaMueller", "AnnaMueller"),  # the whole address pasted
        (PayPalMe(), "A" * 20, "A" * 20),
        (RevolutMe(), "anna_m", "anna_m"),
        (RevolutMe(), "revolut.me/anna_m", "anna_m"),
        (MonzoMe(), "annamueller", "annamueller"),
    ],
)
def test_a_good_handle_is_stored_bare(provider, typed, stored):
    assert provider.normalize(typed) == stored


@pytest.mark.parametrize(
    ("provider", "typed"),
    [
        (PayPalMe(), "Anna_Mueller"),  # PayPal.Me names are letters and digits only
        (PayPalMe(), "A" * 21),  # too long
        (PayPalMe(), ""),
        (PayPalMe(), "anna/10EUR"),  # a slash would choose the amount or the page
        (PayPalMe(), "https://paypal.me/anna/10"),
        (PayPalMe(), "https://evil.example/anna"),
        (PayPalMe(), "javascript:alert(1)"),
        (PayPalMe(), "anna?amount=1"),
        (PayPalMe(), "änna"),
        (RevolutMe(), "an"),  # too short
        (RevolutMe(), "a" * 31),
        (RevolutMe(), "anna&currency=GBP"),
        (RevolutMe(), "anna/x"),
        (RevolutMe(), "javascript:alert(1)"),
        (MonzoMe(), "anna-m"),
        (MonzoMe(), "anna%2F"),
        (MonzoMe(), "a" * 31),
    ],
)
def test_a_bad_handle_is_refused_saying_what_a_handle_looks_like(provider, typed):
    with pytest.raises(PayLinkError) as refused:
        provider.normalize(typed)
    assert refused.value.code == f"{provider.key}_handle" and refused.value.field == "pay_handle"
    assert "e.g." in refused.value.message and provider.host in refused.value.message
    assert provider.link(typed, 1250, next(iter(provider.currencies))) is None  # a bad stored handle: no link


def test_an_unknown_provider_is_refused_and_makes_no_link():
    with pytest.raises(PayLinkError) as refused:
        paylinks.provider("venmo")
    assert refused.value.field == "pay_provider"
    assert paylinks.link("venmo", "anna", 1250, "EUR") is None
    assert sorted(paylinks.PROVIDERS) == ["monzo", "paypal", "revolut"]
