"""Direct tests of the task-completion rules of engine/rules/bid_adjudication/hooks.py
(bid_adjudication.md task table; RULES.md BID-01, 06…11, 20, 23…31; AMB-40, 43, 45, 47, 49; §5;
BID-S04, S19, S22, S28).

record_opening (BID-01), evaluate_offers (EQUIPMENT_CRITERIA_INCOMPLETE BID-11; conspiracy BID-25;
sworn complaints BID-25…27), set_sanctions (BAN_OUT_OF_RANGE 12–36 months), break_tie (BID-23/24,
AMB-45 fallback), award (JUSTIFICATION_REQUIRED / JUSTIFICATION_SIGNATURES_INCOMPLETE, BID-09; AMB-40
for sales), follow_up_action (ACTION_NOT_ALLOWED_FOR_TYPE, MIN_THREE_QUOTES_REQUIRED,
FUNDS_CERTIFICATION_REQUIRED, BID-31/32), inform_mayor (ALCALDE_NOTICE_REQUIRED, BID-20).
"""
from __future__ import annotations

from datetime import date

import pytest

from engine.rules.bid_adjudication import hooks
from engine.rules.facts import Facts
from tests.unit.rules.hook_checks import ACCEPT, check, unprocessable

BID = {"number": "2025-001", "matter": "sillas de oficina", "kind": "acquisition",
       "lines": [{"line": 1, "description": "500 sillas"}, {"line": 2, "description": "50 mesas"}]}


def facts(case) -> Facts:
    return Facts(case=case, today=date(2024, 9, 20), actor="J1")


def offer(oid, bidder, line=1, price="1000.00"):
    return {"offer_id": oid, "line": line, "bidder_id": bidder, "bidder_name": bidder, "price": price}


# --- record_opening: opening_recorded (BID-01) ---------------------------------------------------

@pytest.mark.parametrize(("bid", "offers", "verdict"), [
    pytest.param(BID, [offer("A", "B-A"), offer("B", "B-B"), offer("C", "B-C", line=2)], ACCEPT,
                 id="BID-01-acta-offers-on-known-lines-accepted"),
    pytest.param(BID, [], ACCEPT, id="BID-12-no-offers-recorded-accepted"),
    pytest.param(BID, [offer("A", "B-A"), offer("A", "B-B")], unprocessable("OFFER_ID_DUPLICATE", ("BID-01",)),
                 id="BID-01-offer-id-twice-refused"),
    pytest.param(BID, [offer("A", "B-A", line=3)], unprocessable("UNKNOWN_LINE", ("BID-01",)),
                 id="BID-01-offer-on-unknown-renglon-refused"),
    pytest.param({**BID, "lines": []}, [offer("A", "B-A", line=7)], ACCEPT, id="BID-01-bid-without-lines-any-line"),
])
def test_opening_recorded(bid, offers, verdict):
    check(hooks.opening_recorded, {"offers": offers}, facts({"bid": bid}), verdict)


# --- evaluate_offers: offers_evaluated (BID-01, 11, 25…27) -----------------------------------------

# BID-S19: AA, BB, CC, DD; DD's sworn declaration says BB and CC agreed on prices.
OFFERS = [offer("AA", "B-AA", price="40500.00"), offer("BB", "B-BB", price="39000.00"),
          offer("CC", "B-CC", price="39100.00"), offer("DD", "B-DD", price="41000.00")]
STATUS = {"AA": "CONSIDERED", "BB": "CONSIDERED", "CC": "CONSIDERED", "DD": "LATE"}
CRITERIA = {"a": "LCC 12 kWh", "b": "baja", "c": "taller en Caguas", "d": "moderado", "e": "piezas locales",
            "f": "no_aplica"}


def evaluation(oid, **more):
    return {"offer_id": oid, "complies_specs": True, "complies_conditions": True, "same_bidder_as": None,
            "bidder_exclusion": "none", "notes": "", **more}


def evaluated(kind="acquisition", **data):
    case = {"bid": {**BID, "kind": kind}, "offers": OFFERS, "offers_status": STATUS}
    return {"evaluations": [evaluation(o) for o in ("AA", "BB", "CC")], "collusion": "none", **data}, facts(case)


COMPLAINT = {"complainant_id": "B-DD", "declaration_date": "2024-11-04"}
HEARD = {**COMPLAINT, "hearing_date": "2024-11-18", "arbitrary": True, "unfounded": True, "malicious": True}
EQUIPPED = [evaluation(o, equipment_criteria=CRITERIA) for o in ("AA", "BB", "CC")]


@pytest.mark.parametrize(("kind", "data", "verdict"), [
    pytest.param("acquisition", {}, ACCEPT, id="BID-02-evaluation-of-considered-offers-accepted"),
    pytest.param("acquisition", {"evaluations": [evaluation("ZZ")]}, unprocessable("UNKNOWN_OFFER", ("BID-01",)),
                 id="BID-01-evaluation-of-offer-not-in-acta-refused"),
    pytest.param("equipment", {"evaluations": EQUIPPED}, ACCEPT, id="BID-11-criteria-a-f-recorded-accepted"),
    pytest.param("equipment", {"evaluations": EQUIPPED[:2] + [evaluation("CC", equipment_criteria={
        k: v for k, v in CRITERIA.items() if k != "f"})]},
        unprocessable("EQUIPMENT_CRITERIA_INCOMPLETE", ("BID-11",)), id="BID-11-criterion-f-missing-refused"),
    pytest.param("equipment", {"evaluations": EQUIPPED[:2] + [evaluation("CC", equipment_criteria={
        **CRITERIA, "b": "  "})]},
        unprocessable("EQUIPMENT_CRITERIA_INCOMPLETE", ("BID-11",)), id="BID-11-blank-criterion-refused"),
    pytest.param("equipment", {"evaluations": EQUIPPED[:2]},
                 unprocessable("EQUIPMENT_CRITERIA_INCOMPLETE", ("BID-11",)),
                 id="BID-11-considered-offer-without-evaluation-refused"),
    pytest.param("acquisition", {"evaluations": [evaluation("AA")]}, ACCEPT,
                 id="BID-11-criteria-not-asked-outside-equipment"),
    pytest.param("acquisition", {"collusion": "conspiracy", "conspirators": ["B-BB", "B-CC"]}, ACCEPT,
                 id="BID-25-S19-conspiracy-naming-bidders-accepted"),
    pytest.param("acquisition", {"collusion": "conspiracy", "conspirators": []},
                 unprocessable("CONSPIRATORS_REQUIRED", ("BID-25",)), id="BID-25-conspiracy-without-names-refused"),
    pytest.param("acquisition", {"complaint": COMPLAINT}, ACCEPT, id="BID-25-sworn-declaration-by-a-bidder-accepted"),
    pytest.param("acquisition", {"complaint": {**COMPLAINT, "complainant_id": "B-XX"}},
                 unprocessable("COMPLAINANT_NOT_A_BIDDER", ("BID-25",)), id="BID-25-declaration-by-outsider-refused"),
    pytest.param("acquisition", {"complaint": {**HEARD, "hearing_date": None}},
                 unprocessable("COMPLAINT_HEARING_REQUIRED", ("BID-26", "BID-27")),
                 id="BID-26-BID-27-finding-without-hearing-refused"),
    pytest.param("acquisition", {"complaint": HEARD}, ACCEPT, id="BID-27-finding-after-hearing-accepted"),
])
def test_offers_evaluated(kind, data, verdict):
    check(hooks.offers_evaluated, *evaluated(kind, **data), verdict)


# --- set_sanctions: sanctions_set (BID-21, 25, 27, 29; AMB-43, 47, 49) ---------------------------

CANDIDATES = [{"bidder_id": "B-BB", "reason": "CONSPIRACY"}, {"bidder_id": "B-CC", "reason": "COLLUSION"}]
OUT_OF_RANGE = unprocessable("BAN_OUT_OF_RANGE", cites=("BID-21", "BID-25", "BID-27", "BID-29"))
UNJUSTIFIED = {"complainant_id": "B-DD", "unjustified": True}


def ban(bidder, months, kind="ban"):
    return {"bidder_id": bidder, "kind": kind, "months": months, "reason": "vista 2024-11-18"}


@pytest.mark.parametrize(("data", "more", "verdict"), [
    pytest.param({"sanctions": [ban("B-BB", 18), ban("B-CC", 18)]}, {}, ACCEPT, id="BID-25-S19-18-months-accepted"),
    pytest.param({"sanctions": [ban("B-BB", 12)]}, {}, ACCEPT, id="AMB-47-12-months-accepted"),
    pytest.param({"sanctions": [ban("B-BB", 36)]}, {}, ACCEPT, id="AMB-47-36-months-accepted"),
    pytest.param({"sanctions": [ban("B-BB", 11)]}, {}, OUT_OF_RANGE, id="BID-25-11-months-refused"),
    pytest.param({"sanctions": [ban("B-BB", 37)]}, {}, OUT_OF_RANGE, id="BID-25-37-months-refused"),
    pytest.param({"sanctions": [ban("B-BB", None)]}, {}, OUT_OF_RANGE, id="AMB-47-ban-without-term-refused"),
    pytest.param({"sanctions": [ban("B-BB", None, "registry_withdrawal")]}, {}, ACCEPT,
                 id="BID-27-withdrawal-without-term-accepted"),
    pytest.param({"sanctions": [ban("B-CC", 30)]}, {"collusion_range": {"min_months": 12, "max_months": 24}},
                 OUT_OF_RANGE, id="BID-29-AMB-43-collusion-range-parameter-refuses-30"),
    pytest.param({"sanctions": [ban("B-BB", 30)]}, {"collusion_range": {"min_months": 12, "max_months": 24}},
                 ACCEPT, id="BID-25-conspiracy-keeps-12-36-under-collusion-range"),
    pytest.param({"sanctions": [ban("B-DD", 12)], "justice_referral": True}, {"complaint_finding": UNJUSTIFIED},
                 ACCEPT, id="BID-27-unjustified-complaint-referred-and-banned-accepted"),
    pytest.param({"sanctions": [ban("B-DD", 12)], "justice_referral": False}, {"complaint_finding": UNJUSTIFIED},
                 unprocessable("JUSTICE_REFERRAL_REQUIRED", ("BID-27",)), id="BID-27-unjustified-without-referral-refused"),
    pytest.param({"sanctions": [], "justice_referral": True}, {"complaint_finding": UNJUSTIFIED},
                 unprocessable("COMPLAINANT_SANCTION_REQUIRED", ("BID-27", "AMB-49")),
                 id="BID-27-AMB-49-referral-without-complainant-term-refused"),
    pytest.param({"sanctions": [], "justice_referral": True}, {"complaint_finding": {**UNJUSTIFIED, "unjustified": False}},
                 unprocessable("COMPLAINT_NOT_UNJUSTIFIED", ("BID-27", "AMB-49")),
                 id="BID-27-AMB-49-referral-without-unjustified-finding-refused"),
])
def test_sanctions_set(data, more, verdict):
    limits = {"ban_range": (12, 36), **({"collusion_range": more["collusion_range"]} if "collusion_range" in more else {})}
    case = {"bid": BID, "sanction_candidates": CANDIDATES, "bid_limits": limits,
            **({"complaint_finding": more["complaint_finding"]} if "complaint_finding" in more else {})}
    check(hooks.sanctions_set, {"resolution_date": "2024-11-25", **data}, facts(case), verdict)


# --- break_tie: tie_broken (BID-23, 24; AMB-45) --------------------------------------------------

TIE_OFFERS = [offer("F", "B-F"), offer("G", "B-G"), offer("H", "B-H", price="1200.00")]
LOTTERY_INVALID = unprocessable("LOTTERY_RESULT_INVALID", ("BID-24",))


@pytest.mark.parametrize(("data", "fallback", "verdict"), [
    pytest.param({"method": "qualitative", "chosen_offer_id": "G", "basis": "WARRANTY"}, "LOTTERY", ACCEPT,
                 id="BID-23-qualitative-choice-with-basis-accepted"),
    pytest.param({"method": "qualitative", "chosen_offer_id": "H", "basis": "QUALITY"}, "LOTTERY",
                 unprocessable("TIE_CHOICE_INVALID", ("BID-23",)), id="BID-23-choice-outside-the-tie-refused"),
    pytest.param({"method": "qualitative", "chosen_offer_id": "G"}, "LOTTERY",
                 unprocessable("TIE_BASIS_REQUIRED", ("BID-23",)), id="BID-23-choice-without-basis-refused"),
    pytest.param({"method": "qualitative", "chosen_offer_id": None, "witnessed_result": "H"}, "LOTTERY",
                 LOTTERY_INVALID, id="AMB-45-still-identical-falls-back-to-lottery"),
    pytest.param({"method": "qualitative", "chosen_offer_id": None, "witnessed_result": "H"}, "NEW_BID_AMONG_TIED",
                 ACCEPT, id="AMB-45-fallback-new-bid-among-tied"),
    pytest.param({"method": "lottery", "witnessed_result": "F"}, "LOTTERY", ACCEPT,
                 id="BID-24-witnessed-tied-offer-accepted"),
    pytest.param({"method": "lottery", "witnessed_result": "B-G"}, "LOTTERY", ACCEPT,
                 id="BID-24-witnessed-tied-bidder-accepted"),
    pytest.param({"method": "lottery", "witnessed_result": None}, "LOTTERY", ACCEPT, id="BID-24-TC-7-engine-draws"),
    pytest.param({"method": "lottery", "witnessed_result": "H"}, "LOTTERY", LOTTERY_INVALID,
                 id="BID-24-witnessed-untied-offer-refused"),
    pytest.param({"method": "new_bid_among_tied"}, "LOTTERY", ACCEPT, id="BID-24-new-bid-among-tied-accepted"),
])
def test_tie_broken(data, fallback, verdict):
    case = {"bid": BID, "tie": ["F", "G"], "offers": TIE_OFFERS, "bid_limits": {"tie_fallback": fallback}}
    check(hooks.tie_broken, data, facts(case), verdict)


# --- award: award_decided (BID-06…10, 30; AMB-40) -------------------------------------------------

# BID-S04: F 30,000.00 (first in the ranking), G 31,200.00 with the better warranty; J1–J3 vote G.
VOTES_FOR_G = [{"member": m, "offer_id": "G"} for m in ("J1", "J2", "J3")] + \
    [{"member": m, "offer_id": "F"} for m in ("J4", "J5")]
SIGNED = {"text": "garantía superior de 5 años", "signed_by": ["J1", "J2", "J3"]}
RANKING = {"1": ["F", "G"]}


def awarding(offer_id, justification=None, votes=VOTES_FOR_G, line=1):
    return {"line": line, "offer_id": offer_id, "votes": votes, "justification": justification}


@pytest.mark.parametrize(("kind", "data", "limits", "verdict"), [
    pytest.param("acquisition", {"decision": "award", "awards": [awarding("F", votes=[])]}, {}, ACCEPT,
                 id="BID-08-first-in-ranking-needs-no-justification"),
    pytest.param("acquisition", {"decision": "award", "awards": [awarding("G", SIGNED)]}, {}, ACCEPT,
                 id="BID-09-S04a-signed-justification-accepted"),
    pytest.param("acquisition", {"decision": "award", "awards": [awarding("G")]}, {},
                 unprocessable("JUSTIFICATION_REQUIRED", cites=("BID-08", "BID-09")),
                 id="BID-09-S04b-no-written-justification-refused"),
    pytest.param("acquisition", {"decision": "award", "awards": [awarding("G", {**SIGNED, "signed_by": ["J1", "J2"]})]},
                 {}, unprocessable("JUSTIFICATION_SIGNATURES_INCOMPLETE", ("BID-09",)),
                 id="BID-09-S04c-signed-by-J1-J2-only-refused"),
    pytest.param("sale", {"decision": "award", "awards": [awarding("G")]}, {},
                 unprocessable("JUSTIFICATION_REQUIRED", cites=("BID-09", "AMB-40")),
                 id="BID-10-AMB-40-sale-not-highest-needs-justification"),
    pytest.param("sale", {"decision": "award", "awards": [awarding("G")]}, {"sale_needs_justification": False},
                 ACCEPT, id="BID-10-AMB-40-parameter-off-sale-accepted"),
    pytest.param("acquisition", {"decision": "award", "awards": []}, {}, unprocessable("AWARDS_REQUIRED", ("BID-06",)),
                 id="BID-06-award-without-renglon-refused"),
    pytest.param("acquisition", {"decision": "award", "awards": [awarding("F", votes=[]), awarding("F", votes=[])]},
                 {}, unprocessable("AWARD_LINE_DUPLICATE", ("BID-06",)), id="BID-06-renglon-awarded-twice-refused"),
    pytest.param("acquisition", {"decision": "award", "awards": [awarding("PP", SIGNED)]}, {},
                 unprocessable("AWARD_OFFER_NOT_ELIGIBLE", ("BID-01", "BID-07")),
                 id="BID-01-S28-offer-not-in-acta-cannot-be-awarded"),
    pytest.param("acquisition", {"decision": "award", "awards": [awarding("G", SIGNED, votes=[
        {"member": m, "offer_id": "G"} for m in ("J1", "J2")] + [{"member": m, "offer_id": "F"} for m in ("J3", "J4", "J5")])]},
        {}, unprocessable("AWARD_NOT_MAJORITY", ("BID-06",)), id="BID-06-minority-of-votes-refused"),
    pytest.param("acquisition", {"decision": "reject_all", "rejection_reasons": ["a"]}, {}, ACCEPT,
                 id="BID-30a-reject-all-with-reasons-accepted"),
    pytest.param("acquisition", {"decision": "reject_all", "rejection_reasons": []}, {},
                 unprocessable("REJECTION_REASONS_REQUIRED", ("BID-30",)), id="BID-30-reject-all-without-reasons-refused"),
])
def test_award_decided(kind, data, limits, verdict):
    case = {"bid": {**BID, "kind": kind}, "ranking": RANKING, "bid_limits": limits}
    check(hooks.award_decided, data, facts(case), verdict)


# --- follow_up_action: follow_up_chosen (BID-28, 31, 32) -------------------------------------------

# BID-S22: road repaving (construction), every offer rejected; quotes HH, II, JJ.
QUOTES = [{"supplier": "HH", "total": "88000.00"}, {"supplier": "II", "total": "91000.00"},
          {"supplier": "JJ", "total": "95500.00"}]
PRIVATE = {"action": "PRIVATE_CONTRACT_AFTER_QUOTES", "quotes": QUOTES, "public_interest_finding": "vía principal",
           "funds_certification": "CF-2024-88"}
NOT_FOR_TYPE = unprocessable("ACTION_NOT_ALLOWED_FOR_TYPE", cites=("BID-31", "BID-32"))


@pytest.mark.parametrize(("kind", "collusion", "data", "verdict"), [
    pytest.param("construction", False, PRIVATE, ACCEPT, id="BID-31-S22-private-contract-after-three-quotes-accepted"),
    pytest.param("construction", False, {**PRIVATE, "quotes": QUOTES[:2]},
                 unprocessable("MIN_THREE_QUOTES_REQUIRED", ("BID-31",)), id="BID-31-S22-two-quotes-refused"),
    pytest.param("construction", False, {**PRIVATE, "quotes": QUOTES[:2] + [{"supplier": " hh ", "total": "1.00"}]},
                 unprocessable("MIN_THREE_QUOTES_REQUIRED", ("BID-31",)), id="BID-31-same-supplier-twice-refused"),
    pytest.param("construction", False, {**PRIVATE, "funds_certification": None},
                 unprocessable("FUNDS_CERTIFICATION_REQUIRED", ("BID-31",)), id="BID-31-S22-no-funds-certification-refused"),
    pytest.param("services", False, {"action": "BY_ADMINISTRATION", "public_interest_finding": "x"},
                 unprocessable("FUNDS_CERTIFICATION_REQUIRED", ("BID-31",)),
                 id="BID-31-by-administration-without-funds-refused"),
    pytest.param("construction", False, {**PRIVATE, "public_interest_finding": ""},
                 unprocessable("PUBLIC_INTEREST_FINDING_REQUIRED", ("BID-31",)),
                 id="BID-31-no-public-interest-finding-refused"),
    pytest.param("construction", False, {"action": "NEGOTIATE_WITH_REJECTED_BIDDERS"}, NOT_FOR_TYPE,
                 id="BID-31-construction-cannot-negotiate-refused"),
    pytest.param("acquisition", False, {**PRIVATE, "action": "BY_ADMINISTRATION"}, NOT_FOR_TYPE,
                 id="BID-32-acquisition-not-by-administration-refused"),
    pytest.param("acquisition", False, {"action": "QUOTES", "quotes": QUOTES[:1]}, ACCEPT,
                 id="BID-32-quotes-need-not-three-accepted"),
    pytest.param("acquisition", False, {"action": "NEGOTIATE_WITH_REJECTED_BIDDERS"}, ACCEPT,
                 id="BID-32-negotiate-with-rejected-accepted"),
    pytest.param("acquisition", True, {"action": "NEGOTIATE_WITH_REJECTED_BIDDERS"},
                 unprocessable("ACTION_NOT_ALLOWED_FOR_TYPE", cites=("BID-28",)),
                 id="BID-28-no-negotiation-with-colluders-refused"),
    pytest.param("acquisition", True, {"action": "QUOTES", "quotes": QUOTES}, ACCEPT,
                 id="BID-28-purchase-by-quotes-after-collusion-accepted"),
    pytest.param("construction", False, {"action": "NEW_BID"}, ACCEPT, id="BID-31-new-bid-accepted"),
])
def test_follow_up_chosen(kind, collusion, data, verdict):
    case = {"bid": {**BID, "kind": kind}, "collusion_of_all": collusion}
    check(hooks.follow_up_chosen, data, facts(case), verdict)


# --- inform_mayor: mayor_informed (BID-20; AMB-42) -------------------------------------------------

@pytest.mark.parametrize(("notice", "verdict"), [
    pytest.param("tres subastas de sillas con un solo licitador", ACCEPT, id="BID-20-notice-to-alcalde-accepted"),
    pytest.param("  ", unprocessable("ALCALDE_NOTICE_REQUIRED", ("BID-20", "AMB-42")), id="BID-20-blank-notice-refused"),
    pytest.param(None, unprocessable("ALCALDE_NOTICE_REQUIRED", ("BID-20", "AMB-42")), id="BID-20-no-notice-refused"),
])
def test_mayor_informed(notice, verdict):
    check(hooks.mayor_informed, {"notice_text": notice}, facts({"bid": BID, "mayor_alert": True}), verdict)
