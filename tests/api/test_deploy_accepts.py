"""What deploy accepts runs: each construct the deploy checks let through, started and finished
through the HTTP API (issue 14 §5, §6, §11–13)."""
from __future__ import annotations

from tests.support import bpmn as b
from tests.support.small_diagrams import around, timer_catch

REVIEWER = "test_reviewer"


def start(api, key, as_user="clerk", variables=None):
    return api.post(f"/api/v1/processes/{key}/instances", as_user, {"variables": variables or {}}, expect=201)


def complete(api, task, as_user, data=None, expect=200):
    return api.post(f"/api/v1/tasks/{task['id']}/complete", as_user, {"data": data or {}}, expect=expect)


def test_a_user_task_inside_a_sub_process_in_a_lane_takes_that_lane(api):
    # bpmn-js draws it so: the lane lists the sub-process only, not what is inside it.
    inner = (f'<bpmn:subProcess id="review_block">{b.start("in_start")}{b.user("check", "Revisar")}'
             f'{b.end("in_end")}{"".join(b.chain("in_start", "check", "in_end"))}</bpmn:subProcess>')
    xml = b.diagram("test_nested", lanes={"test_clerk": ["start", "end"], REVIEWER: ["review_block"]},
                    nodes=[b.start(), inner, b.end()], flows=b.chain("start", "review_block", "end"))
    api.deploy("test_nested", {"nested.bpmn": xml, "check.schema.json": b.form({})})
    version = api.get("/api/v1/processes/test_nested/versions/1", "owner")
    assert next(e for e in version["elements"] if e["id"] == "check")["lane"] == REVIEWER
    case = start(api, "test_nested")
    task = api.open_task(case, "check")
    assert task["lane"] == REVIEWER
    complete(api, task, "clerk", expect=403)
    assert complete(api, task, "reviewer")["instance"]["status"] == "completed"


def test_a_manual_task_and_a_plain_task_in_a_lane_are_confirmations_anyone_of_the_lane_completes(api):
    xml = around("test_manual", '<bpmn:manualTask id="sign" name="Firmar"/><bpmn:task id="stamp" name="Sellar"/>',
                 ids=["sign", "stamp"])
    api.deploy("test_manual", {"manual.bpmn": xml})
    case = start(api, "test_manual")
    task = api.open_task(case, "sign")
    assert api.get(f"/api/v1/tasks/{task['id']}", "clerk")["form"]["schema"] == {}
    complete(api, task, "reviewer", expect=403)
    case = complete(api, task, "clerk")["instance"]
    case = complete(api, api.open_task(case, "stamp"), "clerk2")["instance"]
    assert case["status"] == "completed"


def test_a_process_without_is_executable_runs(api):
    xml = around("test_plain", b.script("s", "x = 41 + 1"), ids=["s"], attrs='name="Sin atributo"')
    api.deploy("test_plain", {"plain.bpmn": xml})
    case = start(api, "test_plain")
    assert case["status"] == "completed" and case["variables"]["x"] == 42


def test_quoted_timers_and_expressions_over_case_data_deploy_and_wait(api):
    body = (timer_catch("wait_days", "timeDuration", '"P7D"') + timer_catch("wait_date", "timeDate", "due")
            + b.script("done", "outcome = 'DONE'"))
    api.deploy("test_timers", {"t.bpmn": around("test_timers", body, ids=["wait_days", "wait_date", "done"])})
    case = start(api, "test_timers", variables={"due": "2024-04-20T09:00:00-04:00"})
    assert case["status"] == "active"
    api.move_clock("2024-04-09T12:00:00-04:00")
    api.move_clock("2024-04-21T12:00:00-04:00")
    assert api.get(f"/api/v1/instances/{case['id']}", "boss")["status"] == "completed"


def test_an_exclusive_gateway_with_no_true_path_names_the_gateway(api):
    body = b.xor("route") + b.script("yes", "x = 1")
    xml = around("test_xor", body, ids=["route", "yes"]).replace(
        '<bpmn:sequenceFlow id="f_route_yes" sourceRef="route" targetRef="yes"></bpmn:sequenceFlow>',
        b.flow("f_route_yes", "route", "yes", "amount > 10"))
    api.deploy("test_xor", {"xor.bpmn": xml})
    case = start(api, "test_xor", variables={"amount": 3})
    assert case["status"] == "error"
    assert case["error"]["element_id"] == "route"


def test_identical_to_the_latest_is_a_no_op_and_to_an_older_one_a_new_version(api):
    def version(code):
        return {"v.bpmn": around("test_revert", b.script("s", code), ids=["s"])}
    assert api.deploy("test_revert", version("x = 1"))["version"] == 1
    assert api.deploy("test_revert", version("x = 2"))["version"] == 2
    assert api.deploy("test_revert", version("x = 2"), expect=200)["version"] == 2
    reverted = api.deploy("test_revert", version("x = 1"), expect=201)
    assert reverted["version"] == 3
    case = start(api, "test_revert")
    assert case["version"] == 3 and case["variables"]["x"] == 1
    assert api.deploy("test_revert", version("x = 1"), expect=200)["version"] == 3


def test_the_start_up_deploy_of_a_procedures_folder_does_not_undo_a_later_owner_version(api, engine, tmp_path):
    from engine.bootstrap import deploy_directory
    folder = tmp_path / "processes" / "revert"
    folder.mkdir(parents=True)
    (folder / "v.bpmn").write_text(around("test_seed", b.script("s", "x = 1"), ids=["s"]), encoding="utf-8")
    assert deploy_directory(engine, tmp_path / "processes")[0]["version"] == 1
    api.deploy("test_seed", {"v.bpmn": around("test_seed", b.script("s", "x = 2"), ids=["s"])})
    # A restart deploys the folder again: v1's content is known, so nothing changes.
    assert deploy_directory(engine, tmp_path / "processes")[0] == {
        "procedure": "revert", "key": "test_seed", "version": 1, "created": False}
    assert api.get("/api/v1/processes", "owner")[0]["latest_version"] == 2
