"""The farmer registry itself (FAR-11, FAR-14): admin import and correction, the list API, the
ACTIVE producers a surplus notice reaches, and the demo seed."""
from sqlalchemy import select

from api import demo
from engine.persistence.models import AuditEvent, ProcessInstance
from engine.registries.farmers import active_producers

F17 = {"id": "F-17", "name": "Pedro Santiago Rivera", "producer_type": "agricultor",
       "address": "Bo. Rincón, Cidra", "municipality": "Cidra", "registered_on": "2023-05-10",
       "renewal_due": "2025-05-10"}
FIXTURES = [("F-17", "agricultor"), ("F-21", "pescador"), ("F-22", "artesano"), ("F-23", "agricultor"),
            ("F-31", "agricultor"), ("F-32", "agricultor")]


def imported(far, registry_id, producer_type="agricultor", **extra):
    body = {"id": registry_id, "name": f"Productor {registry_id}", "producer_type": producer_type,
            "registered_on": "2023-06-01", "renewal_due": "2025-06-01", **extra}
    return far.api.post("/api/v1/registries/farmers", "admin", body, expect=201)


def registry_audit(far):
    return far.engine.read(lambda s: [(e.type, e.actor, e.data) for e in s.scalars(
        select(AuditEvent).where(AuditEvent.type.like("registry_entry_%")).order_by(AuditEvent.id))])


def test_an_admin_imports_f17_with_its_paper_id_and_corrects_it(far):
    api = far.api
    created = api.post("/api/v1/registries/farmers", "admin", F17, expect=201)
    assert created == {**F17, "status": "ACTIVE", "case_ids": [], "updated_at": created["updated_at"]}
    assert far.entry("F-17") == created
    taken = api.post("/api/v1/registries/farmers", "admin", F17, expect=409)
    assert taken["errors"]["rule"] == ["REGISTRY_ID_TAKEN"]

    far.day("2024-04-05")
    patched = api.call("PATCH", "/api/v1/registries/farmers/F-17", "admin", 200,
                       json={"status": "RENEWAL_OVERDUE", "address": "Carr. 787, Cidra"}).get_json()
    assert (patched["status"], patched["address"]) == ("RENEWAL_OVERDUE", "Carr. 787, Cidra")
    assert patched["updated_at"] == "2024-04-05T17:00:00+00:00"
    audit = registry_audit(far)
    assert [(t, a) for t, a, _ in audit] == [("registry_entry_created", "admin"), ("registry_entry_changed", "admin")]
    assert audit[1][2]["changes"]["status"] == {"from": "ACTIVE", "to": "RENEWAL_OVERDUE"}


def test_only_admins_change_the_registry_and_bad_entries_are_refused(far):
    api = far.api
    api.post("/api/v1/registries/farmers", "far_clerk", F17, expect=403)
    api.post("/api/v1/registries/farmers", "boss", F17, expect=403)
    imported(far, "F-17")
    api.call("PATCH", "/api/v1/registries/farmers/F-17", "far_commissioner", 403, json={"status": "REMOVED"})
    for bad, field in (({"id": "17"}, "id"), ({"producer_type": "ganadero"}, "producer_type"),
                       ({"status": "SUSPENDED"}, "status"), ({"registered_on": "ayer"}, "registered_on")):
        refused = api.post("/api/v1/registries/farmers", "admin", {**F17, "id": "F-99", **bad}, expect=422)
        assert field in refused["errors"], refused
    api.call("PATCH", "/api/v1/registries/farmers/F-17", "admin", 422, json={"status": "SUSPENDED"})
    ignored = api.call("PATCH", "/api/v1/registries/farmers/F-17", "admin", 200, json={"case_ids": [1]})
    assert ignored.get_json()["case_ids"] == []  # the engine keeps the case list, not the admin
    api.call("PATCH", "/api/v1/registries/farmers/F-404", "admin", 404, json={"status": "REMOVED"})
    api.get("/api/v1/registries/farmers/F-404", "far_clerk", expect=404)
    api.get("/api/v1/registries/farmers", None, expect=401)


def test_the_list_is_filtered_paginated_and_in_registry_order(far):
    for registry_id, producer_type in FIXTURES:
        imported(far, registry_id, producer_type)
    far.api.call("PATCH", "/api/v1/registries/farmers/F-23", "admin", 200, json={"status": "REMOVED"})
    page = far.api.call("GET", "/api/v1/registries/farmers?status=ACTIVE&producer_type=agricultor&per_page=2",
                        "far_clerk", 200)
    assert [e["id"] for e in page.get_json()] == ["F-17", "F-31"]
    assert page.headers["X-Total-Count"] == "3" and 'rel="next"' in page.headers["Link"]
    everyone = far.api.get("/api/v1/registries/farmers", "far_evaluator")
    assert [e["id"] for e in everyone] == ["F-17", "F-21", "F-22", "F-23", "F-31", "F-32"]
    far.api.get("/api/v1/registries/farmers?status=DORMANT", "far_clerk", expect=422)


def test_an_admission_after_the_import_takes_the_next_free_id(far):
    for registry_id, producer_type in FIXTURES:
        imported(far, registry_id, producer_type)
    case = far.admitted()
    assert case["variables"]["registry_id"] == "F-33"
    assert far.admitted(name="José Colón")["variables"]["registry_id"] == "F-34"


def test_surplus_notices_reach_only_active_producers_of_the_type(far):
    for registry_id, producer_type in FIXTURES:
        imported(far, registry_id, producer_type)
    far.api.call("PATCH", "/api/v1/registries/farmers/F-31", "admin", 200, json={"status": "RENEWAL_OVERDUE"})
    far.api.call("PATCH", "/api/v1/registries/farmers/F-32", "admin", 200, json={"status": "REMOVED"})
    farmers_only = far.engine.read(active_producers, "agricultor")
    assert [p["id"] for p in farmers_only] == ["F-17", "F-23"]
    assert farmers_only[0] == {"id": "F-17", "name": "Productor F-17", "producer_type": "agricultor",
                               "address": None, "municipality": None}
    assert [p["id"] for p in far.engine.read(active_producers, ["pescador", "artesano"])] == ["F-21", "F-22"]
    assert len(far.engine.read(active_producers)) == 4


def test_an_imported_producer_may_have_its_renewals_followed(far):
    entry = imported(far, "F-17", start_membership=True, renewal_due="2024-06-01")
    assert len(entry["case_ids"]) == 1
    membership = far.case(entry["case_ids"][0])
    assert membership["process_key"] == "farmer_registry_membership" and membership["started_by"] == "system"
    assert membership["deadlines"][0]["due_at"] == "2024-06-02T04:00:00+00:00"
    far.day("2024-06-02")
    assert far.entry("F-17")["status"] == "RENEWAL_OVERDUE"
    case = far.renew(membership["id"])
    assert case["variables"]["renewal_due"] == "2026-06-01"  # the cycle of its own registration day
    refused = far.api.post("/api/v1/registries/farmers", "admin",
                           {**F17, "id": "F-18", "renewal_due": None, "start_membership": True}, expect=422)
    assert "start_membership" in refused["errors"]


def test_a_membership_case_is_started_by_the_engine_or_the_commissioner_not_a_clerk(far):
    imported(far, "F-17")
    variables = {"registry_id": "F-17", "renewal_due": "2025-06-01", "registered_on": "2023-06-01"}
    far.api.post("/api/v1/processes/farmer_registry_membership/instances", "far_clerk",
                 {"variables": variables}, expect=403)
    started = far.api.post("/api/v1/processes/farmer_registry_membership/instances", "far_commissioner",
                           {"variables": variables}, expect=201)
    assert started["variables"]["registry_status"] == "ACTIVE"


def test_the_openapi_document_describes_the_registry(far):
    spec = far.api.get("/api/v1/openapi.json", None)
    paths = spec["paths"]
    assert {"get", "post"} <= set(paths["/api/v1/registries/farmers"])
    assert {"get", "patch"} <= set(paths["/api/v1/registries/farmers/{registry_id}"])


def test_the_demo_seeds_the_fixtures_and_a_case_in_each_stage_once(far, monkeypatch):
    monkeypatch.setenv("TRAMITE_DEMO_LANG", "en")
    lines: list[str] = []
    demo.seed(far.engine, emit=lines.append)
    assert any("6 producer(s) added" in line for line in lines)
    for registry_id, _ in FIXTURES:
        assert far.entry(registry_id)["status"] == "ACTIVE"

    def stages(session):
        rows = session.scalars(select(ProcessInstance).where(ProcessInstance.process_key == "farmer_registry_admission")
                               .order_by(ProcessInstance.id)).all()
        return [(r.stage, r.outcome) for r in rows]
    assert far.engine.read(stages) == [("EVALUATION", None), ("PENDING_ADDITIONAL_DOCUMENTS", None),
                                       ("DENIED", None), ("UNDER_REVIEW", None), ("ADMITTED", "ADMITTED")]
    assert far.entry("F-33")["name"] == "José Colón"

    again: list[str] = []
    demo.seed(far.engine, emit=again.append)
    assert any("0 producer(s) added" in line for line in again)
    assert len(far.engine.read(stages)) == 5


def test_an_import_without_dates_is_registered_today_and_due_in_two_years(far):
    created = far.api.post("/api/v1/registries/farmers", "admin",
                           {"id": "F-21", "name": "Marisol Vélez", "producer_type": "pescador"}, expect=201)
    assert (created["registered_on"], created["renewal_due"], created["status"]) == \
        ("2024-04-01", "2026-04-01", "ACTIVE")
    unknown = far.api.post("/api/v1/registries/farmers", "admin",
                           {"name": "Sin fecha", "producer_type": "artesano", "renewal_due": None}, expect=201)
    assert (unknown["id"], unknown["renewal_due"]) == ("F-22", None)
