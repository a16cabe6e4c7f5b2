"""Direct tests of engine/rules/surplus_disposition/common.py: exact cents (TC-4, TC-5 half-up) and days."""
from __future__ import annotations

from datetime import date, datetime, timezone
from decimal import Decimal

import pytest

from engine.rules.decision import RuleViolation
from engine.rules.surplus_disposition.common import GOVERNMENT, KINDS, PAYING_KINDS, STATE_AGENCIES, cents, day, refuse, text


@pytest.mark.parametrize(("value", "expected"), [
    pytest.param("61.00", "61.00", id="TC-4-SUR-S07-price"),
    pytest.param("300", "300.00", id="TC-4-whole-dollars"),
    pytest.param(Decimal("300.005"), "300.01", id="TC-5-half-up"),
    pytest.param("0.125", "0.13", id="TC-5-half-up-not-half-even"),
    pytest.param(12, "12.00", id="TC-4-integer"),
    pytest.param(None, "0.00", id="TC-4-none-is-zero"),
    pytest.param("", "0.00", id="TC-4-empty-is-zero"),
])
def test_cents(value, expected):
    assert cents(value) == Decimal(expected)
    assert text(cents(value)) == expected


@pytest.mark.parametrize("value", ["abc", "1,000.00", "$5"], ids=lambda v: f"TC-4-not-an-amount-{v}")
def test_cents_refuses_what_is_not_an_amount(value):
    with pytest.raises(ValueError):
        cents(value)


@pytest.mark.parametrize(("value", "expected"), [
    pytest.param(date(2024, 9, 10), date(2024, 9, 10), id="TC-1-date"),
    pytest.param(datetime(2024, 9, 10, 23, 59), date(2024, 9, 10), id="TC-1-instant-its-day"),
    pytest.param("2024-09-10", date(2024, 9, 10), id="TC-1-iso-day"),
    pytest.param("2024-09-10T14:00:00-04:00", date(2024, 9, 10), id="TC-1-iso-instant-text"),
    # 02:00 UTC on 1 March is still 29 February in Puerto Rico: the UTC date would be a day late.
    pytest.param("2024-03-01T02:00:00+00:00", date(2024, 2, 29), id="TC-1-utc-text-is-the-pr-day"),
    pytest.param(datetime(2024, 3, 1, 2, 0, tzinfo=timezone.utc), date(2024, 2, 29), id="TC-1-utc-instant-is-the-pr-day"),
])
def test_day(value, expected):
    assert day(value) == expected


def test_refuse_raises_a_rule_violation():
    with pytest.raises(RuleViolation) as caught:
        refuse("NOT_ELIGIBLE_CATEGORY", "why", "SUR-10", "AMB-02")
    assert caught.value.code == "NOT_ELIGIBLE_CATEGORY" and caught.value.rule_ids == ["SUR-10", "AMB-02"]
    assert caught.value.status == 422


def test_requester_groups_of_the_contract():
    assert KINDS == ("agencia_componente", "agencia_ejecutiva", "municipio", "sin_fines_de_lucro", "productor")
    assert "municipio" not in STATE_AGENCIES and "municipio" in GOVERNMENT  # AMB-06
    assert set(PAYING_KINDS) == {"productor", "sin_fines_de_lucro"}  # FAR-25, SUR-21
