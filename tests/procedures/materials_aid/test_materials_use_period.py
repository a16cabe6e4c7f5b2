"""The 120 days of use (MAT-36), extensions decided by the Director Regional that move the running
timer (MAT-S13), the completion notice (MAT-34), the follow-up visit and collection for misuse
(MAT-19, MAT-20, AMB-36), and querellas at any time (MAT-39)."""

USE_TIMER = "use_deadline_passed"


def use_deadline_timer(case):
    return [d for d in case["deadlines"] if d["element_id"] == USE_TIMER]


def request_extension(mat, case, expect=200, **payload):
    body = {"written": True, "reason": "Enfermedad, con nota médica", "days_requested": 45, **payload}
    return mat.message(case, "extension_requested", body, expect=expect)


def test_mat_s13_an_extension_granted_by_the_director_moves_the_running_deadline(mat, api):
    case = mat.delivered()  # delivered 2024-04-01
    assert case["variables"]["use_deadline"] == "2024-07-30"
    assert use_deadline_timer(case) == [{"name": "Vence el plazo de uso", "element_id": USE_TIMER,
                                         "due_at": "2024-07-31T04:00:00+00:00"}]
    mat.day("2024-07-15")
    case = request_extension(mat, case)
    assert case["stage"] == "EXTENSION_REQUESTED"
    assert [(t["element_id"], t["lane"]) for t in case["open_tasks"]] == [("decide_extension", "regional_director")]
    assert use_deadline_timer(case)[0]["due_at"] == "2024-07-31T04:00:00+00:00"  # still running meanwhile

    mat.day("2024-07-22")
    case = mat.decide_extension(case, days=45)
    assert case["variables"]["use_deadline"] == "2024-09-13" and case["stage"] == "MATERIALS_IN_USE"
    assert use_deadline_timer(mat.case(case["id"])) == [{
        "name": "Vence el plazo de uso", "element_id": USE_TIMER, "due_at": "2024-09-14T04:00:00+00:00",
        "explanation": "Último día para actuar: viernes 13 de septiembre de 2024. Se cuentan 45 días naturales "
                       "desde el martes 30 de julio de 2024: ese día no cuenta y el último sí (TC-1)."}]
    moved = mat.history(case["id"], "deadline_moved")
    assert [(e["element_id"], e["data"]["to"]) for e in moved] == [(USE_TIMER, "2024-09-14T00:00:00-04:00")]
    assert case["variables"]["extensions"] == [{
        "requested_on": "2024-07-15", "days_requested": 45, "request_reason": "Enfermedad, con nota médica",
        "granted": True, "days_granted": 45, "decision_reason": "Causa justa: enfermedad", "decided_on": "2024-07-22",
        "use_deadline": "2024-09-13"}]

    mat.day("2024-07-31")  # the original deadline passes: nothing fires
    case = mat.case(case["id"])
    assert case["open_tasks"] == [] and "visit_not_before" not in case["variables"]
    mat.day("2024-09-10")
    case = mat.message(case, "completion_notified", {})
    mat.day("2024-09-16")
    case = mat.case(case["id"])
    assert case["variables"]["visit_not_before"] == "2024-09-14"
    case = mat.follow_up(case)
    assert case["outcome"] == "COMPLETED" and case["variables"]["reapply_earliest"] == "2026-09-10"
    assert case["variables"]["last_use_date"] == "2024-09-10"


def test_mat_s13_a_regional_office_technician_may_not_grant_the_extension(mat, api):
    case = request_extension(mat, mat.delivered())
    task = api.open_task(case, "decide_extension")
    refused = api.post(f"/api/v1/tasks/{task['id']}/complete", "caguas",
                       {"data": {"granted": True, "days_granted": 45, "reason": "Técnico"}}, expect=403)
    assert refused["errors"]["rule"] == ["EXTENSION_AUTHORITY_INVALID"]
    case = mat.case(case["id"])
    assert case["variables"]["use_deadline"] == "2024-07-30"
    assert use_deadline_timer(case)[0]["due_at"] == "2024-07-31T04:00:00+00:00"
    # Nor may the Director of another region.
    api.post(f"/api/v1/tasks/{task['id']}/complete", "humacao_director",
             {"data": {"granted": True, "days_granted": 45, "reason": "Otra región"}}, expect=403)


def test_mat_s13_a_request_by_telephone_is_not_written(mat):
    case = mat.delivered()
    refused = request_extension(mat, case, written=False, expect=422)
    assert refused["errors"]["rule"] == ["EXTENSION_NOT_WRITTEN"]
    assert mat.case(case["id"])["open_tasks"] == []


def test_mat_s13_a_written_request_after_the_deadline_is_late_and_the_visit_follows(mat):
    case = mat.delivered()
    mat.day("2024-08-02")
    refused = request_extension(mat, case, expect=409)
    assert refused["errors"]["rule"] == ["EXTENSION_REQUEST_LATE"]
    case = mat.case(case["id"])
    assert case["variables"]["use_deadline"] == "2024-07-30" and case["variables"]["visit_not_before"] == "2024-07-31"
    assert [t["element_id"] for t in case["open_tasks"]] == ["follow_up_visit"]
    kept = mat.history(case["id"], "message_refused")
    assert kept[0]["data"]["code"] == "EXTENSION_REQUEST_LATE" and kept[0]["rule_ids"] == ["MAT-36", "AMB-27"]


def test_a_request_on_the_last_day_is_timely(mat):
    case = mat.delivered()
    mat.day("2024-07-30", hour=23)
    case = request_extension(mat, case)
    assert case["open_tasks"][0]["element_id"] == "decide_extension"


def test_a_denied_extension_leaves_the_deadline_where_it_was(mat):
    case = mat.decide_extension(request_extension(mat, mat.delivered()), granted=False, days=0)
    assert case["variables"]["use_deadline"] == "2024-07-30"
    assert use_deadline_timer(case)[0]["due_at"] == "2024-07-31T04:00:00+00:00"
    assert case["variables"]["extensions"][0]["granted"] is False


def test_extensions_have_no_cap_and_each_runs_from_the_deadline_it_extends(mat):
    case = mat.decide_extension(request_extension(mat, mat.delivered()), days=30)
    assert case["variables"]["use_deadline"] == "2024-08-29"
    mat.day("2024-08-20")
    case = mat.decide_extension(request_extension(mat, case), days=17)  # 2024-09-15 is a Sunday
    assert case["variables"]["use_deadline"] == "2024-09-16"
    assert use_deadline_timer(case)[0]["due_at"] == "2024-09-17T04:00:00+00:00"


def test_a_request_still_undecided_when_the_deadline_passes_lapses(mat):
    case = request_extension(mat, mat.delivered())
    mat.day("2024-08-01")
    case = mat.case(case["id"])
    assert [t["element_id"] for t in case["open_tasks"]] == ["follow_up_visit"]
    assert case["variables"]["use_deadline"] == "2024-07-30"


def test_the_completion_is_notified_once(mat):
    case = mat.delivered()
    mat.day("2024-06-10")
    case = mat.message(case, "completion_notified", {})
    mat.day("2024-06-11")
    refused = mat.message(case, "completion_notified", {}, expect=409)
    assert refused["errors"]["rule"] == ["COMPLETION_ALREADY_NOTIFIED"]
    assert mat.case(case["id"])["variables"]["completion_date"] == "2024-06-10"


def test_without_a_completion_notice_the_visit_date_starts_the_two_year_wait(mat):
    case = mat.delivered()
    mat.day("2024-08-05")
    case = mat.follow_up(mat.case(case["id"]))
    assert case["outcome"] == "COMPLETED" and case["variables"]["completion_date"] is None
    assert (case["variables"]["last_use_date"], case["variables"]["reapply_earliest"]) == ("2024-08-05", "2026-08-05")


def test_misuse_is_collected_at_the_value_of_the_misused_materials(mat, api):
    case = mat.delivered()  # purchase order 4,150.00
    mat.day("2024-08-05")
    refused = mat.follow_up(mat.case(case["id"]), used_properly=False, expect=422)
    assert "misused_value" in refused["errors"]
    case = mat.follow_up(case, used_properly=False, misused_value="1200.00")
    assert case["status"] == "completed" and case["outcome"] == "NON_COMPLIANCE_COLLECTION"
    assert case["variables"]["collection_amount"] == "1200.00"
    result = mat.decisions(case["id"], "follow_up_result")[0]
    assert {"MAT-20", "MAT-34", "AMB-36"} <= set(result["rule_ids"])
    entry = api.get("/api/v1/registries/beneficiaries/REC-0001", "caguas")
    assert (entry["last_use_date"], entry["last_outcome"]) == ("2024-08-05", "NON_COMPLIANCE_COLLECTION")


def test_the_collection_never_exceeds_what_was_delivered(mat):
    case = mat.delivered()
    mat.day("2024-08-05")
    case = mat.follow_up(mat.case(case["id"]), work_done=False, used_properly=False, misused_value="9000.00")
    assert case["variables"]["collection_amount"] == "4150.00"


def test_with_all_delivered_as_basis_the_whole_purchase_order_is_collected(mat):
    mat.param("materials.collectionBasis", "ALL_DELIVERED")
    case = mat.delivered()
    mat.day("2024-08-05")
    case = mat.follow_up(mat.case(case["id"]), used_properly=False, misused_value="100.00")
    assert case["variables"]["collection_amount"] == "4150.00"


def test_a_querella_is_recorded_at_any_time_and_the_case_goes_on(mat):
    case = mat.apply()
    mat.day("2024-04-03")
    case = mat.message(case, "querella_filed", {"summary": "Trato recibido en la oficina"})
    assert case["variables"]["querella_filed_on"] == "2024-04-03"
    assert case["variables"]["stage"] == "DOCUMENTS_REQUESTED"
    assert case["open_tasks"][0]["element_id"] == "record_documents"
    case = mat.quotes(mat.investigate(mat.documents(case)))
    mat.day("2024-04-20")
    case = mat.message(case, "querella_filed", {"summary": "Demora"})
    assert case["variables"]["querellas"] == [{"filed_on": "2024-04-03", "summary": "Trato recibido en la oficina"},
                                              {"filed_on": "2024-04-20", "summary": "Demora"}]
    assert case["variables"]["selected_total"] == "4150.00" and case["stage"] == "CENTRAL_REVIEW"
    mat.message(case, "querella_filed", {"summary": ""}, expect=422)
    mat.message(case, "querella_filed", {"summary": "Central"}, user="central", expect=403)


def test_a_querella_after_the_case_ended_is_not_expected(mat):
    case = mat.notify(mat.filed(property={"other_properties": True}))
    assert case["status"] == "completed"
    refused = mat.message(case, "querella_filed", {"summary": "Tarde"}, expect=409)
    assert refused["errors"]["rule"] == ["MESSAGE_NOT_EXPECTED"]


def test_no_completion_notice_before_the_materials_are_delivered(mat):
    refused = mat.message(mat.filed(), "completion_notified", {}, expect=409)
    assert refused["errors"]["rule"] == ["MESSAGE_NOT_EXPECTED"]
