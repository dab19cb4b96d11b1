"""A stranger cannot learn which usernames have an account from the ways in that take one: the web sign-in, the
admin sign-in and the API token endpoint answer a wrong password, an unknown name and an inactive account alike,
hash a password once each way (so the time is alike too), and lock an unknown name as soon as a real one.
(The password reset, the one form that takes an e-mail address: tests/core/test_auth_password_reset.py.)"""

import pytest
from django.test import Client

from tests.clubs.factories import UserFactory
from tests.core.test_auth_password_reset import comparable
from tests.core.test_auth_throttle import PASSWORD, api_sign_in, form_sign_in, hashes  # noqa: F401 - fixture

pytestmark = pytest.mark.django_db


@pytest.fixture
def accounts():
    """A name with an account, an inactive account's name (with its right password) and a name without one."""
    UserFactory(username="anna")
    UserFactory(username="gone", is_active=False)
    # Names of one length: the form shows the name typed, and the answers' lengths are compared too.
    return {"wrong password": ("anna", "wrong"), "inactive": ("gone", PASSWORD), "unknown": ("nemo", "wrong")}


@pytest.mark.parametrize(
    "sign_in",
    [
        pytest.param(lambda name, password: form_sign_in(Client(), name, password), id="web"),
        pytest.param(lambda name, password: form_sign_in(Client(), name, password, url="/admin/login/"), id="admin"),
        pytest.param(lambda name, password: api_sign_in(Client(), name, password), id="api"),
    ],
)
def test_a_wrong_password_an_inactive_account_and_an_unknown_name_answer_alike(accounts, hashes, sign_in):  # noqa: F811
    answers, hashed = {}, {}
    for case, (name, password) in accounts.items():
        hashes.clear()
        answer = comparable(sign_in(name, password))
        answers[case] = answer | {"body": answer["body"].replace(name, "NAME")}  # the form shows what was typed
        hashed[case] = len(hashes)
    assert answers["wrong password"]["status"] in (200, 400)
    assert answers["wrong password"] == answers["inactive"] == answers["unknown"]
    assert hashed == {"wrong password": 1, "inactive": 1, "unknown": 1}


def test_an_unknown_name_is_locked_as_soon_as_a_real_one(settings, accounts):
    client = Client()
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        assert api_sign_in(client, "anna", "wrong").status_code == 400
        assert api_sign_in(client, "nemo", "wrong").status_code == 400
    assert api_sign_in(client, "anna", "wrong").status_code == 429
    assert api_sign_in(client, "nemo", "wrong").status_code == 429
