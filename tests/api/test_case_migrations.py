"""Migration of running cases between versions (API.md §Running cases), on small diagrams: an open
task keeps its id, assignee and due date and is completed with the new version's form; a case
whose open form in the target refuses what it already holds is blocked; a running timer fires at
its own instant on the new version."""
from __future__ import annotations

import json

from tests.support import bpmn as b

LANE = "test_clerk"
KEY = "test_migrate"


def _diagram(task_name="Revisar", extra_step=False):
    nodes = [b.start(), b.user("review", task_name), b.timer_boundary("late", "review", "'2024-05-01T12:00:00-04:00'"),
             b.script("closing", "outcome = 'LATE'"), b.end("end_late"), b.end()]
    flows = [*b.chain("start", "review"), *b.chain("late", "closing", "end_late")]
    refs = ["start", "review", "late", "closing", "end_late", "end"]
    if extra_step:
        nodes.append(b.script("notice", "notice = 'v2'"))
        flows += b.chain("review", "notice", "end")
        refs.append("notice")
    else:
        flows += b.chain("review", "end")
    return b.diagram(KEY, lanes={LANE: refs}, nodes=nodes, flows=flows)


def _form(**extra):
    return json.dumps({"type": "object", "properties": {"note": {"type": "string", "maxLength": 50}, **extra},
                       "additionalProperties": False})


def _deploy(api, **kwargs):
    form = kwargs.pop("form", _form())
    return api.deploy(KEY, {"m.bpmn": _diagram(**kwargs), "review.schema.json": form})


def _migrate(api, body, expect=200):
    return api.post(f"/api/v1/processes/{KEY}/migrations", "owner", body, expect=expect)


def test_an_open_task_keeps_its_id_assignee_and_due_date_and_completes_on_the_new_form(api):
    _deploy(api)
    case = api.post(f"/api/v1/processes/{KEY}/instances", "clerk", {"variables": {}}, expect=201)
    task = api.open_task(case, "review")
    api.post(f"/api/v1/tasks/{task['id']}/claim", "clerk")
    before = api.get(f"/api/v1/tasks/{task['id']}", "clerk")
    _deploy(api, task_name="Revisar el expediente", extra_step=True,
            form=_form(urgent={"type": "boolean"}))
    assert _migrate(api, {"from_version": 1, "to_version": 2}) == {"migrated": [case["id"]], "blocked": []}
    after = api.get(f"/api/v1/tasks/{task['id']}", "clerk")
    assert (after["assignee"], after["due_at"], after["id"]) == (before["assignee"], before["due_at"], before["id"])
    assert after["name"] == "Revisar el expediente"
    assert "urgent" in after["form"]["schema"]["properties"]  # the new version's form
    done = api.post(f"/api/v1/tasks/{task['id']}/complete", "clerk", {"data": {"urgent": True}})["instance"]
    assert done["status"] == "completed" and done["variables"]["notice"] == "v2" and done["version"] == 2


def test_a_case_whose_open_form_refuses_what_it_holds_is_blocked(api):
    _deploy(api)
    case = api.post(f"/api/v1/processes/{KEY}/instances", "clerk",
                    {"variables": {"note": "una nota bastante más larga que diez letras"}}, expect=201)
    _deploy(api, form=_form().replace('"maxLength": 50', '"maxLength": 10'))
    preview = _migrate(api, {"from_version": 1, "to_version": 2, "dry_run": True})
    assert preview["migrated"] == [] and "note" in preview["blocked"][0]["reason"]
    assert _migrate(api, {"from_version": 1, "to_version": 2}) == preview
    assert api.get(f"/api/v1/instances/{case['id']}", "boss")["version"] == 1


def test_a_timer_running_at_migration_fires_at_its_own_instant_on_the_new_version(api):
    _deploy(api)
    case = api.post(f"/api/v1/processes/{KEY}/instances", "clerk", {"variables": {}}, expect=201)
    due = api.get(f"/api/v1/instances/{case['id']}", "boss")["deadlines"]
    _deploy(api, task_name="Revisar el expediente")
    _migrate(api, {"from_version": 1, "to_version": 2})
    assert api.get(f"/api/v1/instances/{case['id']}", "boss")["deadlines"] == due
    api.move_clock("2024-04-30T12:00:00-04:00")
    assert api.get(f"/api/v1/instances/{case['id']}", "boss")["status"] == "active"
    api.move_clock("2024-05-01T12:00:01-04:00")
    late = api.get(f"/api/v1/instances/{case['id']}", "boss")
    assert (late["status"], late["outcome"], late["version"]) == ("completed", "LATE", 2)
