"""MAT-S01 of EXAMPLES.md from the application to the follow-up visit, with every date, and what the
case, its deadlines, its history and the beneficiary registry say at each step."""
from tests.procedures.materials_aid.conftest import MATERIALS


def test_mat_s01_happy_path_with_all_dates(mat, api):
    mat.rewind_clock_to("2024-01-08")
    case = mat.apply()  # [Oficina Regional] requests documents 2024-01-08
    assert case["case_number"].startswith("MAT-2024-") and case["office"] == "Caguas"
    v = case["variables"]
    assert (v["docs_requested_on"], v["docs_deadline"]) == ("2024-01-08", "2024-02-07")
    assert v["stage"] == "DOCUMENTS_REQUESTED" and case["outcome"] is None
    assert case["deadlines"] == [{"name": "Vencen los 30 días", "element_id": "docs_deadline_passed",
                                  "due_at": "2024-02-08T04:00:00+00:00"}]
    assert [(t["element_id"], t["lane"]) for t in case["open_tasks"]] == [("record_documents", "regional_office")]

    mat.day("2024-01-22")
    case = mat.documents(case)  # María completes the documents
    v = case["variables"]
    assert (v["filing_date"], v["application_valid_through"]) == ("2024-01-22", "2025-01-21")
    assert v["eligibility"] == {"eligible": True, "reasons": [], "special_paths": []}
    assert [t["element_id"] for t in case["open_tasks"]] == ["field_investigation"]
    assert case["deadlines"][0]["due_at"] == "2025-01-22T04:00:00+00:00"  # validity: the day after valid-through

    mat.day("2024-02-05")
    case = mat.investigate(case)
    mat.day("2024-02-20")
    case = mat.quotes(case)  # adjusted 4,800.00 → 4,200.00; Borinquen 4,150.00 is the lowest
    v = case["variables"]
    assert v["selected_store"] == {"store_id": "RL-1001", "store_name": "Ferretería Borinquen"}
    assert v["selected_total"] == "4150.00" and v["stage"] == "CENTRAL_REVIEW"
    assert [(t["element_id"], t["lane"]) for t in case["open_tasks"]] == [("central_review", "central_office")]

    mat.day("2024-03-14")
    case = mat.central_review(case)
    mat.day("2024-03-15")
    case = mat.purchase_order(case)
    v = case["variables"]
    assert (v["po_amount"], v["po_issued_on"]) == ("4150.00", "2024-03-15")
    assert case["deadlines"] == []  # the purchase order stops the 1-year validity (AMB-29)

    mat.day("2024-03-25")
    case = mat.sign(mat.verify(case))
    mat.day("2024-03-28")
    case = mat.deliver(case)
    v = case["variables"]
    assert (v["delivered_on"], v["use_deadline"]) == ("2024-03-28", "2024-07-26")
    assert case["stage"] == "MATERIALS_IN_USE" and case["open_tasks"] == []
    assert case["deadlines"] == [{"name": "Vence el plazo de uso", "element_id": "use_deadline_passed",
                                  "due_at": "2024-07-27T04:00:00+00:00"}]

    mat.day("2024-07-10")
    case = mat.message(case, "completion_notified", {})
    assert case["variables"]["completion_date"] == "2024-07-10"
    assert case["open_tasks"] == [] and case["deadlines"][0]["element_id"] == "use_deadline_passed"

    mat.day("2024-07-30")
    case = mat.case(case["id"])
    assert case["variables"]["visit_not_before"] == "2024-07-27"
    assert [t["element_id"] for t in case["open_tasks"]] == ["follow_up_visit"]
    case = mat.follow_up(case)

    assert case["status"] == "completed" and case["outcome"] == "COMPLETED"
    v = case["variables"]
    assert (v["last_use_date"], v["reapply_earliest"]) == ("2024-07-10", "2026-07-10")
    assert "collection_amount" not in v
    entry = api.get("/api/v1/registries/beneficiaries/REC-0001", "caguas")
    assert entry == {**entry, "name": "María Rivera", "last_use_date": "2024-07-10", "last_outcome": "COMPLETED",
                     "case_ids": [case["id"]]}
    assert api.get("/api/v1/registries/beneficiaries?q=rivera", "caguas")[0]["id"] == "REC-0001"


def test_mat_s01_every_decision_is_in_the_history_with_its_rule_ids(mat):
    case = mat.delivered()
    for rule, expected in [("reapply_bar", {"MAT-30", "AMB-28", "AMB-37"}), ("priority_rank", {"MAT-28"}),
                           ("documents_deadline", {"MAT-11", "TC-1"}), ("application_validity", {"MAT-37", "AMB-29"}),
                           ("assess_materials_eligibility", {"MAT-02", "MAT-06", "AMB-23"}),
                           ("select_quote", {"MAT-15", "AMB-26"}), ("aid_within_maximum", {"MAT-21"}),
                           ("use_period_deadline", {"MAT-36", "AMB-27"})]:
        found = mat.decisions(case["id"], rule)
        assert len(found) == 1 and expected <= set(found[0]["rule_ids"]), rule
    assessed = mat.decisions(case["id"], "assess_materials_eligibility")[0]["data"]
    assert assessed["inputs"]["income_limit"] == "25000.00" and assessed["inputs"]["household"]["size"] == 4
    assert assessed["checks"]["E_low_income"] is True and assessed["outcome"] is True
    selected = mat.decisions(case["id"], "select_quote")[0]["data"]
    assert selected["selected_total"] == "4150.00" and len(selected["inputs"]["quotes"]) == 3


def test_each_task_sits_in_the_lane_of_the_contract_and_other_roles_may_not_act(mat, api):
    case = mat.filed()
    task = api.open_task(case, "field_investigation")
    refused = api.post(f"/api/v1/tasks/{task['id']}/complete", "central", {"data": {}}, expect=403)
    assert "regional_office" in refused["message"]
    case = mat.quotes(mat.investigate(case))
    task = api.open_task(case, "central_review")
    api.post(f"/api/v1/tasks/{task['id']}/complete", "caguas", {"data": {"approved": True}}, expect=403)
    case = mat.central_review(case)
    assert [(t["element_id"], t["lane"]) for t in case["open_tasks"]] == [("issue_purchase_order", "administration")]
    process = api.get(f"/api/v1/processes/{MATERIALS}/versions/1", "owner")
    assert process["starter_lane"] == "regional_office"
    assert set(process["lanes"]) == {"regional_office", "regional_director", "central_office",
                                     "assistant_secretary", "administration"}


def test_a_signature_is_required_before_delivery(mat):
    case = mat.verify(mat.purchase_order(mat.central_review(mat.at_central_review())))
    refused = mat.sign(case, signed=False, expect=422)
    assert refused["errors"]["rule"] == ["DUTIES_SIGNATURE_REQUIRED"]
    assert [t["element_id"] for t in mat.case(case["id"])["open_tasks"]] == ["sign_duties"]
