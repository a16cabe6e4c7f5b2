"""`offers_route`: only a bid that *received* one offer is a single-offer bid (BID-14, BID-17; issue 22)."""
from __future__ import annotations

import pytest

from engine.rules.bid_adjudication import offers_route


@pytest.mark.parametrize(("received", "left", "collusion", "route"), [
    pytest.param(["A"], ["A"], False, "assess_single_offer", id="one-received-one-left"),
    pytest.param(["A", "B"], ["B"], False, "rank", id="two-received-one-left-after-exclusion"),
    pytest.param(["A", "B", "C"], ["B", "C"], False, "rank", id="several-left"),
    pytest.param(["A", "B"], [], False, "reject", id="none-left"),
    pytest.param(["A"], [], False, "reject", id="single-received-excluded"),
    pytest.param(["A", "B"], ["A", "B"], True, "reject", id="collusion-of-all"),
])
def test_the_route_counts_offers_received(received, left, collusion, route):
    decision = offers_route(received, left, collusion)
    assert decision.outcome == route
    assert decision.details["single_offer_received"] is (len(received) == 1)
    assert decision.details["explanation"]


def test_one_left_of_several_cites_the_single_offer_rules_it_does_not_apply():
    decision = offers_route(["A", "B", "B"], ["B"])
    assert decision.rule_ids == ("BID-07", "BID-14", "BID-17", "AMB-44")
    assert "no es una subasta de un solo licitador" in decision.details["explanation"]
    assert decision.inputs["received_bidders"] == ["A", "B"]
