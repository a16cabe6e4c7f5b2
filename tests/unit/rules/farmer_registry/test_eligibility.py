"""Direct tests of engine/rules/farmer_registry/eligibility.py (FAR-01…10, AMB-01, 02, 18, 21).

Defaults from RULES.md §2.5: `farmer.minIncomeSharePct = 50` compared `>=` and exactly (AMB-01,
AMB-21, TC-5: 49.99 % < 50 %); the statute's five producer types (AMB-02); certifications per type
(AMB-18: Fomento Económico only for artisans, the Secretario de Agricultura for every other type,
associations registered in the Departamento de Estado, the own notarial declaration for all).
"""
from __future__ import annotations

from decimal import Decimal

import pytest

from engine.rules.farmer_registry.eligibility import (
    ASSOCIATION_NOT_REGISTERED, CERTIFICATION_INVALID_FOR_TYPE, CERTIFICATION_MISSING, DOCUMENTS_NOT_SUPPLIED,
    INCOME_SHARE_BELOW_THRESHOLD, TYPE_NOT_ELIGIBLE, assess_eligibility, certification_valid_for_type,
    documents_not_supplied, eligibility_summary, income_share_qualifies, producer_type_in_scope,
)

FIVE_TYPES = ["agricultor", "acuicultor", "avicultor", "artesano", "pescador"]
_COMMON = ["asociacion_agricultores_pr", "asociacion_registrada", "declaracion_notarial"]
ACCEPTED = {t: (["fomento_economico"] if t == "artesano" else ["secretario_agricultura"]) + _COMMON
            for t in FIVE_TYPES}
SCOPE_RULES = ("FAR-02", "AMB-02")
SHARE_RULES = ("FAR-04", "FAR-05", "AMB-01", "AMB-21")
CERT_RULES = ("FAR-06", "FAR-07", "AMB-18")


def doc(kind, registered=None, issuer="x"):
    return {"type": kind, "issuer": issuer, "registered_dept_estado": registered}


@pytest.mark.parametrize(("producer_type", "types", "expected"), [
    pytest.param("agricultor", FIVE_TYPES, True, id="FAR-02-agricultor"),
    pytest.param("pescador", FIVE_TYPES, True, id="FAR-02-AMB-02-FAR-S04-pescador-statute-scope"),
    pytest.param("artesano", FIVE_TYPES, True, id="FAR-02-artesano"),
    pytest.param("pescador", ["agricultor"], False, id="FAR-02-AMB-02-FAR-S04-000-only-profile"),
    pytest.param("AGRICULTOR", ["agricultor"], True, id="FAR-02-analyst-uppercase"),
    pytest.param("agricultor", ["AGRICULTOR"], True, id="FAR-02-uppercase-parameter"),
    pytest.param("ganadero", FIVE_TYPES, False, id="FAR-02-unknown-type"),
    pytest.param("agricultor", [], False, id="FAR-02-empty-parameter"),
])
def test_producer_type_in_scope(producer_type, types, expected):
    decision = producer_type_in_scope(producer_type, types)
    assert decision.outcome is expected
    assert decision.rule_ids == SCOPE_RULES
    assert decision.inputs["producer_type"] == producer_type
    assert decision.inputs["eligible_producer_types"] == [t.lower() for t in types]


@pytest.mark.parametrize(("gross", "activity", "threshold", "qualifies", "shown"), [
    pytest.param("40000.00", "32000.00", 50, True, "80.00", id="FAR-04-FAR-S01-80pct-default-50"),
    pytest.param("40000.00", "32000.00", 80, True, "80.00", id="FAR-04-AMB-01-FAR-S01-exactly-80-with-80"),
    pytest.param("40000.00", "31999.99", 80, False, "79.99", id="FAR-04-AMB-01-one-cent-below-80"),
    pytest.param("36000.00", "21600.00", 50, True, "60.00", id="FAR-04-FAR-S04-60pct"),
    pytest.param("10000.00", "5000.00", 50, True, "50.00", id="FAR-04-AMB-01-exactly-50-qualifies"),
    pytest.param("10000.00", "4999.00", 50, False, "49.99", id="FAR-04-AMB-21-TC-5-49.99-below-50"),
    pytest.param("10000.00", "5000.01", 50, True, "50.00", id="FAR-04-one-cent-above-50"),
    pytest.param("100000.00", "49999.99", 50, False, "49.99", id="FAR-04-AMB-21-no-rounding-up-to-50"),
    pytest.param("3.00", "2.00", 50, True, "66.66", id="FAR-04-share-shown-truncated"),
    pytest.param("0", "0", 50, False, "0.00", id="FAR-05-no-gross-income"),
    pytest.param("40000.00", "0.00", 50, False, "0.00", id="FAR-05-no-activity-income"),
])
def test_income_share_qualifies(gross, activity, threshold, qualifies, shown):
    decision = income_share_qualifies(gross, activity, threshold)
    assert decision.outcome is qualifies
    assert decision.rule_ids == SHARE_RULES
    assert decision.details["income_share_pct"] == shown
    assert decision.inputs == {"gross_annual_income": Decimal(gross), "activity_income": Decimal(activity),
                               "min_share_pct": Decimal(threshold)}


def test_income_share_is_exact_with_decimal_inputs_and_decimal_threshold():
    assert income_share_qualifies(Decimal("200.00"), Decimal("99.99"), Decimal("50")).outcome is False
    assert income_share_qualifies(Decimal("200.00"), Decimal("100.00"), Decimal("50.00")).outcome is True


@pytest.mark.parametrize(("producer_type", "documents", "reasons"), [
    pytest.param("agricultor", [doc("secretario_agricultura")], [], id="FAR-06-secretario-agricultura"),
    pytest.param("pescador", [doc("secretario_agricultura")], [], id="FAR-07-FAR-S04-pescador-secretario"),
    pytest.param("artesano", [doc("fomento_economico")], [], id="FAR-07-artesano-fomento"),
    pytest.param("artesano", [doc("secretario_agricultura")], [CERTIFICATION_INVALID_FOR_TYPE],
                 id="FAR-07-AMB-18-artesano-secretario-invalid"),
    pytest.param("agricultor", [doc("fomento_economico")], [CERTIFICATION_INVALID_FOR_TYPE],
                 id="FAR-07-AMB-18-fomento-only-for-artesano"),
    *[pytest.param(t, [doc("declaracion_notarial")], [], id=f"FAR-06-FAR-07-AMB-18-notarial-{t}")
      for t in FIVE_TYPES],
    pytest.param("agricultor", [], [CERTIFICATION_MISSING], id="FAR-06-FAR-S07-no-document"),
    pytest.param("agricultor", None, [CERTIFICATION_MISSING], id="FAR-06-documents-none"),
    pytest.param("avicultor", [doc("asociacion_registrada", True)], [], id="FAR-07-association-registered"),
    pytest.param("avicultor", [doc("asociacion_registrada", None)], [ASSOCIATION_NOT_REGISTERED],
                 id="FAR-06-AMB-18-association-registration-unknown"),
    pytest.param("avicultor", [doc("asociacion_registrada", False)], [ASSOCIATION_NOT_REGISTERED],
                 id="FAR-06-AMB-18-association-not-registered"),
    pytest.param("agricultor", [doc("asociacion_agricultores_pr", None)], [],
                 id="FAR-06-asociacion-agricultores-pr-named-by-000"),
    pytest.param("agricultor", [doc("asociacion_agricultores_pr", False)], [ASSOCIATION_NOT_REGISTERED],
                 id="FAR-06-asociacion-agricultores-pr-not-registered"),
    pytest.param("artesano", [doc("secretario_agricultura"), doc("asociacion_registrada", False)],
                 [CERTIFICATION_INVALID_FOR_TYPE, ASSOCIATION_NOT_REGISTERED], id="FAR-07-AMB-18-both-failures-kept"),
    pytest.param("artesano", [doc("secretario_agricultura"), doc("fomento_economico")], [],
                 id="FAR-07-one-fitting-document-is-enough"),
    pytest.param("ganadero", [doc("declaracion_notarial")], [CERTIFICATION_INVALID_FOR_TYPE],
                 id="FAR-07-type-without-accepted-list"),
])
def test_certification_valid_for_type(producer_type, documents, reasons):
    decision = certification_valid_for_type(producer_type, documents, ACCEPTED)
    assert decision.outcome is (not reasons)
    assert decision.rule_ids == CERT_RULES
    assert decision.details["reasons"] == reasons
    assert len(decision.details["documents"]) == len(documents or [])
    assert decision.inputs["accepted_for_type"] == ACCEPTED.get(producer_type, [])


def test_certification_findings_name_each_document():
    decision = certification_valid_for_type("artesano", [doc("secretario_agricultura", issuer="Depto."),
                                                         doc("asociacion_registrada", False, issuer="Coop")], ACCEPTED)
    assert decision.details["documents"] == [
        {"type": "secretario_agricultura", "issuer": "Depto.", "accepted_for_type": False,
         "registration_ok": True, "valid": False},
        {"type": "asociacion_registrada", "issuer": "Coop", "accepted_for_type": True,
         "registration_ok": False, "valid": False}]


def applicant(kind="agricultor"):
    return {"name": "Ana Torres", "producer_type": kind, "address": "Carr. 172 km 3, Cidra", "municipality": "Cidra"}


ALL_RULES = ("FAR-01", *SCOPE_RULES, *SHARE_RULES, *CERT_RULES, "FAR-10")


@pytest.mark.parametrize(("kind", "types", "gross", "activity", "documents", "reasons", "shown"), [
    pytest.param("agricultor", FIVE_TYPES, "40000.00", "32000.00", [doc("secretario_agricultura")], [], "80.00",
                 id="FAR-01-FAR-10-FAR-S01-eligible"),
    pytest.param("pescador", FIVE_TYPES, "36000.00", "21600.00", [doc("secretario_agricultura")], [], "60.00",
                 id="FAR-02-FAR-S04-fisherman-eligible"),
    pytest.param("pescador", ["agricultor"], "36000.00", "21600.00", [doc("secretario_agricultura")],
                 [TYPE_NOT_ELIGIBLE], "60.00", id="FAR-02-FAR-S04-fisherman-000-profile"),
    pytest.param("agricultor", FIVE_TYPES, "20000.00", "17000.00", [], [CERTIFICATION_MISSING], "85.00",
                 id="FAR-06-FAR-S07-no-certification"),
    pytest.param("agricultor", FIVE_TYPES, "10000.00", "4999.99", [doc("secretario_agricultura")],
                 [INCOME_SHARE_BELOW_THRESHOLD], "49.99", id="FAR-04-below-threshold"),
    pytest.param("ganadero", FIVE_TYPES, "10000.00", "1000.00", [doc("fomento_economico")],
                 [TYPE_NOT_ELIGIBLE, INCOME_SHARE_BELOW_THRESHOLD, CERTIFICATION_INVALID_FOR_TYPE], "10.00",
                 id="FAR-01-every-failure-in-order"),
])
def test_assess_eligibility(kind, types, gross, activity, documents, reasons, shown):
    decision = assess_eligibility(applicant(kind), gross, activity, documents, 50, types, ACCEPTED)
    assert decision.outcome is (not reasons)
    assert decision.rule_ids == ALL_RULES
    assert decision.details["eligible"] is (not reasons)
    assert decision.details["reasons"] == reasons
    assert decision.details["income_share_pct"] == shown
    assert decision.details["checks"]["producer_type"] is (TYPE_NOT_ELIGIBLE not in reasons)
    assert decision.details["checks"]["income_share"] is (INCOME_SHARE_BELOW_THRESHOLD not in reasons)
    assert decision.inputs["gross_annual_income"] == Decimal(gross)
    assert decision.inputs["activity_income"] == Decimal(activity)
    assert decision.inputs["min_share_pct"] == Decimal(50)
    assert decision.inputs["applicant"]["producer_type"] == kind


def test_assess_eligibility_with_80_pct_profile_at_exactly_80_pct():
    decision = assess_eligibility(applicant(), "40000.00", "32000.00", [doc("secretario_agricultura")], 80,
                                  FIVE_TYPES, ACCEPTED)
    assert decision.outcome is True and decision.details["reasons"] == []


def test_eligibility_summary_is_the_contract_variable():
    assessment = assess_eligibility(applicant(), "40000.00", "32000.00", [], 50, FIVE_TYPES, ACCEPTED).as_dict()
    assert eligibility_summary(assessment) == {"eligible": False, "income_share_pct": "80.00",
                                               "reasons": [CERTIFICATION_MISSING]}


@pytest.mark.parametrize(("eligibility", "reasons"), [
    pytest.param({"eligible": True, "income_share_pct": "80.00", "reasons": []}, [DOCUMENTS_NOT_SUPPLIED],
                 id="FAR-08-eligible-file-becomes-incomplete"),
    pytest.param({"eligible": False, "income_share_pct": "40.00", "reasons": [INCOME_SHARE_BELOW_THRESHOLD]},
                 [DOCUMENTS_NOT_SUPPLIED, INCOME_SHARE_BELOW_THRESHOLD], id="FAR-08-first-reason-documents"),
    pytest.param({"eligible": False, "income_share_pct": "80.00",
                  "reasons": [CERTIFICATION_MISSING, DOCUMENTS_NOT_SUPPLIED]},
                 [DOCUMENTS_NOT_SUPPLIED, CERTIFICATION_MISSING], id="FAR-08-not-duplicated"),
])
def test_documents_not_supplied(eligibility, reasons):
    decision = documents_not_supplied(eligibility, ["secretario_agricultura"])
    assert decision.outcome is False
    assert decision.rule_ids == ("FAR-08", "FAR-10")
    assert decision.details["eligibility"]["eligible"] is False
    assert decision.details["eligibility"]["reasons"] == reasons
    assert decision.details["eligibility"]["income_share_pct"] == eligibility["income_share_pct"]
    assert decision.inputs["required_documents"] == ["secretario_agricultura"]
    assert decision.inputs["eligibility"] == eligibility
