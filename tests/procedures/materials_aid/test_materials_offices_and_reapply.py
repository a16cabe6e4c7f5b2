"""The 2-year wait with its priority exemption (MAT-30, AMB-28, AMB-37), the Regional Office that serves
each town (MAT-08, MAT-S25) and scopes what its staff see, and the Oficina Central's priority queue
(MAT-28, MAT-S19) — all through the HTTP API."""
import pytest

from tests.conftest import PASSWORD


def previous_beneficiary(api, last_use_date, applicant_id="REC-0001"):
    api.post("/api/v1/registries/beneficiaries", "admin",
             {"id": applicant_id, "name": "María Rivera", "municipality": "Cidra", "last_use_date": last_use_date},
             expect=201)


def test_a_second_application_23_months_after_using_the_materials_is_rejected(mat, api):
    mat.rewind_clock_to("2024-01-08")
    case = mat.delivered()
    mat.day("2024-02-10")
    case = mat.message(case, "completion_notified", {})
    mat.day("2024-05-08")
    assert mat.follow_up(mat.case(case["id"]))["variables"]["reapply_earliest"] == "2026-02-10"

    mat.day("2026-01-10")  # 23 months after the use
    second = mat.apply()
    assert second["status"] == "completed" and second["outcome"] == "REJECTED_WAIT_PERIOD"
    assert second["variables"]["reapply_earliest"] == "2026-02-10" and second["open_tasks"] == []
    assert "docs_requested_on" not in second["variables"]
    notice = mat.history(second["id"], "notification")[0]["data"]
    assert notice["kind"] == "REJECTED_WAIT_PERIOD" and "2026-02-10" in notice["text"]
    bar = mat.decisions(second["id"], "reapply_bar")[0]
    assert bar["data"]["inputs"]["last_use_date"] == "2024-02-10" and bar["data"]["outcome"] is True

    with_disaster = mat.apply(priority={"kind": "disaster", "event_date": "2025-09-20"})
    assert with_disaster["outcome"] is None and with_disaster["variables"]["priority_exemption"] is True
    assert with_disaster["open_tasks"][0]["element_id"] == "record_documents"


@pytest.mark.parametrize("last_use, barred", [("2022-04-01", False), ("2022-04-02", True), ("2022-05-01", True)])
def test_the_anniversary_itself_is_allowed(mat, api, last_use, barred):
    previous_beneficiary(api, last_use)  # the clock reads 2024-04-01
    case = mat.apply()
    assert case["variables"]["reapply_barred"] is barred
    assert case["outcome"] == ("REJECTED_WAIT_PERIOD" if barred else None)


def test_without_anniversary_allowed_the_wait_ends_the_day_after(mat, api):
    mat.param("materials.reapplyOnAnniversaryAllowed", False)
    previous_beneficiary(api, "2022-04-01")
    case = mat.apply()
    assert case["outcome"] == "REJECTED_WAIT_PERIOD" and case["variables"]["reapply_earliest"] == "2024-04-02"


def test_a_disaster_before_the_last_use_is_no_exemption(mat, api):
    previous_beneficiary(api, "2023-01-15")
    case = mat.apply(priority={"kind": "disaster", "event_date": "2022-09-18"})
    assert case["outcome"] == "REJECTED_WAIT_PERIOD"
    mat.param("materials.priorityExemptionRequiresNewEvent", False)
    assert mat.apply(priority={"kind": "disaster", "event_date": "2022-09-18"})["outcome"] is None


def test_a_structural_risk_found_after_the_last_use_exempts_too(mat, api):
    previous_beneficiary(api, "2023-01-15")
    case = mat.apply(priority={"kind": "structural_risk", "event_date": "2024-03-20"})
    assert case["outcome"] is None and case["variables"]["task_priority"] == 1


def test_a_priority_needs_the_date_of_its_event(mat):
    refused = mat.apply(priority={"kind": "disaster", "event_date": None}, expect=422)
    assert "priority.event_date" in refused["errors"]


def test_mat_s25_a_ponce_resident_filing_at_caguas_is_referred(mat, api):
    refused = mat.apply(applicant={"municipality": "Ponce"}, expect=422)
    assert refused["errors"]["rule"] == ["WRONG_REGIONAL_OFFICE"]
    assert "Oficina Regional de Ponce" in refused["message"]
    assert api.get("/api/v1/instances?process=materials_aid", "boss") == []
    api.post("/api/v1/users", "admin", {"username": "ponce", "password": PASSWORD, "roles": ["regional_office"],
                                         "office": "Ponce"}, expect=201)
    case = mat.apply(user="ponce", applicant={"municipality": "Ponce"})
    assert case["office"] == "Ponce" and case["variables"]["office"] == "Ponce"


def test_an_unknown_town_is_refused_and_spelling_of_accents_does_not_matter(mat):
    assert mat.apply(applicant={"municipality": "Gotham"}, expect=422)["errors"]["rule"] == ["MUNICIPALITY_UNKNOWN"]
    assert mat.apply(user="humacao", applicant={"municipality": "las piedras"})["office"] == "Humacao"


def test_the_regional_offices_and_their_towns_are_served_by_the_api(api, mat):
    offices = {o["id"]: o for o in api.get("/api/v1/registries/regional_offices", "caguas")}
    assert len(offices) == 8 and sum(len(o["municipalities"]) for o in offices.values()) == 78
    assert "Cidra" in offices["Caguas"]["municipalities"] and offices["Caguas"]["name"] == "Oficina Regional de Caguas"


def test_a_caguas_user_cannot_see_or_act_on_a_humacao_case(mat, api):
    ours = mat.apply()  # Cidra → Caguas
    theirs = mat.apply(user="humacao", applicant={"id": "REC-0900", "municipality": "Yabucoa"})
    assert theirs["office"] == "Humacao"
    assert [t["instance_id"] for t in api.get("/api/v1/tasks", "caguas")] == [ours["id"]]
    assert [c["id"] for c in api.get("/api/v1/instances", "caguas")] == [ours["id"]]
    api.get(f"/api/v1/instances/{theirs['id']}", "caguas", expect=403)
    task = api.open_task(theirs, "record_documents")
    api.get(f"/api/v1/tasks/{task['id']}", "caguas", expect=403)
    api.post(f"/api/v1/tasks/{task['id']}/complete", "caguas", {"data": {"photos": True}}, expect=403)
    mat.message(theirs, "querella_filed", {"summary": "x"}, user="caguas", expect=403)
    assert [t["instance_id"] for t in api.get("/api/v1/tasks", "humacao")] == [theirs["id"]]
    assert {c["id"] for c in api.get("/api/v1/instances?process=materials_aid", "boss")} == {ours["id"], theirs["id"]}


def test_mat_s19_priority_cases_come_first_in_the_central_office_queue(mat, api):
    filings = [("C-101", "2024-05-01", {"kind": "none", "event_date": None}),
               ("C-104", "2024-05-03", {"kind": "none", "event_date": None}),
               ("C-102", "2024-05-10", {"kind": "structural_risk", "event_date": "2024-05-09"}),
               ("C-103", "2024-05-12", {"kind": "disaster", "event_date": "2024-05-08"})]
    ids = {}
    for name, day, priority in filings:
        mat.day(day)
        case = mat.at_central_review(applicant={"id": name, "name": name}, priority=priority)
        ids[case["id"]] = name
    queue = api.get("/api/v1/tasks?element_id=central_review", "central")
    assert [ids[t["instance_id"]] for t in queue] == ["C-102", "C-103", "C-101", "C-104"]
    assert [t["priority"] for t in queue] == [1, 1, 0, 0]
    assert [mat.case(i)["variables"]["task_priority"] for i in ids] == [0, 0, 1, 1]


def test_the_beneficiary_registry_is_admin_editable_and_searchable(mat, api):
    previous_beneficiary(api, "2023-06-30")
    api.post("/api/v1/registries/beneficiaries", "caguas", {"id": "REC-9", "name": "X"}, expect=403)
    api.post("/api/v1/registries/beneficiaries", "admin", {"id": "REC-0001", "name": "Otra"}, expect=409)
    fixed = api.call("PATCH", "/api/v1/registries/beneficiaries/REC-0001", "admin", 200,
                     json={"last_use_date": "2023-07-01"}).get_json()
    assert fixed["last_use_date"] == "2023-07-01"
    assert [b["id"] for b in api.get("/api/v1/registries/beneficiaries?q=mar%C3%ADa", "central")] == ["REC-0001"]
    assert api.get("/api/v1/registries/beneficiaries?q=nadie", "central") == []
    api.get("/api/v1/registries/beneficiaries/REC-4040", "central", expect=404)
    paths = api.get("/api/v1/openapi.json", "admin")["paths"]
    assert {"/api/v1/registries/beneficiaries", "/api/v1/registries/stores/{store_id}"} <= set(paths)
