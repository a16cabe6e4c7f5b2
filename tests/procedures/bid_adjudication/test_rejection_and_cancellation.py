"""BID-S22 (global rejection, follow-up action) and BID-S25 (cancellation, fiscal-year lock)."""
from __future__ import annotations

from .conftest import offer, rule_of

PAVING = {"matter": "repavimentación de caminos", "kind": "construction", "estimate": "90000.00",
          "lines": [{"line": 1, "description": "repavimentación"}]}
QUOTES = [{"supplier": "HH", "total": "88000.00"}, {"supplier": "II", "total": "91000.00"},
          {"supplier": "JJ", "total": "95500.00"}]


def rejected(bids, **bid):
    case = bids.played([offer("K", "85000.00"), offer("L", "87000.00")], **(bid or PAVING))
    return bids.reject_all(case, reasons=["a"])


def test_bid_s22_global_rejection_then_private_contract_after_three_quotes(bids):
    case = rejected(bids)
    data = {"action": "PRIVATE_CONTRACT_AFTER_QUOTES", "quotes": QUOTES, "public_interest_finding": "Urgencia vial",
            "funds_certification": "CF-2024-118"}
    two = bids.complete(case, "follow_up_action", {**data, "quotes": QUOTES[:2]}, "J1", expect=422)
    assert rule_of(two) == ["MIN_THREE_QUOTES_REQUIRED"]
    no_funds = bids.complete(case, "follow_up_action", {**data, "funds_certification": None}, "J1", expect=422)
    assert rule_of(no_funds) == ["FUNDS_CERTIFICATION_REQUIRED"]
    case = bids.complete(case, "follow_up_action", data, "J1")
    v = case["variables"]
    assert (case["outcome"], v["follow_up"], v["contractor"]) == ("REJECTED_ALL", "PRIVATE_CONTRACT_AFTER_QUOTES", "HH")


def test_follow_up_actions_depend_on_the_kind_of_bid(bids):
    case = rejected(bids, matter="sillas")
    refused = bids.complete(case, "follow_up_action", {"action": "BY_ADMINISTRATION", "public_interest_finding": "x",
                                                       "funds_certification": "y"}, "J1", expect=422)
    assert rule_of(refused) == ["ACTION_NOT_ALLOWED_FOR_TYPE"]
    case = bids.complete(case, "follow_up_action", {"action": "NEGOTIATE_WITH_REJECTED_BIDDERS"}, "J1")
    assert case["variables"]["follow_up"] == "NEGOTIATE_WITH_REJECTED_BIDDERS"
    works = rejected(bids)
    assert rule_of(bids.complete(works, "follow_up_action", {"action": "QUOTES"}, "J1", expect=422)) == \
        ["ACTION_NOT_ALLOWED_FOR_TYPE"]


def test_no_compliant_offer_left_goes_to_global_rejection(bids):
    case = bids.record(bids.open(), [offer("K", "85000.00"), offer("L", "87000.00")])
    case = bids.evaluate(case, [{"offer_id": "K", "complies_specs": False},
                                {"offer_id": "L", "bidder_exclusion": "debtor_no_plan"}])
    assert case["variables"]["offers_status"] == {"K": "NON_COMPLIANT_SPECS", "L": "BIDDER_EXCLUDED"}
    assert {t["element_id"] for t in case["open_tasks"]} == {"follow_up_action"}


OFFICE = {"number": "2025-040", "matter": "equipo de oficina", "funds_certified": "80000.00",
          "lines": [{"line": 1, "description": "equipo de oficina"}]}


def cancelled_on_2024_09_10(bids):
    case = bids.record(bids.open(**OFFICE), [offer(f"O{i}", f"{95000 + i}.00", bond_amount="2000.00")
                                             for i in range(4)])
    bids.day("2024-09-10")
    return bids.cancel(case["id"])


def test_bid_s25_cancellation_returns_the_bonds_and_locks_the_fiscal_year(bids):
    case = cancelled_on_2024_09_10(bids)
    v = case["variables"]
    assert (case["outcome"], case["status"], v["bonds_returned"], v["similar_purchase_lock_until"]) == \
        ("CANCELLED", "completed", "8000.00", "2025-06-30")
    bids.day("2025-02-03")
    bids.open(matter="Equipo de  Oficina", emergency_justification="Daños del huracán", number="2025-051")
    bids.day("2025-03-03")
    assert rule_of(bids.open(expect=422, matter="equipo de oficina")) == ["SIMILAR_PURCHASE_BLOCKED_FY"]
    lock = bids.api.get("/api/v1/registries/purchase_locks?matter=equipo%20de%20oficina", "J1")
    assert lock["allowed"] is False and lock["locks"][0]["locked_until"] == "2025-06-30"
    bids.day("2025-06-30")
    assert rule_of(bids.open(expect=422, matter="equipo de oficina")) == ["SIMILAR_PURCHASE_BLOCKED_FY"]
    bids.day("2025-07-01")
    bids.open(matter="equipo de oficina")


def test_bid_s25_desist_only_scope_does_not_lock_for_lack_of_funds(bids):
    bids.param("bid.noSimilarPurchaseScope", "DESIST_ONLY")
    case = cancelled_on_2024_09_10(bids)
    assert case["variables"]["similar_purchase_lock_until"] is None
    bids.day("2025-03-03")
    bids.open(matter="equipo de oficina")


def test_cancellation_needs_written_notice_and_the_bonds_back(bids):
    case = bids.record(bids.open(**OFFICE), [offer("O1", "95000.00", bond_amount="2000.00")])
    no_notice = bids.cancel(case["id"], expect=422, all_bidders_notified=False)
    assert rule_of(no_notice) == ["CANCELLATION_NOTICE_REQUIRED"]
    no_bonds = bids.cancel(case["id"], expect=422, bonds_returned=False)
    assert rule_of(no_bonds) == ["BONDS_NOT_RETURNED"]
    assert bids.case(case["id"])["status"] == "active"
    refused = [e["data"]["code"] for e in bids.history(case["id"]) if e["type"] == "message_refused"]
    assert refused == ["CANCELLATION_NOTICE_REQUIRED", "BONDS_NOT_RETURNED"]


def test_cancellation_is_possible_at_any_stage_before_the_award_only(bids):
    at_opening = bids.cancel(bids.open()["id"], cause="desisted")
    assert (at_opening["outcome"], at_opening["variables"]["bonds_returned"]) == ("CANCELLED", "0.00")
    at_award = bids.played([offer("A", "100.00"), offer("B", "200.00")], matter="mesas")
    assert bids.cancel(at_award["id"], cause="funds_unavailable")["outcome"] == "CANCELLED"
    awarded = bids.award_first(bids.played([offer("A", "100.00"), offer("B", "200.00")], matter="lámparas"))
    assert rule_of(bids.cancel(awarded["id"], expect=409)) == ["MESSAGE_NOT_EXPECTED"]
