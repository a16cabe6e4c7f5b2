"""Direct tests of engine/rules/bid_adjudication/ranking.py (BID-03…05, 10, 23, 24; AMB-38, 39, 45; TC-5).

AMB-38: evaluated = price × (1 − pct/100), rounded half-up to cents (TC-5) before ranking and ties;
BID-05: prompt-payment discounts never count; AMB-39: ascending, descending for sale/lease;
AMB-45: ties on the evaluated price; the Junta's qualitative choice, else the configured fallback.
"""
from __future__ import annotations

from decimal import Decimal

import pytest

from engine.rules.bid_adjudication.ranking import (
    cents, effective_tie_method, evaluated_price, exact, lottery_participants, next_tie, rank_offers,
    tie_resolution, winner_first, witnessed_winner,
)

RANK_RULES = ("BID-03", "BID-04", "BID-05", "BID-10", "AMB-38", "AMB-39", "TC-5")


def offer(oid, price, pct=0, line=1, bidder=None, discount=0):
    return {"offer_id": oid, "line": line, "bidder_id": bidder or oid, "price": price, "preference_pct": pct,
            "prompt_payment_discount_pct": discount}


@pytest.mark.parametrize(("price", "pct", "expected"), [
    pytest.param("50000.00", 0, "50000.00", id="AMB-38-BID-S01-A-no-preference"),
    pytest.param("52000.00", 5, "49400.00", id="BID-04-AMB-38-BID-S01-B-5pct"),
    pytest.param("49800.00", None, "49800.00", id="AMB-38-BID-S01-C-none"),
    pytest.param("10.05", 50, "5.03", id="TC-5-half-up-not-half-even"),
    pytest.param("10.01", 50, "5.01", id="TC-5-half-up-at-half-cent"),
    pytest.param("100.01", 5, "95.01", id="TC-5-rounds-95.0095-up"),
    pytest.param("100.00", "2.5", "97.50", id="AMB-38-fractional-pct"),
    pytest.param(Decimal("61.00"), 0, "61.00", id="AMB-38-decimal-price"),
])
def test_evaluated_price(price, pct, expected):
    assert evaluated_price(price, pct) == Decimal(expected)


def test_money_never_travels_as_float():
    with pytest.raises(TypeError):
        exact(0.1)
    with pytest.raises(TypeError):
        evaluated_price(100.0, 0)


@pytest.mark.parametrize(("value", "text"), [("52000", "52000.00"), ("0.005", "0.01"), ("0.015", "0.02"),
                                             (Decimal("1.234"), "1.23")], ids=lambda v: f"TC-5-{v}")
def test_cents_half_up(value, text):
    assert cents(value) == text


def test_rank_offers_bid_s01_preference_changes_the_ranking():
    offers = [offer("A", "50000.00"), offer("B", "52000.00", 5), offer("C", "49800.00")]
    decision = rank_offers(offers, {o["offer_id"]: "CONSIDERED" for o in offers}, "acquisition")
    assert decision.outcome == {"1": ["B", "C", "A"]}
    assert decision.rule_ids == RANK_RULES
    assert decision.details["evaluated_prices"] == {"A": "50000.00", "B": "49400.00", "C": "49800.00"}
    assert decision.details["ties"] == {} and decision.details["tie"] == [] and decision.details["tie_line"] is None
    assert decision.inputs["offers"]["B"] == {"price": "52000.00", "preference_pct": "5",
                                              "prompt_payment_discount_pct": "0"}


@pytest.mark.parametrize(("offers", "status", "kind", "ranking", "ties"), [
    pytest.param([offer("F", "30000.00"), offer("G", "31200.00")], None, "acquisition", ["F", "G"], {},
                 id="BID-03-lowest-first"),
    pytest.param([offer("F", "30000.00", discount=10), offer("G", "29000.00")], None, "acquisition", ["G", "F"], {},
                 id="BID-05-prompt-payment-discount-ignored"),
    pytest.param([offer("S1", "9000.00"), offer("S2", "9500.00"), offer("S3", "8000.00")], None, "sale",
                 ["S2", "S1", "S3"], {}, id="BID-10-AMB-39-sale-highest-first"),
    pytest.param([offer("L1", "1200.00"), offer("L2", "1300.00")], None, "lease", ["L2", "L1"], {},
                 id="BID-10-AMB-39-lease-highest-first"),
    pytest.param([offer("PP", "9000.00"), offer("QQ", "9400.00"), offer("RR", "9800.00")],
                 {"PP": "NOT_IN_ACTA"}, "acquisition", ["QQ", "RR"], {}, id="BID-01-BID-S28-only-considered"),
    pytest.param([offer("A", "50000.00", 2), offer("B", "49000.00"), offer("C", "49500.00")], None, "acquisition",
                 ["A", "B", "C"], {"1": ["A", "B"]}, id="BID-23-AMB-45-tie-on-evaluated-price"),
    pytest.param([offer("A", "49000.00"), offer("B", "49000.01")], None, "acquisition", ["A", "B"], {},
                 id="BID-23-one-cent-is-no-tie"),
    pytest.param([offer("A", "10.05", 50), offer("B", "5.03")], None, "acquisition", ["A", "B"], {"1": ["A", "B"]},
                 id="TC-5-tie-after-half-up-rounding"),
    pytest.param([offer("A", "100.00"), offer("B", "90.00")], None, "services", ["B", "A"], {},
                 id="BID-03-services-ascending"),
])
def test_rank_offers(offers, status, kind, ranking, ties):
    statuses = status or {}
    statuses = {o["offer_id"]: statuses.get(o["offer_id"], "CONSIDERED") for o in offers}
    decision = rank_offers(offers, statuses, kind)
    assert decision.outcome == {"1": ranking}
    assert decision.details["ties"] == ties
    assert decision.details["tie"] == next(iter(ties.values()), [])
    assert decision.rule_ids == RANK_RULES + (("BID-23", "AMB-45") if ties else ())
    assert set(decision.details["evaluated_prices"]) == set(ranking)


def test_rank_offers_per_line_in_numeric_order():
    offers = [offer("A10", "5.00", line=10), offer("B10", "4.00", line=10), offer("A2", "7.00", line=2),
              offer("B2", "7.00", line=2), offer("A1", "1.00", line=1)]
    decision = rank_offers(offers, {o["offer_id"]: "CONSIDERED" for o in offers}, "acquisition")
    assert list(decision.outcome) == ["1", "2", "10"]
    assert decision.outcome["10"] == ["B10", "A10"]
    assert decision.details["ties"] == {"2": ["A2", "B2"]} and decision.details["tie_line"] == "2"


def test_rank_offers_with_nothing_considered():
    decision = rank_offers([offer("A", "1.00")], {"A": "LATE"}, "acquisition")
    assert decision.outcome == {} and decision.details["evaluated_prices"] == {}


@pytest.mark.parametrize(("method", "chosen", "fallback", "effective"), [
    pytest.param("qualitative", "B", "LOTTERY", "qualitative", id="BID-23-qualitative-choice"),
    pytest.param("qualitative", None, "LOTTERY", "lottery", id="AMB-45-still-identical-lottery"),
    pytest.param("qualitative", "", "NEW_BID_AMONG_TIED", "new_bid_among_tied", id="AMB-45-still-identical-new-bid"),
    pytest.param("qualitative", None, None, "lottery", id="AMB-45-default-fallback-lottery"),
    pytest.param("lottery", None, "NEW_BID_AMONG_TIED", "lottery", id="BID-24-lottery-chosen-directly"),
    pytest.param("new_bid_among_tied", None, "LOTTERY", "new_bid_among_tied", id="BID-24-new-bid-chosen"),
])
def test_effective_tie_method(method, chosen, fallback, effective):
    assert effective_tie_method(method, chosen, fallback) == effective


@pytest.mark.parametrize(("method", "chosen", "lottery", "outcome", "winner", "rules"), [
    pytest.param("qualitative", "B", None, "B", "B", ("BID-23", "AMB-45"), id="BID-23-AMB-45-qualitative"),
    pytest.param("lottery", None, {"winner": "A", "seed": "s"}, "A", "A", ("BID-24", "AMB-45", "TC-7"),
                 id="BID-24-TC-7-lottery"),
    pytest.param("new_bid_among_tied", None, None, "NEW_BID_AMONG_TIED", None, ("BID-24", "AMB-45", "TC-7"),
                 id="BID-24-new-bid-among-tied"),
])
def test_tie_resolution(method, chosen, lottery, outcome, winner, rules):
    decision = tie_resolution(["A", "B"], method, chosen, "EXPERIENCE", lottery, fallback="LOTTERY")
    assert decision.outcome == outcome
    assert decision.rule_ids == rules
    assert decision.details == {"winner": winner, "method": method}
    assert decision.inputs == {"tie": ["A", "B"], "method": method, "basis": "EXPERIENCE",
                               "tie_break_after_qualitative": "LOTTERY"}


def test_winner_first_moves_the_tie_winner_to_the_top():
    ranking = {"1": ["A", "B", "C"], "2": ["X", "Y"]}
    assert winner_first(ranking, 1, "B") == {"1": ["B", "A", "C"], "2": ["X", "Y"]}
    assert ranking["1"] == ["A", "B", "C"]


@pytest.mark.parametrize(("resolved", "expected"), [
    pytest.param(set(), {"line": "1", "tie": ["A", "B"]}, id="BID-23-first-unbroken"),
    pytest.param({"1"}, {"line": "3", "tie": ["E", "F"]}, id="BID-23-next-line"),
    pytest.param({"1", "3"}, {"line": None, "tie": []}, id="BID-23-none-left"),
])
def test_next_tie(resolved, expected):
    assert next_tie({}, {"1": ["A", "B"], "3": ["E", "F"]}, resolved) == expected


OFFERS = [offer("A", "1", bidder="B-1"), offer("B", "1", bidder="B-2"), offer("C", "1", bidder="B-2")]


def test_lottery_participants_name_offers_and_bidders():
    assert lottery_participants(["A", "B"], OFFERS) == [{"offer_id": "A", "bidder_id": "B-1"},
                                                       {"offer_id": "B", "bidder_id": "B-2"}]


@pytest.mark.parametrize(("tie", "witnessed", "winner"), [
    pytest.param(["A", "B"], "B", "B", id="TC-7-witnessed-offer"),
    pytest.param(["A", "B"], "B-1", "A", id="TC-7-witnessed-bidder-with-one-offer"),
    pytest.param(["A", "B", "C"], "B-2", None, id="TC-7-bidder-with-two-tied-offers-ambiguous"),
    pytest.param(["A", "B"], "Z", None, id="TC-7-not-a-participant"),
    pytest.param(["A", "B"], None, None, id="TC-7-no-witnessed-result"),
    pytest.param(["A", "B"], "", None, id="TC-7-empty-witnessed-result"),
])
def test_witnessed_winner(tie, witnessed, winner):
    assert witnessed_winner(tie, OFFERS, witnessed) == winner
