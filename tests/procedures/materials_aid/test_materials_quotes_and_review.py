"""Quotes against the Registro de Licitadores (MAT-15, MAT-22), the maximum aid (MAT-21), the
Oficina Central's decision, the 1-year validity up to the purchase order (MAT-37, MAT-S16) and a
situation that no longer prevails (MAT-18)."""
from sqlalchemy import select

from engine.persistence.models import AuditEvent
from tests.procedures.materials_aid.conftest import ITEMS, MAT_S01_QUOTES

LA_ESQUINA = {"store_id": "LOCAL-0001", "store_name": "Ferretería La Esquina", "total": "3990.00"}


def quoting(mat, **changes):
    return mat.investigate(mat.filed(**changes))


def test_a_quote_from_a_store_not_in_the_registro_de_licitadores_is_refused(mat):
    case = quoting(mat)
    refused = mat.quotes(case, quotes=[*MAT_S01_QUOTES[:2], LA_ESQUINA], expect=422)
    assert refused["errors"]["rule"] == ["QUOTE_STORE_NOT_REGISTERED", "QUOTES_NOT_THREE_DISTINCT"]
    assert "La Esquina" in refused["message"]
    unknown = {"store_id": None, "store_name": "Ferretería Desconocida", "total": "3000.00"}
    refused = mat.quotes(case, quotes=[*MAT_S01_QUOTES, unknown], expect=422)
    assert refused["errors"]["rule"] == ["QUOTE_STORE_NOT_REGISTERED"]
    assert mat.case(case["id"])["open_tasks"][0]["element_id"] == "prepare_quotes"


def test_only_two_stores_or_the_same_store_twice_are_not_three_distinct(mat):
    case = quoting(mat)
    assert mat.quotes(case, quotes=MAT_S01_QUOTES[:2], expect=422)["errors"]["rule"] == ["QUOTES_NOT_THREE_DISTINCT"]
    twice = [*MAT_S01_QUOTES[:2], {**MAT_S01_QUOTES[0], "total": "4000.00"}]
    assert mat.quotes(case, quotes=twice, expect=422)["errors"]["rule"] == ["QUOTES_NOT_THREE_DISTINCT"]


def test_items_outside_the_indispensable_areas_are_refused(mat):
    case = quoting(mat)
    items = [*ITEMS, {"description": "Gazebo del patio", "amount": "900.00", "indispensable": False}]
    refused = mat.quotes(case, items=items, expect=422)
    assert refused["errors"]["rule"] == ["ITEM_NOT_INDISPENSABLE"] and "Gazebo" in refused["message"]


def test_the_lowest_registered_total_wins_and_a_store_may_be_named_without_its_number(mat):
    case = quoting(mat)
    quotes = [*MAT_S01_QUOTES, {"store_id": None, "store_name": "ferreteria central", "total": "4099.99"}]
    case = mat.quotes(case, quotes=quotes)
    assert case["variables"]["selected_store"] == {"store_id": "RL-1004", "store_name": "Ferretería Central"}
    assert case["variables"]["selected_total"] == "4099.99"


def test_the_registered_stores_are_registry_data_an_admin_edits(mat, api, engine):
    stores = api.get("/api/v1/registries/stores?registered=true", "caguas")
    assert [s["id"] for s in stores] == ["RL-1001", "RL-1002", "RL-1003", "RL-1004"]
    assert api.get("/api/v1/registries/stores/LOCAL-0001", "caguas")["registered"] is False
    api.call("PATCH", "/api/v1/registries/stores/RL-1002", "caguas", 403, json={"registered": False})
    api.call("PATCH", "/api/v1/registries/stores/RL-1002", "admin", 200, json={"registered": False})
    api.post("/api/v1/registries/stores", "admin", {"id": "RL-1005", "name": "Ferretería del Valle"}, expect=201)
    api.post("/api/v1/registries/stores", "admin", {"id": "RL-1005", "name": "Otra"}, expect=409)

    case = quoting(mat)
    assert [s["id"] for s in case["variables"]["registered_stores"]] == ["RL-1001", "RL-1003", "RL-1004", "RL-1005"]
    refused = mat.quotes(case, expect=422)  # El Coquí (RL-1002) left the Registro
    assert refused["errors"]["rule"][0] == "QUOTE_STORE_NOT_REGISTERED"
    valle = {"store_id": "RL-1005", "store_name": "Ferretería del Valle", "total": "4500.00"}
    case = mat.quotes(case, quotes=[MAT_S01_QUOTES[0], MAT_S01_QUOTES[2], valle])
    assert case["variables"]["selected_store"]["store_id"] == "RL-1001"
    changes = engine.read(lambda s: s.scalars(select(AuditEvent).where(
        AuditEvent.type == "registry_entry_changed")).all())
    assert [(e.actor, e.data["id"], e.data["changes"]["registered"]) for e in changes] == \
        [("admin", "RL-1002", {"from": True, "to": False})]


def test_the_central_office_may_not_approve_more_than_the_maximum_aid(mat):
    over = [{**q, "total": t} for q, t in zip(MAT_S01_QUOTES, ("5000.01", "5100.00", "5200.00"))]
    case = mat.quotes(quoting(mat), quotes=over)
    assert case["variables"]["max_aid_amount"] == "5000.00"
    refused = mat.central_review(case, expect=422)
    assert refused["errors"]["rule"] == ["MAX_AID_EXCEEDED"]
    case = mat.central_review(case, approved=False)
    assert case["outcome"] == "REJECTED_BY_CENTRAL_OFFICE"
    assert case["variables"]["notice_reasons"] == ["REJECTED_BY_CENTRAL_OFFICE"]
    case = mat.notify(case)
    assert case["status"] == "completed" and case["outcome"] == "REJECTED_BY_CENTRAL_OFFICE"


def test_exactly_the_maximum_aid_is_approved(mat):
    exact = [{**q, "total": t} for q, t in zip(MAT_S01_QUOTES, ("5000.00", "5100.00", "5200.00"))]
    case = mat.central_review(mat.quotes(quoting(mat), quotes=exact))
    assert [(t["element_id"], t["lane"]) for t in case["open_tasks"]] == [("issue_purchase_order", "administration")]


def test_mat_s16a_a_purchase_order_on_the_last_valid_day_keeps_the_application_alive(mat):
    mat.rewind_clock_to("2024-03-04")
    case = mat.central_review(mat.at_central_review())
    assert case["variables"]["application_valid_through"] == "2025-03-03"
    mat.day("2025-03-03", hour=17)
    case = mat.purchase_order(case)
    assert case["variables"]["po_issued_on"] == "2025-03-03" and case["deadlines"] == []
    mat.day("2025-03-05")
    case = mat.case(case["id"])
    assert case["outcome"] is None and case["open_tasks"][0]["element_id"] == "verify_situation"


def test_mat_s16b_no_purchase_order_by_the_end_of_the_year_expires_the_application(mat, api):
    mat.rewind_clock_to("2024-03-04")
    case = mat.central_review(mat.at_central_review())
    assert case["open_tasks"][0]["due_at"] == "2025-03-04T04:00:00+00:00"
    mat.day("2025-03-03", hour=23)
    assert mat.case(case["id"])["outcome"] is None
    mat.day("2025-03-04", hour=8)
    case = mat.case(case["id"])
    assert case["status"] == "completed" and case["outcome"] == "EXPIRED" and case["open_tasks"] == []
    assert [e["element_id"] for e in mat.history(case["id"], "timer_fired")] == ["validity_ended_issue_purchase_order"]
    # The closure's notice (MAT-12) beside the outbox record of its generated letter (letter.closure).
    kinds = [e["data"]["kind"] for e in mat.history(case["id"], "notification") if "kind" in e["data"]]
    assert kinds == ["EXPIRED"]
    # She was never a beneficiary: no 2-year wait for the new application.
    api.get("/api/v1/registries/beneficiaries/REC-0001", "caguas", expect=404)
    assert mat.apply()["variables"]["reapply_barred"] is False


def test_the_validity_runs_through_every_step_before_the_purchase_order(mat):
    case = mat.filed(property={"owns_lot": False, "lot_owner_authorization": "none"})
    assert case["open_tasks"][0]["element_id"] == "director_memorandum"
    mat.day("2025-04-01")
    case = mat.case(case["id"])
    assert case["outcome"] == "EXPIRED" and case["status"] == "completed"


def test_a_situation_that_no_longer_prevails_cancels_the_purchase_order(mat):
    case = mat.purchase_order(mat.central_review(mat.at_central_review()))
    case = mat.verify(case, prevails=False)
    assert case["status"] == "completed" and case["outcome"] == "SITUATION_CHANGED"
    assert case["variables"]["purchase_order_cancelled"] is True
