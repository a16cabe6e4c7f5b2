"""Materials aid, surplus disposition and bid adjudication: each decision's reasons read as sentences
with the values used and the threshold, and refusals keep every reason."""
from __future__ import annotations

import pytest

from engine.rules.decision import RuleViolation
from engine.rules.facts import Facts
from engine.rules.bid_adjudication.screening import screen_offers
from engine.rules.materials_aid.eligibility import BASIC_DOCUMENTS, assess_eligibility
from engine.rules.materials_aid.hooks import central_review_decided, quotes_prepared
from engine.rules.reasons import explain, explain_refusal
from engine.rules.surplus_disposition.delivery import retention_obligation
from engine.rules.surplus_disposition.pricing import sale_price

THRESHOLDS = {"1": "15000.00", "2": "18000.00", "3": "21000.00", "4": "25000.00", "5": "28000.00", "6": "31000.00"}
OWNER = {"owns_lot": True, "owns_house": True, "land": "private", "lot_owner_authorization": "none",
         "is_heir": False, "heirs_sworn_authorization": False, "resides": True, "aid_enables_completion": False,
         "other_properties": True}


def test_materials_eligibility_says_the_household_income_and_the_limit_for_its_size():
    decision = assess_eligibility({"id": "REC-1", "name": "María"}, {"size": 4, "annual_income": "26500.00"}, OWNER,
                                  {"type": "rehabilitation"}, True, {n: True for n in BASIC_DOCUMENTS}, THRESHOLDS,
                                  "2024-01-22")
    why = explain("assess_materials_eligibility", decision)
    assert why["es"] == "El solicitante no cumple los requisitos del programa."
    by_code = {r["code"]: r for r in why["reasons"]}
    assert by_code["INCOME_ABOVE_LIMIT"]["es"] == ("el ingreso anual del hogar ($26,500.00, 4 personas) supera el "
                                                  "límite de $25,000.00")
    assert by_code["INCOME_ABOVE_LIMIT"]["threshold"]["name"] == "income_limit"
    assert by_code["OTHER_PROPERTY"]["es"] == "el solicitante tiene otra propiedad"
    assert by_code["OTHER_PROPERTY"]["rule_ids"] == ["MAT-05"]


def test_a_quote_over_the_maximum_aid_names_both_amounts():
    with pytest.raises(RuleViolation) as refused:
        central_review_decided({"approved": True}, Facts(case={"selected_total": "9100.00", "max_aid_amount": "8500.00"}))
    [reason] = explain_refusal(refused.value)
    assert reason["es"] == "la cotización escogida ($9,100.00) supera la ayuda máxima de $8,500.00"
    assert reason["threshold"] == {"name": "max_aid_amount", "value": reason["values"]["max_aid_amount"]}


def test_bad_quotes_are_refused_with_every_reason():
    quotes = [{"store_id": "X", "store_name": "Ferretería Fantasma", "total": "100.00"}]
    case = {"registered_stores": [{"id": "S1", "name": "Ferretería Cidra"}], "quote_count": 3}
    with pytest.raises(RuleViolation) as refused:
        quotes_prepared({"quotes": quotes, "items": []}, Facts(case=case))
    reasons = explain_refusal(refused.value)
    assert [r["code"] for r in reasons] == ["QUOTE_STORE_NOT_REGISTERED", "QUOTES_NOT_THREE_DISTINCT"]
    assert "(Ferretería Fantasma)" in reasons[0]["es"]
    assert reasons[1]["es"] == "hacen falta cotizaciones de 3 ferreterías registradas distintas"


def test_surplus_retention_says_the_value_and_the_300_dollar_threshold():
    item = {"estimated_value": "300.00", "is_vehicle": False, "donated": False, "furniture": False}
    why = explain("surplus_retention_obligation", retention_obligation(item, "municipio", "SOLD_GOV"))
    assert why["es"] == "El receptor no tiene obligación de retención."
    [reason] = why["reasons"]
    assert reason["es"] == "el valor estimado ($300.00) no es mayor de $300.00"
    assert reason["threshold"] == {"name": "threshold", "value": "300.00"}


def test_a_price_above_fair_market_value_names_both():
    with pytest.raises(RuleViolation) as refused:
        sale_price("PRODUCER_FMV", {"fair_market_value": "1000.00", "price": "1200.00"})
    [reason] = explain_refusal(refused.value)
    assert reason["es"] == "el precio de $1,200.00 supera el justo valor en el mercado de $1,000.00"
    assert reason["rule_ids"] == ["FAR-22", "SUR-11"]


def test_each_offer_left_out_at_the_opening_is_a_reason_of_its_own():
    due = "2024-09-10T10:00:00-04:00"
    offers = [{"offer_id": oid, "line": 1, "bidder_id": oid, "received_at": at, "in_acta": acta, "collector_ok": True,
               "price": "100.00"} for oid, at, acta in (("A", "2024-09-10T09:00:00-04:00", True),
                                                        ("B", "2024-09-10T10:05:00-04:00", True),
                                                        ("C", "2024-09-10T09:30:00-04:00", False))]
    decision = screen_offers(offers, {"number": "2025-001", "kind": "acquisition", "alternates_requested": False,
                                      "offers_due_at": due}, {})
    why = explain("screen_offers", decision)
    assert [r["es"] for r in why["reasons"]] == ["la oferta B llegó después de la hora de apertura",
                                                 "la oferta C no consta en el Acta de Apertura"]
    assert why["reasons"][0]["rule_ids"] == ["BID-01", "BID-12"]
    assert why["reasons"][1]["en"] == "offer C is not recorded in the Acta de Apertura"
