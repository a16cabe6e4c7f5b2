"""Farmer-registry decisions and refusals read as sentences with the values used and the threshold."""
from __future__ import annotations

from datetime import date

import pytest

from engine.rules.decision import Refusal, RuleViolation
from engine.rules.facts import Facts
from engine.rules.farmer_registry import COMPLETION_RULES, MESSAGE_RULES, ADMISSION, assess_eligibility
from engine.rules.reasons import explain, explain_refusal, refusal_sentences

TYPES = ["agricultor", "acuicultor", "avicultor", "artesano", "pescador"]
CERTS = {"agricultor": ["secretario_agricultura", "asociacion_agricultores_pr"]}
SECRETARIO = {"type": "secretario_agricultura", "issuer": "Secretario de Agricultura"}


def assess(gross="40000.00", activity="12000.00", producer_type="agricultor", documents=(SECRETARIO,)):
    return assess_eligibility({"producer_type": producer_type, "name": "Ana"}, gross, activity, list(documents),
                              "50.00", TYPES, CERTS)


def test_a_denial_for_income_share_says_the_share_the_figures_and_the_minimum():
    why = explain("assess_eligibility", assess())
    assert why["es"].startswith("La solicitud no cumple todos los requisitos")
    share = next(r for r in why["reasons"] if r["code"] == "INCOME_SHARE_BELOW_THRESHOLD")
    assert share["es"] == ("la actividad agrícola aporta 30 % del ingreso bruto anual ($12,000.00 de $40,000.00); "
                           "el mínimo es 50 %")
    assert "the minimum is 50 %" in share["en"] and "30 %" in share["en"]
    assert share["threshold"] == {"name": "min_share_pct", "value": share["values"]["min_share_pct"]}
    assert str(share["values"]["min_share_pct"]) == "50.00" and share["values"]["income_share_pct"] == "30.00"
    assert share["rule_ids"][:3] == ["FAR-04", "FAR-05", "AMB-01"]
    assert share["articles"][0]["citation_es"].startswith("FAR-04 — Reglamento de la Comisión (000)")


def test_an_admission_explains_every_requirement_met():
    why = explain("assess_eligibility", assess(activity="32000.00"))
    assert why["es"].startswith("La solicitud cumple todos los requisitos")
    assert [r["code"] for r in why["reasons"]] == ["TYPE_ELIGIBLE", "INCOME_SHARE_MET", "CERTIFICATION_VALID"]
    assert "aporta 80 % del ingreso bruto anual" in why["reasons"][1]["es"]
    assert "Secretario de Agricultura" in why["reasons"][2]["es"]


def test_every_failed_requirement_is_a_reason_of_its_own():
    why = explain("assess_eligibility", assess(producer_type="minero", documents=()))
    codes = [r["code"] for r in why["reasons"]]
    assert codes == ["TYPE_NOT_ELIGIBLE", "INCOME_SHARE_BELOW_THRESHOLD", "CERTIFICATION_MISSING"]
    assert "«minero» no es elegible; se admiten: agricultor, acuicultor, avicultor, artesano y pescador" \
        in why["reasons"][0]["es"]


def test_a_refused_admission_gives_all_its_reasons_not_only_the_first():
    case = {"applicant": {"producer_type": "minero"}, "gross_annual_income": "40000.00", "activity_income": "100.00",
            "eligibility": {"eligible": False, "income_share_pct": "0.25",
                            "reasons": ["TYPE_NOT_ELIGIBLE", "INCOME_SHARE_BELOW_THRESHOLD"]}}
    with pytest.raises(RuleViolation) as refused:
        COMPLETION_RULES[(ADMISSION, "evaluate_application")]({"recommendation": "admit"}, Facts(case=case))
    assert refused.value.errors == {"rule": ["TYPE_NOT_ELIGIBLE"]}
    reasons = explain_refusal(refused.value)
    assert [r["code"] for r in reasons] == ["TYPE_NOT_ELIGIBLE", "INCOME_SHARE_BELOW_THRESHOLD"]
    assert reasons[1]["es"] == "la actividad agrícola aporta 0.25 % del ingreso bruto anual ($100.00 de $40,000.00)"
    text = refusal_sentences(reasons, "es")
    assert text.startswith("El tipo de productor «minero» no es elegible.") and "(FAR-04" in text


def test_a_late_review_request_says_when_it_came_and_the_last_day():
    case = {"review_deadline": "2024-03-11"}
    with pytest.raises(Refusal) as refused:
        MESSAGE_RULES[(ADMISSION, "review_requested")]({}, Facts(case=case, today=date(2024, 3, 12), waiting=False))
    [reason] = explain_refusal(refused.value)
    assert reason["es"].startswith("la solicitud de revisión llegó el 12 de marzo de 2024, fuera de plazo: el último "
                                   "día era el 11 de marzo de 2024")
    assert reason["threshold"] == {"name": "review_deadline", "value": "2024-03-11"}
    assert "March 12, 2024" in reason["en"]
