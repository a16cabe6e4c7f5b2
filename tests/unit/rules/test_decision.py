"""Direct tests of engine/rules/decision.py: the Decision a rule reaches and the refusals it raises.

RULES.md §5 and the contracts' conventions: a refusal answers 422 (RuleViolation) or 409 (Refusal,
out of time or out of turn) with the error code in `errors.rule`; a decision lands in the history
with its `rule_ids` and the inputs used.
"""
from __future__ import annotations

import dataclasses
from decimal import Decimal

import pytest

from engine.rules.decision import Decision, Refusal, RuleViolation


def test_decision_as_dict_flattens_details_next_to_outcome_rule_ids_and_inputs():
    decision = Decision(outcome=True, rule_ids=("FAR-04", "FAR-05"),
                        inputs={"gross_annual_income": Decimal("40000.00")},
                        details={"income_share_pct": "80.00"})
    assert decision.as_dict() == {"outcome": True, "rule_ids": ["FAR-04", "FAR-05"],
                                  "inputs": {"gross_annual_income": Decimal("40000.00")},
                                  "income_share_pct": "80.00"}


def test_decision_defaults_to_empty_inputs_and_details():
    decision = Decision(outcome="AWARDED", rule_ids=("BID-06",))
    assert decision.inputs == {} and decision.details == {}
    assert decision.as_dict() == {"outcome": "AWARDED", "rule_ids": ["BID-06"], "inputs": {}}


def test_decision_is_frozen_and_as_dict_copies():
    decision = Decision(outcome=1, rule_ids=("SUR-09",), inputs={"kind": "municipio"})
    with pytest.raises(dataclasses.FrozenInstanceError):
        decision.outcome = 2  # type: ignore[misc]
    exported = decision.as_dict()
    exported["inputs"]["kind"] = "changed"
    exported["rule_ids"].append("X")
    assert decision.inputs == {"kind": "municipio"} and decision.rule_ids == ("SUR-09",)


@pytest.mark.parametrize(("cls", "code", "rule_ids", "status"), [
    pytest.param(RuleViolation, "SWORN_DECLARATION_REQUIRED", ("FAR-03",), 422, id="FAR-03-422"),
    pytest.param(RuleViolation, "MAX_AID_EXCEEDED", ["MAT-21", "AMB-31"], 422, id="MAT-21-422-list"),
    pytest.param(Refusal, "UNTIMELY_REVIEW_REQUEST", ("FAR-12", "FAR-13", "AMB-14"), 409, id="FAR-12-409"),
    pytest.param(Refusal, "DUPLICATE_REQUEST", (), 409, id="SUR-01-409-no-rules"),
])
def test_refusals_carry_code_rule_ids_status_and_errors(cls, code, rule_ids, status):
    error = cls(code, "why", rule_ids)
    assert error.code == code
    assert error.message == "why" and str(error) == "why"
    assert error.rule_ids == list(rule_ids)
    assert error.status == status
    assert error.errors == {"rule": [code]}
    assert isinstance(error, RuleViolation)


def test_rule_violation_reasons():
    assert RuleViolation.reason == "Unprocessable Entity"
    assert Refusal.reason == "Conflict"
