"""BID-27 (a sworn complaint found unjustified), BID-20 (the notice the Junta owes the Alcalde) and
AMB-45 (`bid.tieBreakAfterQualitative`, frozen when the case starts), played through the HTTP API."""
from __future__ import annotations

from .conftest import offer, rule_of

MALICIOUS = {"complainant_id": "DD", "declaration_date": "2024-11-04", "hearing_date": "2024-11-18",
             "arbitrary": True, "unfounded": True, "malicious": True}


def four_offers():
    return [offer("AA", "40500.00"), offer("BB", "39000.00"), offer("CC", "39100.00"), offer("DD", "41000.00")]


def resolve(bids, case, sanctions, justice_referral, expect=200):
    data = {"resolution_date": "2024-11-25", "justice_referral": justice_referral, "sanctions": sanctions}
    return bids.complete(case, "set_sanctions", data, "J1", expect)


def withdrawal(months, bidder="DD"):
    return [{"bidder_id": bidder, "kind": "registry_withdrawal", "months": months,
             "reason": "declaración jurada arbitraria, infundada y maliciosa"}]


def decisions(bids, case_id, rule):
    return [e for e in bids.history(case_id) if e["type"] == "decision" and e["data"]["rule"] == rule]


def test_bid_27_unjustified_complaint_is_referred_and_the_complainant_withdrawn_from_the_registry(bids, api):
    bids.day("2024-11-25")
    case = bids.record(bids.open(), four_offers())
    case = bids.evaluate(case, complaint=MALICIOUS)
    assert {t["element_id"] for t in case["open_tasks"]} == {"set_sanctions"}
    assert {"bidder_id": "DD", "reason": "UNJUSTIFIED_COMPLAINT"} in case["variables"]["sanction_candidates"]

    assert rule_of(resolve(bids, case, withdrawal(12), False, expect=422)) == ["JUSTICE_REFERRAL_REQUIRED"]
    assert rule_of(resolve(bids, case, withdrawal(None), True, expect=422)) == ["COMPLAINANT_SANCTION_REQUIRED"]
    assert rule_of(resolve(bids, case, withdrawal(37), True, expect=422)) == ["BAN_OUT_OF_RANGE"]
    case = resolve(bids, case, withdrawal(12), True)
    v = case["variables"]
    assert v["justice_referral"] is True
    assert v["bans"] == [{"bidder_id": "DD", "from": "2024-11-25", "through": "2025-11-24",
                          "eligible_again": "2025-11-25"}]

    [finding] = decisions(bids, case["id"], "complaint_unjustified")
    assert finding["data"]["outcome"] is True and "AMB-49" in finding["rule_ids"]
    [referral] = decisions(bids, case["id"], "complaint_referral")
    assert referral["data"]["outcome"] is True and "BID-27" in referral["rule_ids"]
    assert referral["data"]["inputs"]["complaint_finding"] == {**MALICIOUS, "unjustified": True}
    assert referral["data"]["complainant_sanction"]["kind"] == "registry_withdrawal"
    notices = api.get(f"/api/v1/instances/{case['id']}/notifications", "boss")
    assert [n["recipient"] for n in notices] == ["Departamento de Justicia"]

    [entry] = bids.bidders(banned="true")
    assert (entry["id"], entry["banned_until"], entry["sanctions"][0]["kind"]) == \
        ("DD", "2025-11-24", "registry_withdrawal")
    # The withdrawal runs from the resolution: this bid, opened before it, still ranks DD's offer.
    assert case["variables"]["offers_status"]["DD"] == "CONSIDERED"
    assert bids.award_first(case)["variables"]["awardee"] == "BB"

    later = [offer("DD", "100.00"), offer("EE", "120.00")]
    withdrawn = bids.record(bids.open(matter="mesas", offers_due_at="2025-11-24T10:00:00-04:00"),
                            [dict(o, received_at="2025-11-24T09:00:00-04:00") for o in later])
    assert withdrawn["variables"]["offers_status"] == {"DD": "BIDDER_BANNED", "EE": "CONSIDERED"}
    again = bids.record(bids.open(matter="mesas", offers_due_at="2025-11-25T10:00:00-04:00"),
                        [dict(o, received_at="2025-11-25T09:00:00-04:00") for o in later])
    assert again["variables"]["offers_status"]["DD"] == "CONSIDERED"


def test_a_complaint_that_is_not_also_malicious_is_neither_referred_nor_sanctioned(bids):
    case = bids.record(bids.open(), four_offers())
    case = bids.evaluate(case, complaint={**MALICIOUS, "malicious": False})
    assert {t["element_id"] for t in case["open_tasks"]} == {"award"}
    [finding] = decisions(bids, case["id"], "complaint_unjustified")
    assert finding["data"]["outcome"] is False and finding["data"]["inputs"]["malicious"] is False
    assert case["variables"]["justice_referral"] is False

    # A conspiracy is proven, the complaint was only unfounded: no referral may be made (AMB-49).
    other = bids.record(bids.open(), four_offers())
    other = bids.evaluate(other, collusion="conspiracy", conspirators=["BB", "CC"],
                          complaint={**MALICIOUS, "arbitrary": False})
    bans = [{"bidder_id": b, "kind": "ban", "months": 18, "reason": "conspiración"} for b in ("BB", "CC")]
    assert rule_of(resolve(bids, other, bans + withdrawal(12), True, expect=422)) == ["COMPLAINT_NOT_UNJUSTIFIED"]
    other = resolve(bids, other, bans, False)
    assert other["variables"]["justice_referral"] is False
    assert [b["bidder_id"] for b in other["variables"]["bans"]] == ["BB", "CC"]


def test_complaint_findings_need_the_hearing_and_a_complaining_bidder(bids):
    case = bids.record(bids.open(), four_offers())
    no_hearing = bids.evaluate(case, complaint={**MALICIOUS, "hearing_date": None}, expect=422)
    assert rule_of(no_hearing) == ["COMPLAINT_HEARING_REQUIRED"]
    stranger = bids.evaluate(case, complaint={**MALICIOUS, "complainant_id": "ZZ"}, expect=422)
    assert rule_of(stranger) == ["COMPLAINANT_NOT_A_BIDDER"]
    refusals = [e["data"]["code"] for e in bids.history(case["id"]) if e["type"] == "task_refused"]
    assert refusals == ["COMPLAINT_HEARING_REQUIRED", "COMPLAINANT_NOT_A_BIDDER"]


def test_bid_20_the_alcalde_is_informed_before_the_bid_goes_on_or_is_cancelled(bids):
    bids.param("bid.singleBidderAlertThreshold", 1)
    case = bids.record(bids.open(), [offer("UNO", "49000.00")])
    assert {t["element_id"] for t in case["open_tasks"]} == {"inform_mayor"}

    refused = bids.cancel(case["id"], expect=409)
    assert rule_of(refused) == ["ALCALDE_NOTICE_REQUIRED"]
    for blank in ({"notice_text": "   "}, {}):
        answer = bids.complete(case, "inform_mayor", blank, "J1", expect=422)
        assert rule_of(answer) == ["ALCALDE_NOTICE_REQUIRED"]
    history = bids.history(case["id"])
    assert [e["data"]["code"] for e in history if e["type"] == "message_refused"] == ["ALCALDE_NOTICE_REQUIRED"]
    assert [e["data"]["code"] for e in history if e["type"] == "task_refused"] == ["ALCALDE_NOTICE_REQUIRED"] * 2
    assert "BID-20" in next(e for e in history if e["type"] == "message_refused")["rule_ids"]
    assert bids.case(case["id"])["status"] == "active"

    case = bids.complete(case, "inform_mayor", {"notice_text": "Subastas de sillas con un solo licitador"}, "J1")
    assert {t["element_id"] for t in case["open_tasks"]} == {"mayor_investigation"}
    cancelled = bids.cancel(case["id"])
    assert (cancelled["outcome"], cancelled["variables"]["notice_text"]) == \
        ("CANCELLED", "Subastas de sillas con un solo licitador")


def tied(bids):
    return bids.played([offer("A", "1000.00"), offer("B", "1000.00")])


def test_by_default_a_tie_left_by_the_qualitative_comparison_goes_to_a_lottery(bids):
    case = tied(bids)
    case = bids.complete(case, "break_tie", {"method": "qualitative", "witnessed_result": "A"}, "J2")
    assert case["variables"]["ranking"]["1"][0] == "A"
    [resolution] = decisions(bids, case["id"], "tie_resolution")
    assert resolution["data"]["inputs"]["tie_break_after_qualitative"] == "LOTTERY"
    assert resolution["data"]["method"] == "lottery"


def test_new_bid_among_tied_as_the_fallback_is_frozen_when_the_case_starts(bids):
    before = tied(bids)
    bids.param("bid.tieBreakAfterQualitative", "NEW_BID_AMONG_TIED")
    after = tied(bids)

    after = bids.complete(after, "break_tie", {"method": "qualitative"}, "J2")
    assert (after["outcome"], after["status"]) == ("NEW_BID_AMONG_TIED", "completed")
    assert not [e for e in bids.history(after["id"]) if e["type"] == "lottery"]

    # Whatever the fallback, the contract's explicit methods stay open to the Junta; the case opened
    # before the change keeps its frozen LOTTERY.
    drawn = tied(bids)
    drawn = bids.complete(drawn, "break_tie", {"method": "new_bid_among_tied"}, "J2")
    assert drawn["outcome"] == "NEW_BID_AMONG_TIED"
    before = bids.complete(before, "break_tie", {"method": "qualitative", "chosen_offer_id": "B",
                                                 "basis": "DELIVERY"}, "J2")
    assert before["variables"]["ranking"]["1"] == ["B", "A"]
