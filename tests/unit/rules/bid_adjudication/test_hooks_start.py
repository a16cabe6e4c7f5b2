"""Direct tests of the start rule of engine/rules/bid_adjudication/hooks.py, `bid_filed`
(bid_adjudication.md "Start-time refusals"; RULES.md BID-18, BID-19, BID-36, AMB-46; §4.5; BID-S13, S25).

- BID-19: a general or price-variable bid without the price-honour clause → 422 MARKET_CLAUSE_MISSING.
- BID-18: a single source without the exclusive certificate and the documented investigation → 422
  SINGLE_SOURCE_NOT_DOCUMENTED.
- BID-36 / AMB-46: a similar matter cancelled this fiscal year (the lock lasts until the fiscal year
  ends, 1 July – 30 June) → 422 SIMILAR_PURCHASE_BLOCKED_FY unless an emergency is documented; with
  `bid.noSimilarPurchaseScope = DESIST_ONLY` only a desisted purchase locks. The locks and the scope
  come from the bidder registry through `facts.reference`; without `locks` the check is not run.
"""
from __future__ import annotations

from datetime import date

import pytest

from engine.rules.bid_adjudication import hooks
from engine.rules.decision import RuleViolation
from engine.rules.facts import Facts
from tests.unit.rules.hook_checks import ACCEPT, check, unprocessable

# The contract's start variables; BID-S25's matter is office equipment.
BID = {"number": "2025-041", "matter": "equipo de oficina", "kind": "acquisition",
       "lines": [{"line": 1, "description": "equipo"}], "estimate": "80000.00", "appraisal": None,
       "funds_certified": "80000.00", "alternates_requested": False, "general": False, "price_variable": False,
       "has_price_honour_clause": False, "round": 1, "previous_case_id": None,
       "offers_due_at": "2025-03-20T10:00:00-04:00", "emergency_justification": None, "single_source": None}

MARKET_CLAUSE = unprocessable("MARKET_CLAUSE_MISSING", ("BID-19",))
SINGLE_SOURCE = unprocessable("SINGLE_SOURCE_NOT_DOCUMENTED", ("BID-18",))
BLOCKED = unprocessable("SIMILAR_PURCHASE_BLOCKED_FY", ("BID-36", "AMB-46"))


def filed(bid_changes=None, today=date(2025, 3, 3), reference=None):
    return {"bid": {**BID, **(bid_changes or {})}}, Facts(case={}, today=today, actor="secretary",
                                                           reference=reference if reference is not None else {})


@pytest.mark.parametrize(("changes", "verdict"), [
    pytest.param({}, ACCEPT, id="BID-19-ordinary-acquisition-accepted"),
    pytest.param({"general": True}, MARKET_CLAUSE, id="BID-19-S13a-general-bid-without-clause-refused"),
    pytest.param({"price_variable": True}, MARKET_CLAUSE, id="BID-19-price-variable-without-clause-refused"),
    pytest.param({"general": True, "price_variable": True, "has_price_honour_clause": True}, ACCEPT,
                 id="BID-19-S13b-clause-included-accepted"),
    pytest.param({"single_source": {"exclusive_certificate": True, "investigation_report_date": "2025-02-14"}},
                 ACCEPT, id="BID-18-documented-single-source-accepted"),
    pytest.param({"single_source": {"exclusive_certificate": True, "investigation_report_date": None}},
                 SINGLE_SOURCE, id="BID-18-certificate-without-investigation-refused"),
    pytest.param({"single_source": {"exclusive_certificate": False, "investigation_report_date": "2025-02-14"}},
                 SINGLE_SOURCE, id="BID-18-investigation-without-certificate-refused"),
    pytest.param({"general": True, "single_source": {"exclusive_certificate": False}}, MARKET_CLAUSE,
                 id="BID-19-checked-before-BID-18"),
])
def test_bid_filed_clause_and_single_source(changes, verdict):
    check(hooks.bid_filed, *filed(changes), verdict)


# --- BID-36: the fiscal-year lock, from facts.reference ---------------------------------------------

# BID-S25: Subasta 2025-040 cancelled on 2024-09-10 (cause a), so no similar purchase until 2025-06-30.
LOCK = {"matter": "equipo de oficina", "cause": "funds_insufficient", "locked_until": "2025-06-30", "case_id": 40}
DESISTED = {**LOCK, "cause": "desisted"}
LAST_YEAR = {**LOCK, "locked_until": "2024-06-30"}
ALL_CAUSES = "ALL_CANCELLATION_CAUSES"


def registry(*locks, scope=ALL_CAUSES) -> dict:
    return {"locks": list(locks), "similar_purchase_scope": scope}


@pytest.mark.parametrize(("today", "changes", "reference", "verdict"), [
    pytest.param(date(2025, 3, 3), {}, {}, ACCEPT, id="BID-36-no-locks-in-reference-check-skipped"),
    pytest.param(date(2025, 3, 3), {}, {"similar_purchase_scope": ALL_CAUSES}, ACCEPT,
                 id="BID-36-scope-without-locks-check-skipped"),
    pytest.param(date(2025, 3, 3), {}, registry(), ACCEPT, id="BID-36-no-lock-for-the-matter-accepted"),
    pytest.param(date(2025, 3, 3), {}, registry(LOCK), BLOCKED, id="BID-36-AMB-46-S25-lock-same-fiscal-year-refused"),
    pytest.param(date(2025, 6, 30), {}, registry(LOCK), BLOCKED, id="BID-36-AMB-46-last-day-of-fiscal-year-refused"),
    pytest.param(date(2025, 7, 1), {}, registry(LOCK), ACCEPT, id="BID-36-AMB-46-S25-next-fiscal-year-allowed"),
    pytest.param(date(2025, 3, 3), {}, registry(LAST_YEAR), ACCEPT, id="BID-36-lock-of-a-past-fiscal-year-ignored"),
    pytest.param(date(2025, 3, 3), {}, registry(LAST_YEAR, LOCK), BLOCKED, id="BID-36-any-live-lock-refuses"),
    pytest.param(date(2025, 2, 3), {"emergency_justification": "daños del huracán a las oficinas"}, registry(LOCK),
                 ACCEPT, id="BID-36-S25-documented-emergency-allowed"),
    pytest.param(date(2025, 2, 3), {"emergency_justification": "   "}, registry(LOCK), BLOCKED,
                 id="BID-36-blank-emergency-is-no-justification"),
    pytest.param(date(2025, 3, 3), {}, registry(LOCK, scope="DESIST_ONLY"), ACCEPT,
                 id="BID-36-AMB-46-S25-desist-only-cause-a-does-not-lock"),
    pytest.param(date(2025, 3, 3), {}, registry(DESISTED, scope="DESIST_ONLY"), BLOCKED,
                 id="BID-36-AMB-46-desist-only-desisted-purchase-locks"),
    pytest.param(date(2025, 3, 3), {}, registry(DESISTED), BLOCKED, id="BID-36-AMB-46-all-causes-desisted-locks"),
    pytest.param(date(2025, 3, 3), {"general": True}, registry(LOCK), MARKET_CLAUSE,
                 id="BID-19-checked-before-BID-36"),
])
def test_bid_filed_similar_purchase_lock(today, changes, reference, verdict):
    check(hooks.bid_filed, *filed(changes, today, reference), verdict)


def test_BID_36_without_locks_the_registry_check_is_not_run(monkeypatch):
    def must_not_run(*args, **kwargs):
        raise AssertionError("similar_purchase_allowed ran without locks in the reference")
    monkeypatch.setattr(hooks, "similar_purchase_allowed", must_not_run)
    check(hooks.bid_filed, *filed({}, None, {"similar_purchase_scope": ALL_CAUSES}), ACCEPT)
    with pytest.raises(AssertionError):
        hooks.bid_filed(*filed({}, date(2025, 3, 3), registry()))


def test_BID_36_refusal_names_the_end_of_the_lock():
    with pytest.raises(RuleViolation) as caught:
        hooks.bid_filed(*filed({}, date(2025, 3, 3), registry(LAST_YEAR, LOCK)))
    assert "2025-06-30" in caught.value.message and "equipo de oficina" in caught.value.message


@pytest.mark.xfail(strict=True, reason="RULES.md §4.5 / AMB-46: bid.noSimilarPurchaseScope defaults to "
                   "ALL_CANCELLATION_CAUSES, but a reference without `similar_purchase_scope` passes None to "
                   "similar_purchase_allowed, which then counts only desisted purchases (DESIST_ONLY)")
def test_BID_36_scope_absent_from_reference_means_the_documented_default():
    check(hooks.bid_filed, *filed({}, date(2025, 3, 3), {"locks": [LOCK]}), BLOCKED)
