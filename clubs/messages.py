"""Transfer codes' refusals (base.epc.PaymentCodeError) and payment handles' (base.paylinks.PayLinkError) in the
reader's language, by code."""

from django.utils.translation import gettext_lazy

PAYMENT_CODE_MESSAGES = {
    "iban_shape": gettext_lazy(
        "An IBAN is 2 letters, 2 check digits and 11 to 30 letters or digits, e.g. DE89 3704 0044 0532 0130 00."
    ),
    "iban_checksum": gettext_lazy("This IBAN's check digits do not match: check it for a typing mistake."),
    "bic_shape": gettext_lazy("A BIC is 8 or 11 letters and digits, e.g. COBADEFFXXX, or empty."),
    "payee_name_missing": gettext_lazy("The payee's account holder name is needed."),
    "transfer_amount": gettext_lazy("A transfer is between 0.01 and 999999999.99 euros."),
    "text_and_reference": gettext_lazy("Give a reference or a text, not both."),
    "reference_too_long": gettext_lazy("A reference has at most 35 characters."),
    "purpose_code": gettext_lazy("A purpose code is 4 letters, e.g. GDDS, or empty."),
}

PAY_LINK_MESSAGES = {
    "pay_provider": gettext_lazy("Choose PayPal, Revolut or Monzo."),
    "paypal_handle": gettext_lazy(
        "A PayPal.Me name is 1 to 20 letters and digits, e.g. AnnaMueller (paypal.me/AnnaMueller)."
    ),
    "revolut_handle": gettext_lazy(
        "A Revolut.me name is 3 to 30 letters, digits or _, e.g. annamueller (revolut.me/annamueller)."
    ),
    "monzo_handle": gettext_lazy(
        "A Monzo.me name is 3 to 30 letters and digits, e.g. annamueller (monzo.me/annamueller)."
    ),
}
