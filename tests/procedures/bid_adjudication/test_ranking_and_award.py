"""BID-S01, S04, S28, S13, S16: screening, the Ley 14-2004 preference, ranking and the award."""
from __future__ import annotations

from .conftest import offer, rule_of, votes


def test_bid_s01_preference_changes_the_ranking(bids):
    case = bids.played([offer("A", "50000.00"), offer("B", "52000.00", preference_pct="5"),
                        offer("C", "49800.00")])
    v = case["variables"]
    assert v["evaluated_prices"] == {"A": "50000.00", "B": "49400.00", "C": "49800.00"}
    assert v["ranking"] == {"1": ["B", "C", "A"]}
    case = bids.award_first(case)
    v = case["variables"]
    assert (case["outcome"], v["awardee"], v["contract_price"]) == ("AWARDED", "B", "52000.00")
    assert v["justification_required"] is False
    assert v["awards"] == [{"line": 1, "offer_id": "B", "bidder_id": "B", "contract_price": "52000.00"}]
    decisions = {e["data"]["rule"]: e["rule_ids"] for e in bids.history(case["id"]) if e["type"] == "decision"}
    assert {"screen_offers", "apply_evaluation", "rank_offers", "award_result"} <= set(decisions)
    assert {"BID-04", "AMB-38"} <= set(decisions["rank_offers"]) and "BID-01" in decisions["screen_offers"]


def test_preference_that_does_not_change_the_ranking(bids):
    case = bids.played([offer("A", "49000.00"), offer("B", "52000.00", preference_pct="5")])
    assert case["variables"]["ranking"] == {"1": ["A", "B"]}
    assert case["variables"]["evaluated_prices"]["B"] == "49400.00"
    assert bids.award_first(case)["variables"]["awardee"] == "A"


def test_evaluated_price_rounds_half_up_to_cents_and_ignores_prompt_payment(bids):
    case = bids.played([offer("A", "10000.10", preference_pct="2.5", prompt_payment_discount_pct="10"),
                        offer("B", "9750.11")])
    assert case["variables"]["evaluated_prices"] == {"A": "9750.10", "B": "9750.11"}
    assert case["variables"]["ranking"]["1"] == ["A", "B"]


def test_tie_created_only_by_the_preference_goes_to_a_witnessed_lottery(bids):
    case = bids.played([offer("A", "49400.00"), offer("B", "52000.00", preference_pct="5"), offer("C", "50000.00")])
    v = case["variables"]
    assert v["tie"] == ["A", "B"] and {t["element_id"] for t in case["open_tasks"]} == {"break_tie"}
    case = bids.complete(case, "break_tie", {"method": "lottery", "witnessed_result": "B"}, "J2")
    v = case["variables"]
    assert v["ranking"]["1"][0] == "B" and v["lotteries"][0]["winner"] == "B"
    case = bids.award(case, {"line": 1, "offer_id": "B", "votes": votes(J1="B", J2="B", J3="B")})
    assert (case["outcome"], case["variables"]["awardee"], case["variables"]["justification_required"]) == \
        ("AWARDED", "B", False)


def test_lottery_without_witness_is_drawn_and_recorded(bids):
    case = bids.played([offer("A", "1000.00"), offer("B", "1000.00")])
    case = bids.complete(case, "break_tie", {"method": "lottery"}, "J2")
    draws = [e for e in bids.history(case["id"]) if e["type"] == "lottery"]
    assert len(draws) == 1
    drawn = draws[0]["data"]
    assert drawn["seed"] and [p["offer_id"] for p in drawn["participants"]] == ["A", "B"]
    assert case["variables"]["ranking"]["1"][0] == drawn["winner"]
    assert case["variables"]["lotteries"][0]["seed"] == drawn["seed"]


def test_qualitative_tie_break_and_new_bid_among_tied(bids):
    case = bids.played([offer("A", "1000.00"), offer("B", "1000.00")])
    refused = bids.complete(case, "break_tie", {"method": "qualitative", "chosen_offer_id": "Z", "basis": "QUALITY"},
                            "J2", expect=422)
    assert rule_of(refused) == ["TIE_CHOICE_INVALID"]
    case = bids.complete(case, "break_tie", {"method": "qualitative", "chosen_offer_id": "B", "basis": "WARRANTY"}, "J2")
    assert case["variables"]["ranking"]["1"] == ["B", "A"]
    bids.param("bid.tieBreakAfterQualitative", "NEW_BID_AMONG_TIED")
    other = bids.played([offer("A", "1000.00"), offer("B", "1000.00")])
    other = bids.complete(other, "break_tie", {"method": "new_bid_among_tied"}, "J2")
    assert other["outcome"] == "NEW_BID_AMONG_TIED" and other["status"] == "completed"


def test_bid_s04_higher_price_needs_a_justification_signed_by_its_voters(bids):
    case = bids.played([offer("F", "30000.00"), offer("G", "31200.00")])
    for_g = votes(J1="G", J2="G", J3="G", J4="F", J5="F")
    no_text = bids.award(case, {"line": 1, "offer_id": "G", "votes": for_g}, expect=422)
    assert rule_of(no_text) == ["JUSTIFICATION_REQUIRED"]
    partial = bids.award(case, {"line": 1, "offer_id": "G", "votes": for_g, "justification": {
        "text": "garantía superior de 5 años", "signed_by": ["J1", "J2"]}}, expect=422)
    assert rule_of(partial) == ["JUSTIFICATION_SIGNATURES_INCOMPLETE"]
    case = bids.award(case, {"line": 1, "offer_id": "G", "votes": for_g, "justification": {
        "text": "garantía superior de 5 años", "signed_by": ["J1", "J2", "J3"]}})
    v = case["variables"]
    assert (case["outcome"], v["awardee"], v["contract_price"], v["justification_required"]) == \
        ("AWARDED", "G", "31200.00", True)
    assert v["justification"]["text"] == "garantía superior de 5 años"
    assert v["justification"]["signed_by"] == ["J1", "J2", "J3"]
    refusals = [e for e in bids.history(case["id"]) if e["type"] == "task_refused"]
    assert [r["data"]["code"] for r in refusals] == ["JUSTIFICATION_REQUIRED", "JUSTIFICATION_SIGNATURES_INCOMPLETE"]


def test_bid_s28_offer_missing_from_the_acta_is_not_considered(bids):
    case = bids.played([offer("PP", "9000.00", in_acta=False), offer("QQ", "9400.00"), offer("RR", "9800.00")])
    assert case["variables"]["offers_status"] == {"PP": "NOT_IN_ACTA", "QQ": "CONSIDERED", "RR": "CONSIDERED"}
    assert bids.award_first(case)["variables"]["awardee"] == "QQ"


def test_bid_s13_market_clause_and_prices_subject_to_market(bids):
    asphalt = {"matter": "asfalto", "general": True, "price_variable": True,
               "lines": [{"line": 1, "description": "asfalto por tonelada"}]}
    refused = bids.open(expect=422, **asphalt)
    assert rule_of(refused) == ["MARKET_CLAUSE_MISSING"]
    case = bids.played([offer("P", "61.00", price_subject_to_market=True), offer("Q", "63.50"), offer("R", "64.00")],
                       has_price_honour_clause=True, **asphalt)
    assert case["variables"]["offers_status"]["P"] == "NON_COMPLIANT_CONDITIONS"
    assert bids.award_first(case)["variables"]["awardee"] == "Q"


CRITERIA = {k: "evaluado" for k in "abcde"} | {"f": "no_aplica"}


def test_bid_s16_alternates_rejected_unless_requested_and_criteria_a_to_f(bids):
    pickups = {"matter": "guaguas pick-up", "kind": "equipment", "lines": [{"line": 1, "description": "2 pick-ups"}]}
    offers = [offer("S1", "38000.00", bidder="S", model="Modelo X"), offer("S2", "36500.00", bidder="S", model="Modelo Y"),
              offer("T1", "37900.00", bidder="T", model="Modelo Z")]
    case = bids.record(bids.open(**pickups), offers)
    assert case["variables"]["offers_status"] == {"S1": "ALTERNATES_NOT_REQUESTED", "S2": "ALTERNATES_NOT_REQUESTED",
                                                  "T1": "CONSIDERED"}
    incomplete = bids.evaluate(case, [{"offer_id": "T1", "equipment_criteria": {**CRITERIA, "f": ""}}], expect=422)
    assert rule_of(incomplete) == ["EQUIPMENT_CRITERIA_INCOMPLETE"]
    case = bids.evaluate(case, [{"offer_id": "T1", "equipment_criteria": CRITERIA}])
    # S and T both bid (issue 22): T is the lowest eligible offer, not a single offer to assess.
    assert {t["element_id"] for t in case["open_tasks"]} == {"award"}
    assert bids.award_first(case)["variables"]["awardee"] == "T"

    requested = bids.record(bids.open(alternates_requested=True, **pickups), offers)
    requested = bids.evaluate(requested, [{"offer_id": o, "equipment_criteria": CRITERIA} for o in ("S1", "S2", "T1")])
    assert requested["variables"]["ranking"]["1"] == ["S2", "T1", "S1"]
    done = bids.award_first(requested)["variables"]
    assert (done["awardee"], done["awards"][0]["offer_id"], done["contract_price"]) == ("S", "S2", "36500.00")


def test_every_line_is_ranked_and_awarded_on_its_own(bids):
    lines = [{"line": 1, "description": "sillas"}, {"line": 2, "description": "mesas"}]
    case = bids.played([offer("A1", "100.00", bidder="A"), offer("B1", "90.00", bidder="B"),
                        offer("A2", "200.00", bidder="A", line=2), offer("B2", "210.00", bidder="B", line=2),
                        offer("C2", "215.00", bidder="C", line=2, preference_pct="10")], lines=lines)
    assert case["variables"]["ranking"] == {"1": ["B1", "A1"], "2": ["C2", "A2", "B2"]}
    everyone = ("J1", "J2", "J3")
    case = bids.award(case, {"line": 1, "offer_id": "B1", "votes": votes(**{m: "B1" for m in everyone})},
                      {"line": 2, "offer_id": "A2", "votes": votes(**{m: "A2" for m in everyone}),
                       "justification": {"text": "mejor entrega", "signed_by": list(everyone)}})
    v = case["variables"]
    assert [(a["line"], a["bidder_id"], a["contract_price"]) for a in v["awards"]] == [(1, "B", "90.00"), (2, "A", "200.00")]
    assert v["awardee"] == "B" and v["justification_required"] is True
    unsigned = bids.played([offer("A1", "100.00", bidder="A"), offer("A2", "200.00", bidder="A", line=2),
                            offer("B2", "190.00", bidder="B", line=2), offer("B1", "120.00", bidder="B")], lines=lines)
    refused = bids.award(unsigned, {"line": 1, "offer_id": "A1"}, {"line": 2, "offer_id": "A2", "votes": votes(J1="A2"),
                                                                   "justification": {"text": "x", "signed_by": []}},
                         expect=422)
    assert rule_of(refused) == ["JUSTIFICATION_SIGNATURES_INCOMPLETE"]


def test_sale_ranks_the_highest_offer_first(bids):
    case = bids.played([offer("A", "1200.00", preference_pct="10"), offer("B", "1500.00"), offer("C", "900.00")],
                       kind="sale", matter="venta de guagua", appraisal="1000.00", estimate=None)
    assert case["variables"]["ranking"]["1"] == ["B", "A", "C"]
    assert case["variables"]["evaluated_prices"]["A"] == "1200.00"
    refused = bids.award(case, {"line": 1, "offer_id": "A", "votes": votes(J1="A", J2="A", J3="A")}, expect=422)
    assert rule_of(refused) == ["JUSTIFICATION_REQUIRED"]


def test_twenty_five_offers_over_two_lines(bids):
    lines = [{"line": 1, "description": "sillas"}, {"line": 2, "description": "mesas"}]
    offers = [offer(f"O{i:02d}", f"{1000 + 7 * i}.00", bidder=f"B{i:02d}", line=1 + i % 2) for i in range(25)]
    case = bids.record(bids.open(lines=lines), offers)
    case = bids.evaluate(case, [{"offer_id": "O00", "complies_specs": False}])
    ranking = case["variables"]["ranking"]
    assert ranking["1"][:2] == ["O02", "O04"] and ranking["2"][:2] == ["O01", "O03"]
    assert len(ranking["1"]) + len(ranking["2"]) == 24


def test_the_purchasing_report_returns_the_evaluation_to_the_junta(bids):
    case = bids.record(bids.open(), [offer("A", "100.00"), offer("B", "110.00"), offer("C", "120.00")])
    case = bids.evaluate(case, purchasing_report_requested=True)
    case = bids.complete(case, "purchasing_report", {"report": "A no cumple la garantía"}, "compras")
    assert {t["element_id"] for t in case["open_tasks"]} == {"evaluate_offers"}
    case = bids.evaluate(case, [{"offer_id": "A", "complies_specs": False}])
    assert case["variables"]["report"] == "A no cumple la garantía"
    assert bids.award_first(case)["variables"]["awardee"] == "B"


def test_ties_in_two_lines_are_broken_one_after_the_other(bids):
    lines = [{"line": 1, "description": "sillas"}, {"line": 2, "description": "mesas"}]
    case = bids.played([offer("A1", "100.00", bidder="A"), offer("B1", "100.00", bidder="B"),
                        offer("A2", "200.00", bidder="A", line=2), offer("B2", "200.00", bidder="B", line=2)],
                       lines=lines)
    assert case["variables"]["tie"] == ["A1", "B1"]
    case = bids.complete(case, "break_tie", {"method": "qualitative", "chosen_offer_id": "B1", "basis": "EXPERIENCE"},
                         "J1")
    assert case["variables"]["tie"] == ["A2", "B2"]
    case = bids.complete(case, "break_tie", {"method": "lottery", "witnessed_result": "A"}, "J1")
    assert case["variables"]["ranking"] == {"1": ["B1", "A1"], "2": ["A2", "B2"]}
    case = bids.award(case, {"line": 1, "offer_id": "B1"}, {"line": 2, "offer_id": "A2"})
    assert [a["bidder_id"] for a in case["variables"]["awards"]] == ["B", "A"]
