"""POST /api/v1/instances/{id}/move (API.md §Running cases): a supervisor repairs a case that took
a wrong path — the open work at one element is cancelled, another becomes active, with a reason
on record; refused where the result would be undefined."""
from __future__ import annotations

from tests.support import bpmn as b

LANE = "test_clerk"


def _linear(api, key="test_move"):
    """start → decide (xor on `path`) → a | b → review → end."""
    xml = b.diagram(key, lanes={LANE: ["start", "intake", "route", "path_a", "path_b", "review", "end"]},
                    nodes=[b.start(), b.user("intake"), b.xor("route", default="f_route_b"),
                           b.user("path_a"), b.user("path_b"), b.user("review"), b.end()],
                    flows=[*b.chain("start", "intake", "route"),
                           b.flow("f_route_a", "route", "path_a", "path == 'a'"), b.flow("f_route_b", "route", "path_b"),
                           b.flow("f_a_review", "path_a", "review"), b.flow("f_b_review", "path_b", "review"),
                           *b.chain("review", "end")])
    form = b.form(optional={"path": {"type": "string"}, "note": {"type": "string"}})
    api.deploy(key, {"m.bpmn": xml, **{f"{t}.schema.json": form for t in ("intake", "path_a", "path_b", "review")}})


def _parallel(api, key="test_move_par"):
    xml = b.diagram(key, lanes={LANE: ["start", "intake", "split", "left", "right", "join", "after", "end"]},
                    nodes=[b.start(), b.user("intake"), b.parallel("split"), b.user("left"), b.user("right"), b.parallel("join"),
                           b.user("after"), b.end()],
                    flows=[*b.chain("start", "intake", "split"), b.flow("f2", "split", "left"), b.flow("f3", "split", "right"),
                           b.flow("f4", "left", "join"), b.flow("f5", "right", "join"), *b.chain("join", "after", "end")])
    form = b.form(optional={"note": {"type": "string"}})
    api.deploy(key, {"p.bpmn": xml, **{f"{t}.schema.json": form for t in ("intake", "left", "right", "after")}})


def _start(api, key):
    return api.post(f"/api/v1/processes/{key}/instances", "clerk", {"variables": {}}, expect=201)


def _move(api, case, body, as_user="boss", expect=200):
    return api.post(f"/api/v1/instances/{case['id']}/move", as_user, body, expect=expect)


def _complete(api, case, element, data=None):
    task = api.open_task(case, element)
    return api.post(f"/api/v1/tasks/{task['id']}/complete", "clerk", {"data": data or {}})["instance"]


def test_a_case_on_the_wrong_path_is_moved_and_goes_on_from_there(api):
    _linear(api)
    case = _complete(api, _start(api, "test_move"), "intake", {"path": "b"})  # a data error: it was 'a'
    assert [t["element_id"] for t in case["open_tasks"]] == ["path_b"]
    moved = _move(api, case, {"from_element": "path_b", "to_element": "path_a",
                              "reason": "La solicitud era del tipo A; error de captura"})
    assert [t["element_id"] for t in moved["open_tasks"]] == ["path_a"] and moved["status"] == "active"
    history = api.get(f"/api/v1/instances/{case['id']}/history", "boss")
    event = [e for e in history if e["type"] == "case_moved"][0]
    assert event["actor"] == "boss" and event["data"]["reason"].startswith("La solicitud era del tipo A")
    assert (event["data"]["from_element"], event["data"]["to_element"]) == ("path_b", "path_a")
    done = _complete(api, _complete(api, moved, "path_a"), "review")
    assert done["status"] == "completed"
    tasks = api.get(f"/api/v1/tasks?instance={case['id']}&state=any&scope=all", "boss")
    assert {t["element_id"]: t["state"] for t in tasks}["path_b"] == "cancelled"


def test_a_move_back_to_an_earlier_step_reopens_it(api):
    _linear(api)
    case = _complete(api, _start(api, "test_move"), "intake", {"path": "a"})
    moved = _move(api, case, {"from_element": "path_a", "to_element": "intake", "reason": "Faltó un dato"})
    assert [t["element_id"] for t in moved["open_tasks"]] == ["intake"]
    again = _complete(api, moved, "intake", {"path": "b"})
    assert [t["element_id"] for t in again["open_tasks"]] == ["path_b"]


def test_moves_that_would_leave_the_case_undefined_are_refused_and_change_nothing(api):
    _parallel(api)
    case = _start(api, "test_move_par")
    into_branch = _move(api, case, {"from_element": "intake", "to_element": "left", "reason": "x"}, expect=422)
    assert into_branch["errors"]["rule"] == ["MOVE_UNDEFINED"] and "join" in into_branch["errors"]["to_element"][0]
    split = _complete(api, case, "intake")
    refused = _move(api, split, {"from_element": "left", "to_element": "after", "reason": "x"}, expect=422)
    assert refused["errors"]["rule"] == ["MOVE_UNDEFINED"] and "right" in refused["errors"]["from_element"][0]
    after = api.get(f"/api/v1/instances/{case['id']}", "boss")
    assert sorted(t["element_id"] for t in after["open_tasks"]) == ["left", "right"]
    # A gateway that joins branches is not a step to activate.
    other = _start(api, "test_move_par")
    gateway = _move(api, other, {"from_element": "intake", "to_element": "split", "reason": "x"}, expect=422)
    assert "compuerta" in gateway["errors"]["to_element"][0]
    assert [t["element_id"] for t in api.get(f"/api/v1/instances/{other['id']}", "boss")["open_tasks"]] == ["intake"]
    assert not [e for e in api.get(f"/api/v1/instances/{case['id']}/history", "boss") if e["type"] == "case_moved"]


def test_only_supervisors_move_with_a_reason_to_a_real_element(api):
    _linear(api)
    case = _complete(api, _start(api, "test_move"), "intake", {"path": "b"})
    _move(api, case, {"from_element": "path_b", "to_element": "path_a", "reason": "x"}, as_user="clerk", expect=403)
    _move(api, case, {"from_element": "path_b", "to_element": "path_a", "reason": ""}, expect=422)
    missing = _move(api, case, {"from_element": "path_b", "to_element": "nowhere", "reason": "x"}, expect=422)
    assert "nowhere" in missing["errors"]["to_element"][0]
    _move(api, case, {"from_element": "path_a", "to_element": "review", "reason": "x"}, expect=409)
    _move(api, case, {"from_element": "path_b", "to_element": "start", "reason": "x"}, expect=422)
    assert [t["element_id"] for t in api.get(f"/api/v1/instances/{case['id']}", "boss")["open_tasks"]] == ["path_b"]
