"""Direct tests of engine/rules/bid_adjudication/screening.py (BID-01, 02, 11, 12, 19, 21, 22, 25, 28, 30;
AMB-44, 48, 50, 51).

Each offer ends CONSIDERED or with the first reason that excludes it. BID-12: deserted when nothing
arrived or everything arrived late. BID-21: several envelopes of one bidder for one renglón are all
rejected and the bidder is a ban candidate; BID-22/AMB-50: unrequested alternates in an equipment bid
reject every model of that bidder. AMB-51: prices subject to market changes do not meet the conditions.
"""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest

from engine.rules.bid_adjudication.screening import (
    CONSIDERED, apply_evaluation, equipment_criteria_missing, opening_day, screen_offers,
)

DUE = "2024-09-10T10:00:00-04:00"
AST = timezone(timedelta(hours=-4))


# The rules each screening reason cites (RULES.md §4.3, §5, §6).
SCREEN_RULES = {CONSIDERED: (), "LATE": ("BID-12",), "NOT_IN_ACTA": (), "COLLECTOR_REPORT": (),
                "BIDDER_BANNED": ("BID-21", "BID-25", "BID-27", "BID-29"),
                "NON_COMPLIANT_CONDITIONS": ("BID-02", "BID-07", "BID-30b", "BID-19", "AMB-51")}


def bid(kind="acquisition", alternates=False):
    return {"number": "2025-001", "kind": kind, "alternates_requested": alternates, "offers_due_at": DUE}


def offer(oid, bidder=None, line=1, received="2024-09-10T09:00:00-04:00", **extra):
    return {"offer_id": oid, "line": line, "bidder_id": bidder or oid, "received_at": received, "in_acta": True,
            "collector_ok": True, "price": "100.00", **extra}


@pytest.mark.parametrize(("extra", "banned", "status"), [
    pytest.param({}, {}, CONSIDERED, id="BID-01-considered"),
    pytest.param({"received": DUE}, {}, CONSIDERED, id="BID-01-BID-12-exactly-on-time"),
    pytest.param({"received": "2024-09-10T10:00:01-04:00"}, {}, "LATE", id="BID-01-BID-12-one-second-late"),
    pytest.param({"received": "2024-09-10T14:00:00+00:00"}, {}, CONSIDERED, id="BID-01-same-instant-in-utc"),
    pytest.param({"received": "2024-09-10T14:00:01+00:00"}, {}, "LATE", id="BID-12-late-in-utc"),
    pytest.param({"in_acta": False}, {}, "NOT_IN_ACTA", id="BID-01-BID-S28-not-in-acta"),
    pytest.param({"collector_ok": False}, {}, "COLLECTOR_REPORT", id="BID-01-informe-del-recaudador"),
    pytest.param({}, {"A": {"through": "2026-05-24"}}, "BIDDER_BANNED", id="BID-21-BID-25-banned-bidder"),
    pytest.param({"price_subject_to_market": True}, {}, "NON_COMPLIANT_CONDITIONS",
                 id="BID-19-BID-30b-AMB-51-BID-S13b-market-clause"),
    pytest.param({"received": "2024-09-10T11:00:00-04:00", "in_acta": False, "collector_ok": False}, {"A": {}},
                 "LATE", id="BID-01-lateness-is-the-first-reason"),
    pytest.param({"in_acta": False, "collector_ok": False}, {"A": {}}, "NOT_IN_ACTA", id="BID-01-acta-before-collector"),
])
def test_screen_one_offer(extra, banned, status):
    received = extra.pop("received", "2024-09-10T09:00:00-04:00")
    decision = screen_offers([offer("A", received=received, **extra)], bid(), banned)
    assert decision.outcome == {"A": status}
    assert decision.details["offers_status"] == {"A": status}
    assert decision.details["deserted"] is (status == "LATE")
    assert tuple(dict.fromkeys(decision.rule_ids)) == ("BID-01", *SCREEN_RULES[status])


def test_market_clause_offer_considered_when_parameter_off():
    decision = screen_offers([offer("P", price_subject_to_market=True)], bid(), {}, escalation_non_compliant=False)
    assert decision.outcome == {"P": CONSIDERED}


@pytest.mark.parametrize(("offers", "deserted"), [
    pytest.param([], True, id="BID-12-BID-S07-no-offers"),
    pytest.param([offer("A", received="2024-09-10T10:30:00-04:00"), offer("B", received="2024-09-11T08:00:00-04:00")],
                 True, id="BID-12-all-late"),
    pytest.param([offer("A", received="2024-09-10T10:30:00-04:00"), offer("B")], False, id="BID-12-one-on-time"),
])
def test_deserted(offers, deserted):
    decision = screen_offers(offers, bid(), {})
    assert decision.details["deserted"] is deserted
    assert decision.rule_ids[0] == "BID-01" and "BID-12" in decision.rule_ids  # lateness cites BID-12 too


def test_bid_s28_offer_missing_from_the_acta():
    offers = [offer("PP", in_acta=False, price="9000.00"), offer("QQ", price="9400.00"), offer("RR", price="9800.00")]
    decision = screen_offers(offers, bid(), {})
    assert decision.outcome == {"PP": "NOT_IN_ACTA", "QQ": CONSIDERED, "RR": CONSIDERED}
    assert decision.details["bidders"] == ["QQ", "RR"]
    assert decision.details["sanction_candidates"] == []


@pytest.mark.parametrize(("kind", "alternates", "models", "statuses", "candidates"), [
    pytest.param("equipment", False, ("X", "Y"), {"S1": "ALTERNATES_NOT_REQUESTED", "S2": "ALTERNATES_NOT_REQUESTED",
                                                  "T": CONSIDERED}, [], id="BID-22-AMB-50-BID-S16a"),
    pytest.param("equipment", True, ("X", "Y"), {"S1": CONSIDERED, "S2": CONSIDERED, "T": CONSIDERED}, [],
                 id="BID-22-BID-S16b-alternates-requested"),
    pytest.param("equipment", True, ("X", "X"), {"S1": "MULTIPLE_ENVELOPES", "S2": "MULTIPLE_ENVELOPES",
                                                 "T": CONSIDERED}, [{"bidder_id": "S", "reason": "MULTIPLE_ENVELOPES"}],
                 id="BID-21-same-model-twice-is-two-envelopes"),
    pytest.param("acquisition", False, ("X", "Y"), {"S1": "MULTIPLE_ENVELOPES", "S2": "MULTIPLE_ENVELOPES",
                                                    "T": CONSIDERED},
                 [{"bidder_id": "S", "reason": "MULTIPLE_ENVELOPES"}], id="BID-21-two-envelopes-acquisition"),
    pytest.param("equipment", False, (None, None), {"S1": "MULTIPLE_ENVELOPES", "S2": "MULTIPLE_ENVELOPES",
                                                    "T": CONSIDERED},
                 [{"bidder_id": "S", "reason": "MULTIPLE_ENVELOPES"}], id="BID-21-no-model-named"),
])
def test_several_offers_of_one_bidder(kind, alternates, models, statuses, candidates):
    offers = [offer("S1", "S", model=models[0], price="38000.00"), offer("S2", "S", model=models[1], price="36500.00"),
              offer("T", "T", model="Z", price="37900.00")]
    decision = screen_offers(offers, bid(kind, alternates), {})
    assert decision.outcome == statuses
    assert decision.details["sanction_candidates"] == candidates


def test_envelopes_for_different_lines_are_not_duplicates():
    decision = screen_offers([offer("S1", "S", line=1), offer("S2", "S", line=2)], bid(), {})
    assert decision.outcome == {"S1": CONSIDERED, "S2": CONSIDERED}


def test_a_late_envelope_is_not_a_second_envelope():
    decision = screen_offers([offer("S1", "S"), offer("S2", "S", received="2024-09-10T12:00:00-04:00")], bid(), {})
    assert decision.outcome == {"S1": CONSIDERED, "S2": "LATE"}
    assert decision.details["sanction_candidates"] == []


@pytest.mark.parametrize(("due", "today", "expected"), [
    pytest.param(DUE, date(2024, 9, 20), date(2024, 9, 10), id="BID-21-opening-day-from-due-instant"),
    pytest.param(datetime(2024, 9, 10, 10, tzinfo=AST), date(2024, 9, 20), date(2024, 9, 10), id="BID-21-datetime"),
    pytest.param(None, date(2024, 9, 20), date(2024, 9, 20), id="BID-21-no-due-date-today"),
    # 22:00 in San Juan is 02:00 UTC the next day: the bid opened on the Puerto Rico day.
    pytest.param("2024-09-11T02:00:00+00:00", date(2024, 9, 20), date(2024, 9, 10), id="BID-21-utc-due-is-the-pr-day"),
    pytest.param(datetime(2024, 9, 11, 2, tzinfo=timezone.utc), date(2024, 9, 20), date(2024, 9, 10),
                 id="BID-21-utc-datetime-is-the-pr-day"),
])
def test_opening_day(due, today, expected):
    assert opening_day({"offers_due_at": due}, today) == expected


def evaluation(oid, **found):
    return {"offer_id": oid, "complies_specs": True, "complies_conditions": True, "same_bidder_as": None,
            "bidder_exclusion": "none", **found}


def considered(*offers):
    return {o["offer_id"]: CONSIDERED for o in offers}


AA, BB, CC, DD = (offer(b, price=p) for b, p in (("AA", "40500.00"), ("BB", "39000.00"), ("CC", "39100.00"),
                                                   ("DD", "41000.00")))


@pytest.mark.parametrize(("found", "status", "cited"), [
    pytest.param({}, CONSIDERED, (), id="BID-02-complies"),
    pytest.param({"complies_specs": False}, "NON_COMPLIANT_SPECS", ("BID-07", "BID-30a"), id="BID-02-BID-30a-specs"),
    pytest.param({"complies_conditions": False}, "NON_COMPLIANT_CONDITIONS", ("BID-07", "BID-30b"),
                 id="BID-02-BID-30b-conditions"),
    pytest.param({"complies_specs": False, "complies_conditions": False}, "NON_COMPLIANT_SPECS", ("BID-30a",),
                 id="BID-02-specs-first"),
    pytest.param({"bidder_exclusion": "poor_performance"}, "BIDDER_EXCLUDED", ("BID-30e", "AMB-44"),
                 id="BID-30e-AMB-44-poor-performance"),
    pytest.param({"bidder_exclusion": "debtor_no_plan"}, "BIDDER_EXCLUDED", ("BID-30f", "AMB-44"),
                 id="BID-30f-AMB-44-debtor"),
    pytest.param({"bidder_exclusion": "convicted"}, "BIDDER_EXCLUDED", ("BID-30g", "AMB-44"),
                 id="BID-30g-AMB-44-convicted"),
    pytest.param({"bidder_exclusion": None}, CONSIDERED, (), id="BID-30-no-exclusion-null"),
])
def test_apply_evaluation_one_offer(found, status, cited):
    decision = apply_evaluation([AA, BB], considered(AA, BB), [evaluation("AA", **found)])
    assert decision.outcome == {"AA": status, "BB": CONSIDERED}
    assert decision.details["considered_count"] == (2 if status == CONSIDERED else 1)
    assert decision.rule_ids[0] == "BID-01" and decision.rule_ids[-1] == "BID-02"
    assert set(cited) <= set(decision.rule_ids)
    if status == CONSIDERED:
        assert decision.rule_ids == ("BID-01", "BID-02")


def test_bidder_exclusion_not_in_the_parameter_list_keeps_the_offer():
    decision = apply_evaluation([AA], considered(AA), [evaluation("AA", bidder_exclusion="convicted")],
                                exclusions=("poor_performance",))
    assert decision.outcome == {"AA": CONSIDERED}


def test_bid_s19_conspiracy_between_two_of_four():
    decision = apply_evaluation([AA, BB, CC, DD], considered(AA, BB, CC, DD),
                                [evaluation(o) for o in ("AA", "BB", "CC", "DD")], "conspiracy", ["BB", "CC"])
    assert decision.outcome == {"AA": CONSIDERED, "BB": "CONSPIRACY", "CC": "CONSPIRACY", "DD": CONSIDERED}
    assert decision.details["sanction_candidates"] == [{"bidder_id": "BB", "reason": "CONSPIRACY"},
                                                       {"bidder_id": "CC", "reason": "CONSPIRACY"}]
    assert decision.details["considered_bidders"] == ["AA", "DD"]
    assert decision.details["collusion_of_all"] is False
    assert "BID-25" in decision.rule_ids


def test_bid_28_collusion_of_all_rejects_every_considered_offer():
    statuses = {**considered(AA, BB, CC), "DD": "LATE"}
    decision = apply_evaluation([AA, BB, CC, DD], statuses, [], "all")
    assert decision.outcome == {"AA": "COLLUSION", "BB": "COLLUSION", "CC": "COLLUSION", "DD": "LATE"}
    assert decision.details["collusion_of_all"] is True and decision.details["considered_count"] == 0
    assert decision.details["sanction_candidates"] == [{"bidder_id": b, "reason": "COLLUSION"}
                                                       for b in ("AA", "BB", "CC")]
    assert {"BID-28", "BID-30d"} <= set(decision.rule_ids)


def test_amb_48_a_pseudonym_makes_two_envelopes_of_one_bidder():
    offers = [offer("O1", "ACME", price="100.00"), offer("O2", "ACME-2", price="99.00"), offer("O3", "OTHER")]
    decision = apply_evaluation(offers, considered(*offers),
                                [evaluation("O1"), evaluation("O2", same_bidder_as="ACME"), evaluation("O3")])
    assert decision.outcome == {"O1": "MULTIPLE_ENVELOPES", "O2": "MULTIPLE_ENVELOPES", "O3": CONSIDERED}
    assert decision.details["sanction_candidates"] == [{"bidder_id": "ACME", "reason": "MULTIPLE_ENVELOPES"},
                                                       {"bidder_id": "ACME-2", "reason": "MULTIPLE_ENVELOPES"}]
    assert {"BID-21", "AMB-48"} <= set(decision.rule_ids)


def test_an_offer_without_evaluation_complies():
    decision = apply_evaluation([AA, BB], considered(AA, BB), [])
    assert decision.outcome == considered(AA, BB)
    assert decision.details["considered_count"] == 2 and decision.details["sanction_candidates"] == []


CRITERIA = {letter: "evaluado" for letter in "abcdef"}


@pytest.mark.parametrize(("kind", "criteria", "missing"), [
    pytest.param("equipment", CRITERIA, [], id="BID-11-all-six-recorded"),
    pytest.param("equipment", {**CRITERIA, "f": "no_aplica"}, [], id="BID-11-f-no-aplica"),
    pytest.param("equipment", {**CRITERIA, "c": "  "}, ["A"], id="BID-11-blank-criterion"),
    pytest.param("equipment", {k: v for k, v in CRITERIA.items() if k != "e"}, ["A"], id="BID-11-missing-e"),
    pytest.param("equipment", None, ["A"], id="BID-11-nothing-recorded"),
    pytest.param("acquisition", None, [], id="BID-11-only-equipment-bids"),
])
def test_equipment_criteria_missing(kind, criteria, missing):
    evaluations = [{"offer_id": "A", "equipment_criteria": criteria}, {"offer_id": "B", "equipment_criteria": None}]
    assert equipment_criteria_missing(kind, {"A": CONSIDERED, "B": "LATE"}, evaluations) == missing
