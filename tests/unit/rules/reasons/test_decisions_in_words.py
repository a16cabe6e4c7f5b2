"""Decision sentences name what was compared and read values as words (issue 16): the ranking and
the award say the evaluated prices and the preference applied, a ban reads as its dates (never a
dict), a surplus category as the stage it names, a period in years in the singular when it is one."""
from __future__ import annotations

from engine.rules.bid_adjudication.award import award_result
from engine.rules.bid_adjudication.ranking import rank_offers
from engine.rules.bid_adjudication.sanctions import ban_periods
from engine.rules.reasons import explain
from engine.rules.reasons.explain import explain_decision

OFFERS = [
    {"offer_id": "O-1", "bidder_id": "RL-4101", "bidder_name": "Muebles del Caribe, Inc.", "price": "48900.00",
     "preference_pct": "0.00", "line": 1},
    {"offer_id": "O-2", "bidder_id": "RL-4102", "bidder_name": "Oficinas Borinquen, LLC", "price": "51000.00",
     "preference_pct": "5.00", "line": 1},
    {"offer_id": "O-3", "bidder_id": "RL-4103", "bidder_name": "Distribuidora Central", "price": "49800.00",
     "preference_pct": "0.00", "line": 1}]
CONSIDERED = {o["offer_id"]: "CONSIDERED" for o in OFFERS}


def test_the_ranking_says_each_offers_evaluated_price_and_the_preference_applied():
    why = explain("rank_offers", rank_offers(OFFERS, CONSIDERED, "acquisition"))
    assert why["es"].startswith("Renglón 1, por precio evaluado de la más baja a la más alta: la oferta O-2")
    assert "$51,000.00 con 5 % de preferencia de la Ley 14-2004, precio evaluado $48,450.00" in why["es"]
    assert "la oferta O-1 (Muebles del Caribe, Inc.): $48,900.00" in why["es"]
    assert why["es"].index("O-2") < why["es"].index("O-1") < why["es"].index("O-3")


def test_the_award_is_explained_against_the_other_evaluated_prices():
    ranking = rank_offers(OFFERS, CONSIDERED, "acquisition").outcome
    why = explain("award_result", award_result([{"line": 1, "offer_id": "O-2"}], ranking, OFFERS, "acquisition"))
    assert ("Se adjudica el renglón 1 a RL-4102 (oferta O-2) por $51,000.00: su precio evaluado es $48,450.00 "
            "tras aplicar 5 % de preferencia de la Ley 14-2004, frente a O-1 $48,900.00 y O-3 $49,800.00") in why["es"]


def test_a_ban_reads_as_its_dates_and_reason_never_as_a_record():
    decision = ban_periods([{"bidder_id": "RL-4103", "kind": "registry_withdrawal", "months": 12}], "2024-04-22",
                           [{"bidder_id": "RL-4103", "reason": "UNJUSTIFIED_COMPLAINT"}])
    why = explain("ban_periods", decision)
    assert why["es"] == ("RL-4103 queda inhabilitado desde el 22 de abril de 2024 hasta el 21 de abril de 2025 "
                         "(12 meses) porque su querella fue injustificada; puede volver a licitar el 22 de abril de 2025.")
    assert why["en"] == "Bans from April 22, 2024 for RL-4103."
    assert "{" not in why["es"] + why["en"] and "UNJUSTIFIED_COMPLAINT" not in why["es"]


def test_a_surplus_request_category_reads_as_the_stage_it_names():
    why = explain_decision("surplus_request_category", 2, (), {"kind": "productor"})
    assert why["es"] == "La solicitud de productor bona fide cuenta en la categoría 2 (productores bona fide)."
    assert explain_decision("surplus_request_category", "TRANSFER", (), {"kind": "municipio"})["en"] == (
        "The request of a municipality counts in the reassignment or transfer.")


def test_one_year_is_one_year_and_a_received_time_reads_as_its_day():
    why = explain_decision("application_validity", "2025-03-31", (), {"years": 1, "filing_date": "2024-04-01"})
    assert why["es"] == "La solicitud vale hasta el 31 de marzo de 2025 (1 año desde el 1 de abril de 2024)."
    assert "(1 year from April 1, 2024)" in why["en"]
    held = explain_decision("surplus_register_request", "PENDING", (),
                            {"request_id": "F-17", "received_at": "2024-05-03T09:00:00-04:00"})
    assert held["es"] == "La solicitud F-17 queda pendiente para su etapa (recibida el 3 de mayo de 2024)."
