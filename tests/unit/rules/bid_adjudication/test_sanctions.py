"""Direct tests of engine/rules/bid_adjudication/sanctions.py (BID-21, 25, 27, 29; AMB-43, 47; TC-3).

AMB-47: a ban starts on the Junta's resolution date and lasts 12–36 whole months; through = from +
months − 1 day; the bidder may bid again on from + months (BID-S19: 2024-11-25 + 18 months → through
2026-05-24, eligible again 2026-05-25). AMB-43: collusion read as 1–3 years too.
"""
from __future__ import annotations

from datetime import date, datetime, timezone

import pytest

from engine.rules.bid_adjudication.sanctions import ban_periods, check_sanctions, month_range
from engine.rules.decision import RuleViolation

RANGE = (12, 36)
COLLUSION = {"min_months": 12, "max_months": 36}
BAN_RULES = ["BID-21", "BID-25", "BID-27", "BID-29", "AMB-43", "AMB-47"]


@pytest.mark.parametrize(("resolution", "months", "through", "again"), [
    pytest.param("2024-11-25", 18, "2026-05-24", "2026-05-25", id="BID-25-AMB-47-BID-S19-18-months"),
    pytest.param("2024-11-25", 12, "2025-11-24", "2025-11-25", id="AMB-47-minimum-12"),
    pytest.param("2024-11-25", 36, "2027-11-24", "2027-11-25", id="AMB-47-maximum-36"),
    pytest.param("2023-08-31", 18, "2025-02-27", "2025-02-28", id="AMB-47-TC-3-month-end-clamped"),
    pytest.param("2024-02-29", 12, "2025-02-27", "2025-02-28", id="AMB-47-TC-3-29feb"),
    pytest.param("2024-03-01", 12, "2025-02-28", "2025-03-01", id="AMB-47-first-of-month"),
])
def test_ban_periods_dates(resolution, months, through, again):
    decision = ban_periods([{"bidder_id": "BB", "kind": "ban", "months": months}], resolution,
                           [{"bidder_id": "BB", "reason": "CONSPIRACY"}])
    assert decision.outcome == [{"bidder_id": "BB", "from": resolution, "through": through, "eligible_again": again}]
    assert decision.details["bans"] == decision.outcome
    assert decision.details["sanctions"][0]["months"] == months
    assert decision.details["sanctions"][0]["reason"] == "CONSPIRACY"
    assert decision.rule_ids == ("AMB-47", "TC-3", "BID-25")


def test_a_resolution_instant_bans_from_its_puerto_rico_day():
    # Recorded at 22:00 in San Juan (02:00 UTC the next day): the ban runs from the resolution's day.
    decision = ban_periods([{"bidder_id": "BB", "kind": "ban", "months": 18}],
                           datetime(2024, 11, 26, 2, 0, tzinfo=timezone.utc))
    assert decision.outcome == [{"bidder_id": "BB", "from": "2024-11-25", "through": "2026-05-24",
                                 "eligible_again": "2026-05-25"}]
    assert decision.inputs["resolution_date"] == date(2024, 11, 25)


def test_bid_s19_both_conspirators_banned_from_the_same_resolution():
    sanctions = [{"bidder_id": b, "kind": "ban", "months": 18} for b in ("BB", "CC")]
    decision = ban_periods(sanctions, "2024-11-25", [{"bidder_id": b, "reason": "CONSPIRACY"} for b in ("BB", "CC")])
    assert decision.outcome == [{"bidder_id": b, "from": "2024-11-25", "through": "2026-05-24",
                                 "eligible_again": "2026-05-25"} for b in ("BB", "CC")]


@pytest.mark.parametrize(("reason", "rules"), [
    pytest.param("MULTIPLE_ENVELOPES", ("AMB-47", "TC-3", "BID-21"), id="BID-21-multiple-envelopes"),
    pytest.param("CONSPIRACY", ("AMB-47", "TC-3", "BID-25"), id="BID-25-conspiracy"),
    pytest.param("COLLUSION", ("AMB-47", "TC-3", "BID-29", "AMB-43"), id="BID-29-AMB-43-collusion"),
    pytest.param("UNJUSTIFIED_COMPLAINT", ("AMB-47", "TC-3", "BID-27", "AMB-49"), id="BID-27-AMB-49-complaint"),
    pytest.param(None, ("AMB-47", "TC-3", "BID-27"), id="BID-27-no-candidate-reason"),
])
def test_ban_periods_cite_the_sanctioned_conduct(reason, rules):
    candidates = [{"bidder_id": "X", "reason": reason}] if reason else []
    decision = ban_periods([{"bidder_id": "X", "kind": "ban", "months": 12}], "2024-11-25", candidates)
    assert decision.rule_ids == rules


def test_registry_withdrawal_without_term_has_no_dates():
    decision = ban_periods([{"bidder_id": "X", "kind": "registry_withdrawal", "months": None, "reason": "r"}],
                           "2024-11-25")
    assert decision.outcome == [{"bidder_id": "X", "from": "2024-11-25", "through": None, "eligible_again": None}]
    assert decision.details["sanctions"][0] == {"bidder_id": "X", "kind": "registry_withdrawal", "months": None,
                                                "from": "2024-11-25", "through": None, "eligible_again": None,
                                                "reason": "r"}


@pytest.mark.parametrize(("reason", "collusion", "expected"), [
    pytest.param("CONSPIRACY", COLLUSION, (12, 36), id="AMB-47-ban-range"),
    pytest.param("COLLUSION", {"min_months": 12, "max_months": 24}, (12, 24), id="AMB-43-collusion-range"),
    pytest.param("COLLUSION", None, (12, 36), id="AMB-43-no-collusion-range-falls-back"),
])
def test_month_range(reason, collusion, expected):
    assert month_range(reason, RANGE, collusion) == expected


@pytest.mark.parametrize(("kind", "months", "reason"), [
    pytest.param("ban", 12, "CONSPIRACY", id="BID-25-AMB-47-12-months"),
    pytest.param("ban", 36, "MULTIPLE_ENVELOPES", id="BID-21-AMB-47-36-months"),
    pytest.param("ban", "24", "COLLUSION", id="BID-29-text-months"),
    pytest.param("registry_withdrawal", None, "UNJUSTIFIED_COMPLAINT", id="BID-27-withdrawal-without-term"),
    pytest.param("registry_withdrawal", 12, "UNJUSTIFIED_COMPLAINT", id="BID-27-timed-withdrawal"),
])
def test_check_sanctions_accepts(kind, months, reason):
    check_sanctions([{"bidder_id": "X", "kind": kind, "months": months}], [{"bidder_id": "X", "reason": reason}],
                    RANGE, COLLUSION)


@pytest.mark.parametrize(("kind", "months", "reason", "collusion"), [
    pytest.param("ban", 11, "CONSPIRACY", COLLUSION, id="BID-25-AMB-47-11-months"),
    pytest.param("ban", 37, "MULTIPLE_ENVELOPES", COLLUSION, id="BID-21-AMB-47-37-months"),
    pytest.param("ban", 0, None, COLLUSION, id="BID-27-zero"),
    pytest.param("ban", None, "CONSPIRACY", COLLUSION, id="AMB-47-ban-without-term"),
    pytest.param("registry_withdrawal", 40, "UNJUSTIFIED_COMPLAINT", COLLUSION, id="BID-27-withdrawal-too-long"),
    pytest.param("ban", 30, "COLLUSION", {"min_months": 12, "max_months": 24}, id="AMB-43-collusion-limit"),
])
def test_check_sanctions_refuses(kind, months, reason, collusion):
    with pytest.raises(RuleViolation) as caught:
        check_sanctions([{"bidder_id": "X", "kind": kind, "months": months}], [{"bidder_id": "X", "reason": reason}],
                        RANGE, collusion)
    assert caught.value.code == "BAN_OUT_OF_RANGE"
    assert caught.value.rule_ids == BAN_RULES
