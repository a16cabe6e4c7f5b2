"""Issue 22: a bid that received several offers is not a single-offer bid after exclusions.

BID-14 and BID-17 speak of offers *received* («Cuando se reciba una sola oferta»): two offers
received, the lowest excluded at the evaluation (BID-30f debtor without a payment plan, BID-30g
conviction), leave the other as the lowest eligible offer — it goes to `award` with no BID-09
justification and the exclusion stays on record with its reason. Only one offer received in
time goes to `assess_single_offer`; BID-20's count counts bids that received one offer.
"""
from __future__ import annotations

import re

from tests.conftest import PASSWORD

from .conftest import offer, votes


def tasks(case):
    return {t["element_id"] for t in case["open_tasks"]}


def two_offers():
    # LOW is the lowest price; OTHER is the one left when LOW's bidder is excluded.
    return [offer("LOW", "45000.00"), offer("OTHER", "48000.00")]


def award_unanimous(bids, case, offer_id):
    return bids.award(case, {"line": 1, "offer_id": offer_id,
                             "votes": votes(J1=offer_id, J2=offer_id, J3=offer_id, J4=offer_id, J5=offer_id),
                             "justification": None})


def excluded_lowest(bids, exclusion, **bid):
    case = bids.record(bids.open(**bid), two_offers())
    return bids.evaluate(case, [{"offer_id": "LOW", "bidder_exclusion": exclusion}])


def test_lowest_excluded_as_debtor_without_a_plan_awards_the_other_without_justification(bids):
    case = excluded_lowest(bids, "debtor_no_plan")
    assert case["variables"]["offers_status"] == {"LOW": "BIDDER_EXCLUDED", "OTHER": "CONSIDERED"}
    assert tasks(case) == {"award"}, "two offers were received: not a single-offer bid"
    assert case["variables"]["ranking"] == {"1": ["OTHER"]}
    done = award_unanimous(bids, case, "OTHER")["variables"]
    assert (done["awardee"], done["contract_price"], done["justification_required"], done["justification"]) == \
        ("OTHER", "48000.00", False, None)
    assert done["outcome"] == "AWARDED" and "assess_single_offer" not in {
        e["element_id"] for e in bids.history(case["id"], "task_completed")}
    # The exclusion stays on record, with its reason.
    [evaluation] = bids.decisions(case["id"], "apply_evaluation")
    assert evaluation["data"]["exclusions"] == [{
        "offer_id": "LOW", "bidder_id": "LOW", "status": "BIDDER_EXCLUDED", "exclusion": "debtor_no_plan",
        "reason": evaluation["data"]["exclusions"][0]["reason"]}]
    assert "BID-30f" in evaluation["data"]["exclusions"][0]["reason"]
    [route] = bids.decisions(case["id"], "offers_route")
    assert route["data"]["outcome"] == "rank" and route["data"]["single_offer_received"] is False
    assert route["data"]["inputs"] == {"received_bidders": ["LOW", "OTHER"], "considered_bidders": ["OTHER"],
                                       "collusion_of_all": False}


def test_the_same_debtor_with_a_payment_plan_keeps_the_lowest_offer(bids):
    case = bids.record(bids.open(), two_offers())
    # The Junta found the debt but the bidder is under a payment plan: no BID-30f exclusion.
    case = bids.evaluate(case, [{"offer_id": "LOW", "bidder_exclusion": "none",
                                 "notes": "deudor acogido a un plan de pago"}])
    assert case["variables"]["offers_status"] == {"LOW": "CONSIDERED", "OTHER": "CONSIDERED"}
    assert tasks(case) == {"award"} and case["variables"]["ranking"] == {"1": ["LOW", "OTHER"]}
    done = award_unanimous(bids, case, "LOW")["variables"]
    assert (done["awardee"], done["contract_price"], done["justification_required"]) == ("LOW", "45000.00", False)


def test_lowest_convicted_awards_the_other(bids):
    case = excluded_lowest(bids, "convicted")
    assert tasks(case) == {"award"}
    [evaluation] = bids.decisions(case["id"], "apply_evaluation")
    assert [e["exclusion"] for e in evaluation["data"]["exclusions"]] == ["convicted"]
    assert "BID-30g" in evaluation["data"]["exclusions"][0]["reason"]
    assert award_unanimous(bids, case, "OTHER")["variables"]["awardee"] == "OTHER"


def test_one_offer_received_in_time_another_late_is_a_single_offer_bid(bids):
    case = bids.record(bids.open(), [offer("ONTIME", "49000.00"),
                                     offer("LATE1", "40000.00", received_at="2024-04-10T10:01:00-04:00")])
    assert case["variables"]["offers_status"] == {"ONTIME": "CONSIDERED", "LATE1": "LATE"}
    case = bids.evaluate(case)
    assert tasks(case) == {"assess_single_offer"}
    [route] = bids.decisions(case["id"], "offers_route")
    assert route["data"]["outcome"] == "assess_single_offer" and route["data"]["single_offer_received"] is True
    case = bids.complete(case, "assess_single_offer", {"price_reasonable": True, "reason": "Dentro del estimado"}, "J1")
    assert bids.award_first(case)["variables"]["awardee"] == "ONTIME"


def test_bid_20_counts_bids_that_received_one_offer_not_bids_left_with_one(bids):
    counts = []
    for _ in range(3):
        case = excluded_lowest(bids, "debtor_no_plan")
        counts.append(case["variables"]["single_bidder_count"])
        assert "inform_mayor" not in tasks(case) and tasks(case) == {"award"}
    assert counts == [0, 0, 0]
    # Bids that received one offer do count, and a bid that received two resets the count.
    singles = [bids.record(bids.open(), [offer("UNO", "49000.00")])["variables"]["single_bidder_count"]
               for _ in range(2)]
    assert singles == [1, 2]
    assert excluded_lowest(bids, "convicted")["variables"]["single_bidder_count"] == 0
    assert bids.record(bids.open(), [offer("UNO", "49000.00")])["variables"]["single_bidder_count"] == 1


def test_the_case_page_explains_the_exclusion_and_the_award_in_words(bids):
    case = excluded_lowest(bids, "debtor_no_plan")
    award_unanimous(bids, case, "OTHER")
    client = bids.api.client.application.test_client()
    client.get("/web/login")
    with client.session_transaction() as session:
        csrf = session.get("_csrf", "")
    assert client.post("/web/login", data={"username": "boss", "password": PASSWORD, "_csrf": csrf}).status_code == 302
    page = client.get(f"/web/cases/{case['id']}")
    assert page.status_code == 200
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.get_data(as_text=True)))
    assert ("Se excluye la oferta LOW (Licitador LOW): el licitador es deudor del municipio o del Estado Libre "
            "Asociado y no está acogido a un plan de pago (BID-30f, AMB-44). Siguen consideradas: OTHER.") in text
    assert "no es una subasta de un solo licitador" in text
    assert ("Se adjudica el renglón 1 a OTHER (oferta OTHER) por $48,000.00. Es la primera oferta elegible del "
            "orden: no requiere justificación escrita") in text
