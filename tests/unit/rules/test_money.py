"""engine/rules/money.py: the one money helper (exact amounts, TC-4; cents with a chosen rounding, TC-5)."""
from __future__ import annotations

from decimal import ROUND_DOWN, ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal

import pytest

from engine.rules.money import CENT, cents, money


@pytest.mark.parametrize(("value", "expected"), [
    pytest.param("1200.50", "1200.50", id="TC-4-text"),
    pytest.param(" 61.00 ", "61.00", id="TC-4-text-trimmed"),
    pytest.param(300, "300", id="TC-4-integer"),
    pytest.param(0.1, "0.1", id="TC-4-float-as-typed-not-binary"),
    pytest.param(Decimal("4150.00"), "4150.00", id="TC-4-decimal-as-is"),
    pytest.param("-5.25", "-5.25", id="TC-4-negative"),
])
def test_money_is_exact(value, expected):
    amount = money(value)
    assert isinstance(amount, Decimal) and str(amount) == expected


def test_a_decimal_is_returned_untouched():
    amount = Decimal("1.10")
    assert money(amount) is amount


@pytest.mark.parametrize("value", [None, True, False, "", "abc", "1,000.00", "$5", [], {}],
                         ids=lambda v: f"TC-4-not-an-amount-{v!r}")
def test_money_refuses_what_is_not_an_amount(value):
    with pytest.raises(ValueError):
        money(value)


@pytest.mark.parametrize(("value", "expected"), [
    pytest.param("0.125", "0.12", id="TC-5-half-even-down"),
    pytest.param("0.135", "0.14", id="TC-5-half-even-up"),
    pytest.param("300", "300.00", id="TC-4-whole-dollars"),
    pytest.param(12, "12.00", id="TC-4-integer"),
    pytest.param(Decimal("1.234"), "1.23", id="TC-4-below-half"),
])
def test_cents_rounds_half_even_by_default(value, expected):
    assert cents(value) == Decimal(expected) and str(cents(value)) == expected
    assert cents(value) == cents(value, rounding=ROUND_HALF_EVEN)


@pytest.mark.parametrize(("value", "rounding", "expected"), [
    pytest.param("0.125", ROUND_HALF_UP, "0.13", id="TC-5-half-up"),
    pytest.param("300.005", ROUND_HALF_UP, "300.01", id="TC-5-half-up-300"),
    pytest.param("-0.125", ROUND_HALF_UP, "-0.13", id="TC-5-half-up-away-from-zero"),
    pytest.param("50.009", ROUND_DOWN, "50.00", id="FAR-04-share-truncated"),
])
def test_cents_with_the_rule_s_rounding(value, rounding, expected):
    assert str(cents(value, rounding=rounding)) == expected


def test_cents_refuses_what_is_not_an_amount():
    with pytest.raises(ValueError):
        cents("abc")
    with pytest.raises(ValueError):
        cents(None)


def test_cent():
    assert CENT == Decimal("0.01")
