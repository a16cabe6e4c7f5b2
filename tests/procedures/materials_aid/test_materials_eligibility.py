"""Eligibility (MAT-02…07, 23–27, 31, 32; AMB-23) and its special paths, played through the HTTP API:
MAT-S07 and MAT-S10 of EXAMPLES.md, the income limit at the cent, the lot memorandum and the
Secretario Auxiliar's discretion, and disqualification at the field investigation (MAT-14)."""
import pytest

GLORIA = {"applicant": {"id": "REC-0701", "name": "Gloria Santiago", "municipality": "Cayey"},
          "property": {"resides": False, "aid_enables_completion": True},
          "request": {"type": "rehabilitation", "estimate": "3900.00", "description": "Techo"}}
NO_LOT = {"property": {"owns_lot": False, "land": "private", "lot_owner_authorization": "none"}}
WALL = {"request": {"type": "retaining_wall", "estimate": "3200.00", "description": "Muro de contención"}}
EQUIPMENT = {"request": {"type": "medical_equipment", "estimate": "1800.00", "description": "Cama de posición"}}


def eligibility(case):
    return case["variables"]["eligibility"]


def test_mat_s07a_not_living_there_yet_but_the_aid_lets_her_finish_and_move_in(mat):
    case = mat.filed(**GLORIA)
    assert eligibility(case) == {"eligible": True, "reasons": [], "special_paths": []}
    checks = mat.decisions(case["id"], "assess_materials_eligibility")[0]["data"]["checks"]
    assert checks["C_resides_or_VI_E_completion"] is True


def test_mat_s07b_a_vacation_apartment_makes_her_not_eligible(mat):
    case = mat.filed(**{**GLORIA, "property": {**GLORIA["property"], "other_properties": True}})
    assert eligibility(case) == {"eligible": False, "reasons": ["OTHER_PROPERTY"], "special_paths": []}
    assert case["outcome"] == "NOT_ELIGIBLE" and case["stage"] == "NOTICE_PENDING"
    assert [(t["element_id"], t["lane"]) for t in case["open_tasks"]] == [("notify_ineligibility", "regional_office")]
    case = mat.notify(case)
    assert case["status"] == "completed" and case["outcome"] == "NOT_ELIGIBLE" and case["stage"] == "NOT_ELIGIBLE"


def test_not_living_there_and_not_finishing_is_not_residing(mat):
    case = mat.filed(property={"resides": False, "aid_enables_completion": False})
    assert eligibility(case)["reasons"] == ["NOT_RESIDING"]


@pytest.mark.parametrize("size, income, eligible", [
    (4, "25000.00", True), (4, "25000.01", False), (1, "15000.00", True), (1, "15000.01", False),
    (6, "31000.00", True), (9, "31000.00", True), (9, "31000.01", False)])
def test_income_exactly_at_the_limit_qualifies_one_cent_more_does_not(mat, size, income, eligible):
    case = mat.filed(household={"size": size, "annual_income": income})
    assert eligibility(case)["eligible"] is eligible
    assert eligibility(case)["reasons"] == ([] if eligible else ["INCOME_ABOVE_LIMIT"])


def test_the_income_limits_are_the_orden_administrativa_in_force_when_the_case_started(mat):
    case = mat.apply(household={"size": 4, "annual_income": "26000.00"})
    mat.param("materials.lowIncomeThresholds", {"1": "15000.00", "4": "27000.00"})
    assert eligibility(mat.documents(case))["reasons"] == ["INCOME_ABOVE_LIMIT"]
    assert eligibility(mat.filed(household={"size": 4, "annual_income": "26000.00"}))["eligible"] is True


def test_without_income_limits_the_case_stops_in_error_naming_the_parameter(mat):
    mat.param("materials.lowIncomeThresholds", None)
    case = mat.filed()
    assert case["status"] == "error" and "materials.lowIncomeThresholds" in case["error"]["message"]


@pytest.mark.parametrize("changes, reason", [
    ({"labor_certified": False}, "LABOR_CERTIFICATION_REQUIRED"),
    ({"applicant": {"is_department_employee": True, "has_dispensa": False}}, "EMPLOYEE_DISPENSA_REQUIRED"),
    ({"property": {"owns_house": False}}, "NOT_OWNER"),
    ({"property": {"owns_house": False, "owns_lot": False}}, "NOT_OWNER"),
])
def test_each_requirement_has_its_reason_code(mat, changes, reason):
    assert eligibility(mat.filed(**changes)) == {"eligible": False, "reasons": [reason], "special_paths": []}


def test_an_employee_with_dispensa_qualifies(mat):
    case = mat.filed(applicant={"is_department_employee": True, "has_dispensa": True})
    assert eligibility(case)["eligible"] is True


def test_an_heir_who_does_not_occupy_the_dwelling_is_not_eligible(mat):
    case = mat.apply(property={"is_heir": True, "owns_lot": False, "owns_house": False, "resides": False,
                               "aid_enables_completion": True})
    case = mat.documents(case, heirs_sworn_authorization=True)
    assert eligibility(case)["reasons"] == ["NOT_RESIDING"]


def test_no_lot_authorisation_goes_to_the_directors_memorandum_and_the_secretarios_discretion(mat, api):
    case = mat.filed(**NO_LOT)
    assert eligibility(case) == {"eligible": None, "reasons": [], "special_paths": ["lot_memorandum"]}
    assert case["outcome"] is None and case["stage"] == "ELIGIBILITY"
    task = api.open_task(case, "director_memorandum")
    assert task["lane"] == "regional_director"
    assert task["due_at"] == "2025-04-01T04:00:00+00:00"  # valid through 2025-03-31
    api.post(f"/api/v1/tasks/{task['id']}/claim", "humacao_director", expect=403)  # another region's director
    refused = mat.complete(case, "director_memorandum", {"efforts_evidence": "  ", "memorandum": "Razones"},
                           "caguas_director", expect=422)
    assert refused["errors"]["rule"] == ["EFFORTS_EVIDENCE_REQUIRED"]
    case = mat.complete(case, "director_memorandum", {"efforts_evidence": "Cartas al dueño sin respuesta",
                                                      "memorandum": "Razones meritorias y apremiantes"},
                        "caguas_director")
    assert [(t["element_id"], t["lane"]) for t in case["open_tasks"]] == [("discretionary_approval",
                                                                          "assistant_secretary")]
    case = mat.complete(case, "discretionary_approval", {"approved": True, "justification": "Familia con menores"},
                        "assistant")
    assert eligibility(case) == {"eligible": True, "reasons": [], "special_paths": []}
    assert [t["element_id"] for t in case["open_tasks"]] == ["field_investigation"]
    confirmed = mat.decisions(case["id"], "assess_materials_eligibility")[-1]
    assert confirmed["element_id"] == "confirm_eligibility"
    assert confirmed["data"]["checks"]["VI_D_memorandum_approved"] is True
    assert confirmed["data"]["inputs"]["approvals"] == {"lot_memorandum": True}


def test_a_declined_memorandum_is_notified_as_not_eligible(mat):
    case = mat.filed(**NO_LOT)
    case = mat.complete(case, "director_memorandum", {"efforts_evidence": "Gestiones", "memorandum": "M"},
                        "caguas_director")
    case = mat.complete(case, "discretionary_approval", {"approved": False, "justification": "Sin fondos"},
                        "assistant")
    assert eligibility(case) == {"eligible": False, "reasons": ["LOT_MEMORANDUM_DECLINED"], "special_paths": []}
    assert case["outcome"] == "NOT_ELIGIBLE" and case["open_tasks"][0]["element_id"] == "notify_ineligibility"


def test_urgent_equipment_needs_medical_evidence_to_be_approved(mat):
    case = mat.documents(mat.apply(**EQUIPMENT), medical_certificate=True)
    assert eligibility(case)["special_paths"] == ["medical_equipment"]
    assert [t["element_id"] for t in case["open_tasks"]] == ["discretionary_approval"]
    refused = mat.complete(case, "discretionary_approval", {"approved": True, "justification": "Salud"},
                           "assistant", expect=422)
    assert refused["errors"]["rule"] == ["MEDICAL_EVIDENCE_REQUIRED"]
    no_reason = mat.complete(case, "discretionary_approval", {"approved": True, "justification": ""},
                             "assistant", expect=422)
    assert "justification" in no_reason["errors"]
    case = mat.complete(case, "discretionary_approval",
                        {"approved": True, "justification": "Salud", "medical_evidence": True}, "assistant")
    assert eligibility(case)["eligible"] is True


def test_urgent_equipment_declined_at_the_secretarios_discretion(mat):
    case = mat.documents(mat.apply(**EQUIPMENT), medical_certificate=True)
    case = mat.complete(case, "discretionary_approval", {"approved": False, "justification": "No urgente"},
                        "assistant")
    assert eligibility(case)["reasons"] == ["EQUIPMENT_DECLINED_DISCRETION"]


def test_mat_s10a_need_evidenced_and_engineer_design_approve_the_wall(mat, api):
    mat.day("2024-06-03")
    case = mat.documents(mat.apply(**WALL), engineer_design=True)
    assert eligibility(case)["special_paths"] == ["retaining_wall"]
    assert api.open_task(case, "evidence_wall_need")["lane"] == "regional_director"
    case = mat.complete(case, "evidence_wall_need", {
        "need_evidenced": True, "engineer_design_attached": True,
        "report": "La erosión amenaza los cimientos; diseño del Ing. Carlos Rosa, lic. 12345"}, "caguas_director")
    assert eligibility(case)["eligible"] is True and case["open_tasks"][0]["element_id"] == "field_investigation"


@pytest.mark.parametrize("data, code", [
    ({"need_evidenced": True, "engineer_design_attached": False}, "RETAINING_WALL_DESIGN_REQUIRED"),
    ({"need_evidenced": False, "engineer_design_attached": True}, "RETAINING_WALL_NEED_NOT_EVIDENCED"),
])
def test_mat_s10bc_a_wall_without_design_or_without_evidence_of_need_is_refused(mat, data, code):
    case = mat.documents(mat.apply(**WALL), engineer_design=True)
    refused = mat.complete(case, "evidence_wall_need", data, "caguas_director", expect=422)
    assert refused["errors"]["rule"] == [code]


def test_mat_s10b_no_design_among_the_documents(mat):
    refused = mat.documents(mat.apply(**WALL), expect=422)
    assert refused["errors"]["rule"] == ["RETAINING_WALL_DESIGN_REQUIRED"]


def test_a_director_who_cannot_evidence_the_need_declines_the_wall(mat):
    case = mat.documents(mat.apply(**WALL), engineer_design=True)
    case = mat.complete(case, "evidence_wall_need", {"declined": True, "report": "Sin riesgo"}, "caguas_director")
    assert eligibility(case)["reasons"] == ["RETAINING_WALL_NEED_NOT_EVIDENCED"]
    assert case["outcome"] == "NOT_ELIGIBLE"


def test_memorandum_and_wall_together_take_both_paths_in_turn(mat):
    case = mat.documents(mat.apply(**{**WALL, **NO_LOT}), engineer_design=True)
    assert eligibility(case)["special_paths"] == ["lot_memorandum", "retaining_wall"]
    for element, data, user in [
            ("director_memorandum", {"efforts_evidence": "Gestiones", "memorandum": "M"}, "caguas_director"),
            ("evidence_wall_need", {"need_evidenced": True, "engineer_design_attached": True}, "caguas_director"),
            ("discretionary_approval", {"approved": True, "justification": "Procede"}, "assistant")]:
        assert [t["element_id"] for t in case["open_tasks"]] == [element]
        case = mat.complete(case, element, data, user)
    assert eligibility(case)["eligible"] is True


def test_irregularities_in_the_field_disqualify_with_a_written_notice(mat):
    case = mat.filed()
    refused = mat.investigate(case, irregularities=True, expect=422)
    assert "irregularity_detail" in refused["errors"]
    case = mat.investigate(case, irregularities=True, irregularity_detail="Reside en otra propiedad propia")
    assert case["outcome"] == "DISQUALIFIED" and case["variables"]["notice_reasons"] == ["FALSE_INFORMATION"]
    assert case["deadlines"] == []
    case = mat.notify(case)
    assert case["status"] == "completed" and case["outcome"] == "DISQUALIFIED"
