"""Running farmer membership cases migrated to a version with a changed notice step (issue 20):
waiting on their renewal timer, they move with their timers and tasks, and finish on the new
version; a case the target cannot carry is blocked and left as it was."""
from __future__ import annotations

import os

from sqlalchemy import select

from engine.persistence.models import ProcessInstance, Timer
from tests.procedures.farmer_registry.conftest import MEMBERSHIP, farmer_files

MANY = int(os.environ.get("TRAMITE_TEST_MIGRATION_CASES", "1000"))
BPMN = "farmer_registry_membership.bpmn"
OLD_SCRIPT = "renewal_overdue = True\n"
NEW_SCRIPT = "renewal_overdue = True\noverdue_notice = 'aviso de la versión 2'\n"


def _version_two(files: dict) -> dict:
    changed = dict(files)
    assert OLD_SCRIPT in changed[BPMN]
    changed[BPMN] = changed[BPMN].replace(OLD_SCRIPT, NEW_SCRIPT, 1)
    return changed


def _import_members(far, count: int) -> list[int]:
    ids = []
    for n in range(count):
        far.api.post("/api/v1/registries/farmers", "admin", {
            "id": f"F-{1000 + n}", "name": f"Productor {n}", "producer_type": "agricultor",
            "registered_on": "2023-06-01", "renewal_due": "2025-06-01", "start_membership": True}, expect=201)
    rows = far.engine.read(lambda s: s.scalars(select(ProcessInstance.id).where(
        ProcessInstance.process_key == MEMBERSHIP).order_by(ProcessInstance.id)).all())
    ids.extend(rows)
    return ids


def _timers(far, ids):
    return far.engine.read(lambda s: sorted(
        (t.instance_id, t.spiff_task_id, t.due_at) for t in s.scalars(select(Timer).where(
            Timer.instance_id.in_(ids), Timer.fired_at.is_(None), Timer.cancelled.is_(False)))))


def _migrate(far, body, as_user="owner", expect=200):
    return far.api.post(f"/api/v1/processes/{MEMBERSHIP}/migrations", as_user, body, expect=expect)


def test_a_thousand_waiting_memberships_move_to_version_two_and_finish_there(far):
    far.day("2024-04-10")
    ids = _import_members(far, MANY)
    assert len(ids) == MANY
    timers_before = _timers(far, ids)
    assert len(timers_before) == MANY
    far.api.deploy(MEMBERSHIP, _version_two(farmer_files()))

    preview = _migrate(far, {"from_version": 1, "to_version": 2, "dry_run": True})
    assert preview == {"migrated": ids, "blocked": []}
    assert {far.case(i)["version"] for i in ids[:5]} == {1}  # the preview changed nothing

    result = _migrate(far, {"from_version": 1, "to_version": 2})
    assert result == {"migrated": ids, "blocked": []}
    assert _timers(far, ids) == timers_before  # the same timers, the same instants
    sample = far.case(ids[0])
    assert sample["version"] == 2 and sample["status"] == "active"
    assert [h for h in far.history(ids[0]) if h["type"] == "case_migrated"][0]["data"]["to_version"] == 2

    far.day("2025-06-02")  # every renewal timer falls due and runs version 2's notice step
    for case_id in ids:
        case = far.case(case_id)
        assert case["variables"].get("overdue_notice") == "aviso de la versión 2", case_id
    assert _timers(far, ids) == []


def test_a_case_waiting_on_a_removed_element_is_blocked_and_unchanged(far):
    far.day("2024-04-10")
    ids = _import_members(far, 2)
    files = farmer_files()
    renamed = dict(files)
    renamed[BPMN] = files[BPMN].replace('"wait_for_renewal"', '"await_renewal"').replace(
        'attachedToRef="wait_for_renewal"', 'attachedToRef="await_renewal"').replace(
        ">wait_for_renewal<", ">await_renewal<")
    far.api.deploy(MEMBERSHIP, renamed)
    before = far.case(ids[0])
    result = _migrate(far, {"from_version": 1, "to_version": 2, "instance_ids": [ids[0]]})
    assert result["migrated"] == []
    assert result["blocked"][0]["id"] == ids[0] and "wait_for_renewal" in result["blocked"][0]["reason"]
    after = far.case(ids[0])
    assert (after["version"], after["deadlines"], after["open_tasks"]) == (1, before["deadlines"], before["open_tasks"])

    mapped = _migrate(far, {"from_version": 1, "to_version": 2, "instance_ids": [ids[0]],
                            "mapping": {"wait_for_renewal": "await_renewal"}})
    assert mapped == {"migrated": [ids[0]], "blocked": []}
    moved = far.case(ids[0])
    assert moved["version"] == 2
    assert [d["due_at"] for d in moved["deadlines"]] == [d["due_at"] for d in before["deadlines"]]
    renewed = far.renew(ids[0])  # the renamed receive task still catches the renewal
    assert renewed["version"] == 2
    assert any(h["type"] == "message_received" or h["type"].startswith("message") for h in far.history(ids[0]))


def test_only_process_owners_migrate_and_bad_requests_change_nothing(far):
    far.day("2024-04-10")
    ids = _import_members(far, 1)
    far.api.deploy(MEMBERSHIP, _version_two(farmer_files()))
    _migrate(far, {"from_version": 1, "to_version": 2}, as_user="far_clerk", expect=403)
    assert far.api.post(f"/api/v1/processes/{MEMBERSHIP}/migrations", "owner",
                        {"from_version": 1, "to_version": 1}, expect=422)["errors"]["to_version"]
    far.api.post(f"/api/v1/processes/{MEMBERSHIP}/migrations", "owner",
                 {"from_version": 1, "to_version": 9}, expect=404)
    far.api.post(f"/api/v1/processes/{MEMBERSHIP}/migrations", "owner", {"to_version": 2}, expect=422)
    assert far.case(ids[0])["version"] == 1
