import pytest

from base.hooks import Hook


def test_a_hook_calls_each_registered_callback_once_in_order_until_removed():
    hook, heard = Hook(), []

    def first(value):
        heard.append(("first", value))

    def second(value):
        heard.append(("second", value))

    hook.register(first)
    hook.register(second)
    hook.register(first)
    hook(1)
    hook.remove(first)
    hook(2)
    assert heard == [("first", 1), ("second", 1), ("second", 2)]


def test_a_callback_that_raises_stops_the_call_so_the_callers_transaction_rolls_back():
    hook = Hook()

    def refuse(value):
        raise ValueError(value)

    hook.register(refuse)
    with pytest.raises(ValueError, match="3"):
        hook(3)
