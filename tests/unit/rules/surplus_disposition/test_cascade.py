"""Direct tests of engine/rules/surplus_disposition/cascade.py (SUR-05, 08…15, 22, 23; FAR-19…21; AMB-02…04,
AMB-15, AMB-16).

SUR-08: transfer, then category 1, category 2 only for producer-utility goods (AMB-02), category 3,
then the public auction (SUR-15); an exhausted category goes on (`NEXT_CATEGORY`) or straight to the
auction (`STOP`). Contract: category 1 serves the first request as it arrives, except producer-utility
goods under AGENCIES_THEN_MUNICIPALITIES, which wait for the window (AMB-04). FAR-21: producers buy
unit by unit; AMB-15: a lottery among the requests for a unit received within the request window,
order of receipt for the waiting list; SUR-23: who did not collect does not come back.
"""
from __future__ import annotations

import pytest

from engine.rules.surplus_disposition.cascade import lot_candidates, lots_for, next_stage, window_action

UTILITIES = ("agricola", "industrial", "manual", "pesca")
PUMPS = {"utility": "agricola", "is_vehicle": False,
         "units": [{"unit_id": u, "use_category": "riego"} for u in ("U1", "U2", "U3")]}
DESK = {"utility": "none", "is_vehicle": False, "units": [{"unit_id": "U1"}]}
CAT1, CAT2, CAT3, AUCTION = (("SUR-08", "SUR-09", "SUR-10"), ("SUR-11", "SUR-12", "FAR-14", "FAR-17"),
                             ("SUR-13", "SUR-14", "AMB-03"), ("SUR-15", "AMB-12"))


@pytest.mark.parametrize(("previous", "item", "types", "exhausted", "policy", "stage", "rules", "reason"), [
    pytest.param("TRANSFER", PUMPS, UTILITIES, False, "NEXT_CATEGORY", "CATEGORY_1", CAT1, "NO_REQUEST",
                 id="SUR-08-transfer-then-category-1"),
    pytest.param("CATEGORY_1", PUMPS, UTILITIES, False, "NEXT_CATEGORY", "CATEGORY_2", CAT2 + ("AMB-02",),
                 "NO_REQUEST", id="SUR-11-SUR-12-AMB-02-producer-utility-category-2"),
    pytest.param("CATEGORY_1", DESK, UTILITIES, False, "NEXT_CATEGORY", "CATEGORY_3", CAT3 + ("AMB-02",),
                 "NO_REQUEST", id="SUR-11-SUR-S10-no-utility-skips-category-2"),
    pytest.param("CATEGORY_1", {"utility": "pesca"}, ("agricola",), False, "NEXT_CATEGORY", "CATEGORY_3",
                 CAT3 + ("AMB-02",), "NO_REQUEST", id="AMB-02-000-profile-fishing-not-producer-utility"),
    pytest.param("CATEGORY_2", PUMPS, UTILITIES, False, "NEXT_CATEGORY", "CATEGORY_3", CAT3, "NO_REQUEST",
                 id="SUR-13-after-producers"),
    pytest.param("CATEGORY_3", DESK, UTILITIES, False, "NEXT_CATEGORY", "PUBLIC_AUCTION", AUCTION, "NO_REQUEST",
                 id="SUR-15-SUR-S13-nobody-requests"),
    pytest.param("CATEGORY_1", DESK, UTILITIES, True, "NEXT_CATEGORY", "CATEGORY_3", CAT3 + ("AMB-02", "SUR-23"),
                 "CATEGORY_EXHAUSTED", id="SUR-23-AMB-07-exhausted-next-category"),
    pytest.param("CATEGORY_1", PUMPS, UTILITIES, True, "STOP", "PUBLIC_AUCTION", ("SUR-15", "SUR-23"),
                 "CATEGORY_EXHAUSTED_STOP", id="SUR-23-exhausted-stop-to-auction"),
    pytest.param("TRANSFER", DESK, UTILITIES, True, "STOP", "CATEGORY_1", CAT1 + ("SUR-23",), "CATEGORY_EXHAUSTED",
                 id="SUR-08-stop-does-not-skip-the-sale"),
])
def test_next_stage(previous, item, types, exhausted, policy, stage, rules, reason):
    decision = next_stage(previous, item, types, exhausted, policy)
    assert decision.outcome == stage
    assert decision.rule_ids == rules
    assert decision.details == {"reason": reason}
    assert decision.inputs["previous"] == previous and decision.inputs["exhausted"] is exhausted


def test_next_stage_unknown_policy():
    with pytest.raises(ValueError):
        next_stage("CATEGORY_1", DESK, UTILITIES, True, "RETRY")


def req(rid, category, at, status="PENDING", kind="municipio", units=None, selected=None):
    entry = {"request_id": rid, "requester": {"id": rid, "kind": kind}, "category": category, "received_at": at,
             "status": status, "units": units or ["U1"]}
    if selected is not None:
        entry["selected_units"] = selected
    return entry


COAMO = req("MUN-COAMO", 1, "2024-07-01T09:00:00-04:00")
SALINAS = req("MUN-SALINAS", 1, "2024-07-03T15:00:00-04:00")
AGENCY = req("AG-X", 1, "2024-07-05T10:00:00-04:00", kind="agencia_ejecutiva")
HOGAR = req("HOGAR", 3, "2024-09-03T10:00:00-04:00", kind="sin_fines_de_lucro")


@pytest.mark.parametrize(("stage", "requests", "item", "order", "over", "action", "amb04"), [
    pytest.param("CATEGORY_1", [COAMO], DESK, "AGENCIES_THEN_MUNICIPALITIES", False, "SERVE", False,
                 id="SUR-09-SUR-S07-served-as-it-arrives"),
    pytest.param("CATEGORY_1", [COAMO], PUMPS, "AGENCIES_THEN_MUNICIPALITIES", False, "WAIT", True,
                 id="SUR-12-AMB-04-producer-utility-waits-for-window"),
    pytest.param("CATEGORY_1", [COAMO], PUMPS, "AGENCIES_THEN_MUNICIPALITIES", True, "SERVE", True,
                 id="AMB-04-window-over-serve"),
    pytest.param("CATEGORY_1", [COAMO], PUMPS, "ARRIVAL_ORDER", False, "SERVE", False,
                 id="AMB-04-arrival-order-serves-at-once"),
    pytest.param("CATEGORY_1", [], DESK, "AGENCIES_THEN_MUNICIPALITIES", False, "WAIT", False,
                 id="SUR-10-window-open-nobody-yet"),
    pytest.param("CATEGORY_1", [HOGAR], DESK, "AGENCIES_THEN_MUNICIPALITIES", True, "NEXT", False,
                 id="SUR-13-window-over-no-category-1-request"),
    pytest.param("CATEGORY_1", [{**COAMO, "status": "NO_INTEREST"}], DESK, "AGENCIES_THEN_MUNICIPALITIES", True,
                 "NEXT", False, id="SUR-23-no-interest-is-not-pending"),
    pytest.param("CATEGORY_3", [HOGAR], DESK, "AGENCIES_THEN_MUNICIPALITIES", False, "SERVE", False,
                 id="SUR-13-SUR-S10-nonprofit-served"),
    pytest.param("CATEGORY_3", [], DESK, "AGENCIES_THEN_MUNICIPALITIES", True, "NEXT", False,
                 id="SUR-15-category-3-empty"),
])
def test_window_action(stage, requests, item, order, over, action, amb04):
    decision = window_action(stage, requests, item, UTILITIES, order, over)
    assert decision.outcome == action
    base = CAT1 if stage == "CATEGORY_1" else CAT3
    assert decision.rule_ids == base + (("AMB-04",) if amb04 else ())
    assert decision.inputs["window_over"] is over


F31 = req("F-31", 2, "2024-09-03T09:00:00-04:00", kind="productor", units=["U1", "U2", "U3"])
F32 = req("F-32", 2, "2024-09-04T11:00:00-04:00", kind="productor", units=["U2"])
F33 = req("F-33", 2, "2024-09-20T08:00:00-04:00", kind="productor", units=["U2"])


@pytest.mark.parametrize(("requests", "unsold", "lots"), [
    pytest.param([F31, F32], None, ["U1", "U2", "U3"], id="FAR-21-AMB-16-FAR-S16-one-lot-per-unit"),
    pytest.param([F32], None, ["U2"], id="FAR-21-only-requested-units"),
    pytest.param([F31, F32], ["U3"], ["U3"], id="FAR-21-only-unsold-units"),
    pytest.param([], None, [], id="FAR-21-no-requests-no-lots"),
])
def test_lots_for_producers(requests, unsold, lots):
    decision = lots_for("CATEGORY_2", PUMPS, requests, unsold_units=unsold, lottery_until="2024-09-13")
    assert [lot["lot_id"] for lot in decision.outcome] == lots
    assert all(lot["units"] == [lot["lot_id"]] and lot["lottery_until"] == "2024-09-13" for lot in decision.outcome)
    assert all(lot["use_category"] == "riego" for lot in decision.outcome)
    assert decision.rule_ids == ("FAR-21", "AMB-16", "FAR-19")


@pytest.mark.parametrize(("stage", "item", "unsold", "lot_id", "units"), [
    pytest.param("CATEGORY_1", PUMPS, None, "U1+U2+U3", ["U1", "U2", "U3"], id="SUR-08-whole-item-to-government"),
    pytest.param("CATEGORY_3", PUMPS, ["U2", "U3"], "U2+U3", ["U2", "U3"], id="SUR-08-unsold-rest"),
    pytest.param("TRANSFER", DESK, None, "U1", ["U1"], id="SUR-07-transfer-lot"),
])
def test_lots_for_other_stages(stage, item, unsold, lot_id, units):
    decision = lots_for(stage, item, [], vehicle_order=["A"], assignee="A", unsold_units=unsold)
    assert [(lot["lot_id"], lot["units"]) for lot in decision.outcome] == [(lot_id, units)]
    assert decision.outcome[0]["vehicle_order"] == ["A"] and decision.outcome[0]["assignee"] == "A"
    assert decision.rule_ids == ("SUR-07", "SUR-08")


def test_lots_for_nothing_left():
    assert lots_for("CATEGORY_1", {"units": []}, []).outcome == []


def lot(stage, lot_id="U1", units=None, **extra):
    return {"stage": stage, "lot_id": lot_id, "units": units or [lot_id], "use_category": "riego",
            "lottery_done": False, **extra}


FAR_RULES = ("FAR-19", "FAR-20", "FAR-21", "AMB-15")


@pytest.mark.parametrize(("the_lot", "requests", "cap", "action", "candidates", "buyer", "rules"), [
    pytest.param(lot("CATEGORY_2", "U1", lottery_until="2024-09-13"), [F31, F32], None, "SELL", ["F-31"], "F-31",
                 FAR_RULES, id="FAR-19-FAR-S16-U1-sole-requester"),
    pytest.param(lot("CATEGORY_2", "U2", lottery_until="2024-09-13"), [F31, F32], None, "LOTTERY",
                 ["F-31", "F-32"], None, FAR_RULES, id="FAR-20-AMB-15-FAR-S16-U2-lottery"),
    pytest.param(lot("CATEGORY_2", "U2", lottery_until="2024-09-13"), [F31, F32, F33], None, "LOTTERY",
                 ["F-31", "F-32"], None, FAR_RULES, id="AMB-15-late-request-outside-the-draw"),
    pytest.param(lot("CATEGORY_2", "U2", lottery_until="2024-09-13"), [F31, F33], None, "SELL", ["F-31", "F-33"],
                 "F-31", FAR_RULES, id="AMB-15-one-in-window-no-lottery"),
    pytest.param(lot("CATEGORY_2", "U2", lottery_until="2024-09-04"), [F31, F32], None, "LOTTERY",
                 ["F-31", "F-32"], None, FAR_RULES, id="AMB-15-received-on-the-last-day-counts"),
    pytest.param(lot("CATEGORY_2", "U2", lottery_until="2024-09-13", lottery_done=True),
                 [{**F31, "status": "NO_INTEREST"}, F32], None, "SELL", ["F-32"], "F-32", FAR_RULES,
                 id="SUR-23-AMB-15-next-on-waiting-list-after-winner"),
    pytest.param(lot("CATEGORY_2", "U3", lottery_until="2024-09-13"),
                 [{**F31, "status": "SELECTED", "selected_units": ["U1"]}], 1, "UNSOLD", [], None,
                 FAR_RULES + ("AMB-16",), id="AMB-16-cap-reached-passed-over"),
    pytest.param(lot("CATEGORY_2", "U3", lottery_until="2024-09-13"),
                 [{**F31, "status": "SELECTED", "selected_units": ["U1"]}], 2, "SELL", ["F-31"], "F-31",
                 FAR_RULES + ("AMB-16",), id="AMB-16-under-cap"),
    pytest.param(lot("CATEGORY_1", "U1+U2+U3", ["U1", "U2", "U3"]), [COAMO, SALINAS, AGENCY], None, "SELL",
                 ["AG-X", "MUN-COAMO", "MUN-SALINAS"], "AG-X", ("SUR-09", "SUR-10", "SUR-23", "AMB-04"),
                 id="SUR-12-AMB-04-agency-first-for-producer-utility"),
    pytest.param(lot("CATEGORY_1", "U1+U2+U3", ["U1", "U2", "U3"]), [{**COAMO, "status": "NO_INTEREST"}, SALINAS],
                 None, "SELL", ["MUN-SALINAS"], "MUN-SALINAS", ("SUR-09", "SUR-10", "SUR-23", "AMB-04"),
                 id="SUR-23-SUR-S07b-next-in-same-category"),
    pytest.param(lot("CATEGORY_3"), [HOGAR], None, "SELL", ["HOGAR"], "HOGAR", ("SUR-13", "SUR-23"),
                 id="SUR-13-SUR-S10-nonprofit"),
    pytest.param(lot("CATEGORY_3"), [{**HOGAR, "status": "NO_INTEREST"}], None, "UNSOLD", [], None,
                 ("SUR-13", "SUR-23"), id="SUR-23-category-exhausted"),
])
def test_lot_candidates(the_lot, requests, cap, action, candidates, buyer, rules):
    decision = lot_candidates(the_lot, requests, PUMPS, UTILITIES, "AGENCIES_THEN_MUNICIPALITIES", cap)
    assert decision.outcome == action
    assert decision.details == {"candidates": candidates, "buyer": buyer}
    assert decision.rule_ids == rules
    assert decision.inputs["lot_id"] == the_lot["lot_id"]


def test_lot_candidates_desk_by_arrival_in_category_1():
    decision = lot_candidates(lot("CATEGORY_1"), [SALINAS, AGENCY, COAMO], DESK, UTILITIES,
                              "AGENCIES_THEN_MUNICIPALITIES")
    assert decision.details["candidates"] == ["MUN-COAMO", "MUN-SALINAS", "AG-X"]


@pytest.mark.parametrize(("the_lot", "action", "buyer", "rules"), [
    pytest.param(lot("TRANSFER", vehicle_order=["MUN-GONE", "COMP-A"]), "SELL", "COMP-A", ("SUR-05", "SUR-23"),
                 id="SUR-05-SUR-23-consented-vehicle-order"),
    pytest.param(lot("TRANSFER", assignee="COMP-A"), "SELL", "COMP-A", ("SUR-04", "SUR-07"),
                 id="SUR-04-SUR-07-assignee"),
    pytest.param(lot("TRANSFER", assignee="MUN-GONE"), "UNSOLD", None, ("SUR-04", "SUR-07"),
                 id="SUR-23-assignee-did-not-collect"),
])
def test_lot_candidates_transfer(the_lot, action, buyer, rules):
    requests = [req("COMP-A", "TRANSFER", "2024-04-02T10:00:00-04:00", kind="agencia_componente"),
                req("MUN-GONE", 1, "2024-04-01T10:00:00-04:00", status="NO_INTEREST")]
    decision = lot_candidates(the_lot, requests, DESK, UTILITIES, "AGENCIES_THEN_MUNICIPALITIES")
    assert decision.outcome == action and decision.details["buyer"] == buyer and decision.rule_ids == rules


def test_a_request_stamped_in_utc_counts_on_its_puerto_rico_day():
    # 02:00 UTC on 14 Sep is 22:00 on 13 Sep in Puerto Rico: still inside a window ending the 13th.
    late_evening = req("F-34", 2, "2024-09-14T02:00:00+00:00", kind="productor", units=["U2"])
    decision = lot_candidates(lot("CATEGORY_2", "U2", lottery_until="2024-09-13"), [F31, late_evening], PUMPS,
                              UTILITIES, "AGENCIES_THEN_MUNICIPALITIES")
    assert decision.outcome == "LOTTERY"
    assert decision.details["candidates"] == ["F-31", "F-34"]
