"""Admission to the farmer registry: eligibility (FAR-02…07), evaluation and the admission order.

FAR-S01 and FAR-S04 of EXAMPLES.md, the edges of the income threshold, every certification per
producer type, and who may act at each step — all through the HTTP API.
"""
from decimal import Decimal

import pytest

from tests.procedures.farmer_registry.conftest import ADMISSION, application, document

ALL_TYPES = ["agricultor", "acuicultor", "avicultor", "artesano", "pescador"]


def decisions(far, case_id, rule):
    return [e for e in far.history(case_id) if e["type"] == "decision" and e["data"]["rule"] == rule]


def test_far_s01_exactly_80_percent_is_admitted_and_renewal_falls_due_two_years_later(far):
    far.rewind_clock_to("2024-01-22")
    case = far.apply()  # Ana Torres, $32,000.00 of $40,000.00, Secretario de Agricultura
    assert case["variables"]["eligibility"] == {"eligible": True, "income_share_pct": "80.00", "reasons": []}
    assert case["stage"] == "EVALUATION" and case["case_number"].startswith("FAR-2024-")
    assert [t["lane"] for t in case["open_tasks"]] == ["registry_evaluator"]

    far.day("2024-01-29")
    case = far.evaluate(case, "admit")
    assert [(t["element_id"], t["lane"]) for t in case["open_tasks"]] == [("order_admission", "commissioner")]
    far.day("2024-02-05")
    case = far.order(case, "admit")

    assert case["status"] == "completed" and case["outcome"] == "ADMITTED"
    variables = case["variables"]
    assert variables["admission_date"] == "2024-02-05" and variables["renewal_due"] == "2026-02-05"
    assert variables["outcome"] == "ADMITTED" and variables["stage"] == "ADMITTED"
    entry = far.entry(variables["registry_id"])
    assert entry == {**entry, "id": variables["registry_id"], "name": "Ana Torres", "producer_type": "agricultor",
                     "status": "ACTIVE", "registered_on": "2024-02-05", "renewal_due": "2026-02-05",
                     "case_ids": [case["id"], variables["membership_case_id"]]}
    membership = far.membership_of(case)
    assert membership["process_key"] == "farmer_registry_membership" and membership["status"] == "active"
    assert membership["variables"]["registry_id"] == variables["registry_id"]
    assert membership["variables"]["renewal_due"] == "2026-02-05"
    assert membership["deadlines"] == [{"name": "Vence la renovación", "element_id": "renewal_due_passed",
                                        "due_at": "2026-02-06T04:00:00+00:00",
                                        "explanation": "Último día para actuar: jueves 5 de febrero de 2026."}]

    renewal = decisions(far, case["id"], "first_renewal_due")
    assert renewal[0]["rule_ids"] == ["FAR-15", "AMB-17", "TC-3", "TC-3d"]
    assert renewal[0]["data"]["inputs"] == {"admission_date": "2024-02-05", "renewal_years": 2}


def test_far_s01_the_history_answers_why_the_application_was_eligible(far):
    case = far.apply()
    assessed = decisions(far, case["id"], "assess_eligibility")
    assert len(assessed) == 1 and assessed[0]["element_id"] == "assess_eligibility"
    assert {"FAR-02", "FAR-04", "FAR-06", "FAR-07", "AMB-01", "AMB-18"} <= set(assessed[0]["rule_ids"])
    inputs = assessed[0]["data"]["inputs"]
    assert inputs["applicant"]["producer_type"] == "agricultor"
    assert (inputs["gross_annual_income"], inputs["activity_income"], inputs["min_share_pct"]) == \
        ("40000.00", "32000.00", "50.00")
    assert inputs["documents"][0]["type"] == "secretario_agricultura"
    assert "pescador" in inputs["eligible_producer_types"]
    assert "fomento_economico" in inputs["accepted_certifications"]["artesano"]
    checks = assessed[0]["data"]["checks"]
    assert checks["producer_type"] and checks["income_share"] and checks["certification"]


@pytest.mark.parametrize("threshold", [50, 80])
def test_far_s01_the_same_80_percent_qualifies_under_either_threshold(far, threshold):
    far.param("farmer.minIncomeSharePct", threshold)
    case = far.apply()
    assert case["variables"]["eligibility"]["eligible"] is True
    assert far.order(far.evaluate(case, "admit"))["outcome"] == "ADMITTED"


@pytest.mark.parametrize("threshold, activity, eligible, share", [
    (50, "20000.00", True, "50.00"),    # exactly at the default threshold (≥)
    (50, "19999.99", False, "49.99"),   # one cent under
    (80, "32000.00", True, "80.00"),
    (80, "31999.99", False, "79.99"),
])
def test_the_threshold_is_compared_exactly(far, threshold, activity, eligible, share):
    far.param("farmer.minIncomeSharePct", threshold)
    case = far.apply(activity=activity)
    expected_reasons = [] if eligible else ["INCOME_SHARE_BELOW_THRESHOLD"]
    assert case["variables"]["eligibility"] == {"eligible": eligible, "income_share_pct": share,
                                                "reasons": expected_reasons}


def test_a_share_a_hair_under_shows_truncated_and_is_still_refused(far):
    case = far.apply(gross="30000.00", activity="14999.99")  # 49.99996… %
    assert case["variables"]["eligibility"]["income_share_pct"] == "49.99"
    refused = far.evaluate(case, "admit", expect=422)
    assert refused["errors"]["rule"] == ["INCOME_SHARE_BELOW_THRESHOLD"]


def test_money_may_arrive_as_json_numbers_and_is_kept_exact(far):
    case = far.apply(gross=Decimal("40000"), activity=Decimal("20000.00"))
    assert case["variables"]["eligibility"]["income_share_pct"] == "50.00"
    assert case["variables"]["gross_annual_income"] == "40000.00"


def test_far_s04_a_fisherman_is_admitted_under_the_statute(far):
    case = far.apply(name="José Colón", producer_type="pescador", gross="36000.00", activity="21600.00")
    assert case["variables"]["eligibility"] == {"eligible": True, "income_share_pct": "60.00", "reasons": []}
    case = far.order(far.evaluate(case, "admit"))
    assert case["outcome"] == "ADMITTED"
    assert far.entry(case["variables"]["registry_id"])["producer_type"] == "pescador"


def test_far_s04_with_the_regulation_000_scope_a_fisherman_is_denied(far):
    far.param("farmer.eligibleProducerTypes", ["agricultor"])
    case = far.apply(name="José Colón", producer_type="pescador", gross="36000.00", activity="21600.00")
    assert case["variables"]["eligibility"]["reasons"] == ["TYPE_NOT_ELIGIBLE"]
    refused = far.evaluate(case, "admit", expect=422)
    assert refused["errors"]["rule"] == ["TYPE_NOT_ELIGIBLE"]
    case = far.notify(far.evaluate(case, "deny"))
    assert case["stage"] == "DENIED" and case["outcome"] is None


def test_a_parameter_change_applies_to_cases_started_afterwards_only(far):
    before = far.apply(producer_type="pescador")
    far.param("farmer.eligibleProducerTypes", ["agricultor"])
    after = far.apply(producer_type="pescador")
    assert far.case(before["id"])["variables"]["eligibility"]["eligible"] is True
    assert after["variables"]["eligibility"]["eligible"] is False


# Which accompanying document fits which producer type (FAR-06, FAR-07, AMB-18).
FITS = {"secretario_agricultura": {"agricultor", "acuicultor", "avicultor", "pescador"},
        "fomento_economico": {"artesano"},
        "asociacion_agricultores_pr": set(ALL_TYPES), "asociacion_registrada": set(ALL_TYPES),
        "declaracion_notarial": set(ALL_TYPES)}


def test_each_document_type_against_each_producer_type(far):
    for kind, fits in FITS.items():
        registered = True if kind == "asociacion_registrada" else None
        for producer_type in ALL_TYPES:
            case = far.apply(producer_type=producer_type, documents=[document(kind, registered)])
            expected = [] if producer_type in fits else ["CERTIFICATION_INVALID_FOR_TYPE"]
            assert case["variables"]["eligibility"]["reasons"] == expected, (kind, producer_type)


def test_the_notarial_declaration_alone_is_enough_for_every_type(far):
    for producer_type in ALL_TYPES:
        case = far.apply(producer_type=producer_type, documents=[document("declaracion_notarial")])
        assert case["variables"]["eligibility"]["eligible"] is True, producer_type


@pytest.mark.parametrize("kind, registered, reasons", [
    ("asociacion_registrada", True, []),
    ("asociacion_registrada", False, ["ASSOCIATION_NOT_REGISTERED"]),
    ("asociacion_registrada", None, ["ASSOCIATION_NOT_REGISTERED"]),
    ("asociacion_agricultores_pr", None, []),
    ("asociacion_agricultores_pr", False, ["ASSOCIATION_NOT_REGISTERED"]),
])
def test_an_association_must_be_registered_in_the_departamento_de_estado(far, kind, registered, reasons):
    case = far.apply(documents=[document(kind, registered, issuer="Cooperativa Agrícola del Centro")])
    assert case["variables"]["eligibility"]["reasons"] == reasons
    if reasons:
        assert far.evaluate(case, "admit", expect=422)["errors"]["rule"] == reasons[:1]


def test_one_good_document_is_enough_beside_a_bad_one(far):
    case = far.apply(documents=[document("fomento_economico"), document("secretario_agricultura")])
    assert case["variables"]["eligibility"]["eligible"] is True


def test_every_failed_requirement_is_listed_in_order(far):
    far.param("farmer.eligibleProducerTypes", ["agricultor"])
    case = far.apply(producer_type="pescador", activity="10000.00",
                     documents=[document("fomento_economico"), document("asociacion_registrada", False)])
    assert case["variables"]["eligibility"]["reasons"] == [
        "TYPE_NOT_ELIGIBLE", "INCOME_SHARE_BELOW_THRESHOLD", "CERTIFICATION_INVALID_FOR_TYPE",
        "ASSOCIATION_NOT_REGISTERED"]


@pytest.mark.parametrize("sworn", [False, None])
def test_an_application_without_the_sworn_declaration_is_refused(far, sworn):
    variables = application()
    if sworn is None:
        del variables["sworn_declaration"]
    else:
        variables["sworn_declaration"] = sworn
    refused = far.apply(variables, expect=422)
    assert refused["errors"]["rule"] == ["SWORN_DECLARATION_REQUIRED"]
    assert far.api.get(f"/api/v1/instances?process={ADMISSION}", "boss") == []


@pytest.mark.parametrize("change, field", [
    ({"applicant": {"name": "Ana", "producer_type": "ganadero"}}, "applicant.producer_type"),
    ({"gross_annual_income": "40000.001"}, "gross_annual_income"),
    ({"activity_income": "-5.00"}, "activity_income"),
    ({"documents": [{"type": "carta_del_alcalde"}]}, "documents.0.type"),
    ({"filed_on": "2024-04-01"}, "_schema"),  # the filing date is the clock's, never asked
])
def test_the_start_form_refuses_bad_fields(far, change, field):
    refused = far.apply({**application(), **change}, expect=422)
    assert field in refused["errors"], refused["errors"]


def test_activity_income_above_gross_income_is_refused(far):
    refused = far.apply(gross="1000.00", activity="2000.00", expect=422)
    assert refused["errors"]["rule"] == ["ACTIVITY_INCOME_EXCEEDS_GROSS"]


def test_admit_while_not_eligible_is_refused_changes_nothing_and_is_recorded(far):
    case = far.apply(documents=[])
    refused = far.evaluate(case, "admit", expect=422)
    assert refused["errors"]["rule"] == ["CERTIFICATION_MISSING"]
    same = far.case(case["id"])
    assert same["stage"] == "EVALUATION" and far.api.open_task(same, "evaluate_application")["state"] == "open"
    refusal = far.history(case["id"])[-1]
    assert refusal["type"] == "task_refused" and refusal["data"]["code"] == "CERTIFICATION_MISSING"
    assert {"FAR-10", "FAR-06"} <= set(refusal["rule_ids"])


def test_the_evaluation_needs_findings(far):
    case = far.apply()
    task = far.api.open_task(case, "evaluate_application")
    refused = far.api.post(f"/api/v1/tasks/{task['id']}/complete", "far_evaluator",
                           {"data": {"recommendation": "admit", "findings": "  "}}, expect=422)
    assert "findings" in refused["errors"]


def test_the_commissioner_may_deny_with_a_reason_and_the_denial_is_notified(far):
    case = far.evaluate(far.apply(), "admit")
    refused = far.order(case, "deny", expect=422)
    assert "reason" in refused["errors"]
    case = far.order(case, "deny", reason="Información contradictoria en la declaración")
    assert [t["element_id"] for t in case["open_tasks"]] == ["notify_denial"]
    assert case["stage"] == "DENIAL_PENDING_NOTICE"
    case = far.notify(case)
    assert case["stage"] == "DENIED" and case["variables"]["review_deadline"] == "2024-04-22"


def test_a_deny_recommendation_goes_straight_to_the_notification(far):
    case = far.evaluate(far.apply(documents=[]), "deny")
    assert [(t["element_id"], t["lane"]) for t in case["open_tasks"]] == [("notify_denial", "registry_clerk")]


def test_each_step_belongs_to_its_role(far):
    api = far.api
    api.post(f"/api/v1/processes/{ADMISSION}/instances", "far_evaluator", {"variables": application()}, expect=403)
    case = far.apply()
    evaluate = api.open_task(case, "evaluate_application")
    for user in ("far_clerk", "far_commissioner", "far_board"):
        api.post(f"/api/v1/tasks/{evaluate['id']}/complete", user,
                 {"data": {"recommendation": "admit", "findings": "x"}}, expect=403)
    case = far.evaluate(case, "admit")
    order = api.open_task(case, "order_admission")
    api.post(f"/api/v1/tasks/{order['id']}/complete", "far_evaluator", {"data": {"decision": "admit"}}, expect=403)
    api.post(f"/api/v1/tasks/{order['id']}/complete", "boss", {"data": {"decision": "admit"}}, expect=403)
    assert far.order(case)["outcome"] == "ADMITTED"


def test_the_task_forms_are_served_with_spanish_labels(far):
    case = far.apply()
    task = far.api.get(f"/api/v1/tasks/{far.api.open_task(case, 'evaluate_application')['id']}", "far_evaluator")
    assert task["form"]["schema"]["properties"]["recommendation"]["enum"] == ["admit", "deny", "require_documents"]
    assert task["form"]["ui"]["recommendation"]["ui:enumNames"][0] == "Admitir"
    assert task["data"]["case"]["eligibility"]["eligible"] is True
