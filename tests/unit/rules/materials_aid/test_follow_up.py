"""Direct tests of engine/rules/materials_aid/follow_up.py (MAT-19, 20, 30, 34; AMB-28, AMB-36; TC-3a).

AMB-28: the 2-year wait runs from the completion date notified by the beneficiary (MAT-34), or the
visit date when there was no notice; the anniversary itself is allowed (TC-3a). AMB-36: misuse costs
the value of the misused materials, at most the delivered total (`ALL_DELIVERED`: everything).
"""
from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from engine.rules.materials_aid.follow_up import COMPLETED, NON_COMPLIANCE_COLLECTION, follow_up_result

D = date.fromisoformat
BASE_RULES = ("MAT-19", "MAT-20", "MAT-30", "MAT-34", "AMB-28", "TC-3a")


@pytest.mark.parametrize(("completion", "visit", "last_use", "earliest"), [
    pytest.param("2024-07-10", "2024-07-30", "2024-07-10", "2026-07-10", id="MAT-30-AMB-28-MAT-S01-completion"),
    pytest.param("2024-09-10", "2024-09-16", "2024-09-10", "2026-09-10", id="MAT-30-AMB-28-MAT-S13-after-extension"),
    pytest.param(None, "2024-07-30", "2024-07-30", "2026-07-30", id="MAT-30-AMB-28-no-notice-visit-date"),
    pytest.param("2024-02-29", "2024-03-15", "2024-02-29", "2026-02-28", id="MAT-30-TC-3-29feb"),
])
def test_completed(completion, visit, last_use, earliest):
    decision = follow_up_result(True, True, completion, visit, None, "4150.00", "MISUSED_VALUE", 2)
    assert decision.outcome == COMPLETED
    assert decision.rule_ids == BASE_RULES
    assert decision.details == {"last_use_date": D(last_use), "reapply_earliest": D(earliest),
                                "collection_amount": None}
    assert decision.inputs["visit_date"] == D(visit) and decision.inputs["wait_years"] == 2


@pytest.mark.parametrize(("work_done", "proper", "misused", "basis", "amount"), [
    pytest.param(True, False, "1200.00", "MISUSED_VALUE", "1200.00", id="MAT-20-MAT-34-AMB-36-misused-part"),
    pytest.param(True, False, "4150.00", "MISUSED_VALUE", "4150.00", id="AMB-36-misused-equals-delivered"),
    pytest.param(True, False, "5000.00", "MISUSED_VALUE", "4150.00", id="AMB-36-capped-at-delivered"),
    pytest.param(False, True, None, "MISUSED_VALUE", "4150.00", id="MAT-20-work-not-done-no-value-all"),
    pytest.param(False, False, "1200.00", "ALL_DELIVERED", "4150.00", id="AMB-36-ALL_DELIVERED"),
])
def test_non_compliance_collects(work_done, proper, misused, basis, amount):
    decision = follow_up_result(work_done, proper, None, "2024-07-30", misused, "4150.00", basis, 2)
    assert decision.outcome == NON_COMPLIANCE_COLLECTION
    assert decision.details["collection_amount"] == Decimal(amount)
    assert decision.rule_ids == BASE_RULES + ("MAT-35", "AMB-36", "TC-4")
    assert decision.inputs["collection_basis"] == basis
