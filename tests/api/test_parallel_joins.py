"""Through the API, each branch of a join finishing in its own request: the join fires, every
branch's data arrives, and no case is left active with nothing open."""
from __future__ import annotations

import pytest

from tests.support import bpmn as b


def region(ids, kind: str = "parallel", conditions: dict | None = None) -> tuple[list, list]:
    gateway = b.parallel if kind == "parallel" else (lambda id: f'<bpmn:inclusiveGateway id="{id}"/>')
    return ([gateway("split"), gateway("join"), *[b.user(i) for i in ids]],
            [*[b.flow(f"a_{i}", "split", i, (conditions or {}).get(i)) for i in ids],
             *[b.flow(f"b_{i}", i, "join") for i in ids]])


def files(key: str, ids, nodes, flows) -> dict[str, str]:
    lane = ["start", "merge", "split", "join", "count", "again", "end", *ids]
    xml = b.diagram(key, lanes={"test_clerk": lane}, nodes=nodes, flows=flows)
    return {"joins.bpmn": xml, **{f"{i}.schema.json": b.form({}, {i: {"type": "string"}}) for i in ids}}


def split_join(n: int, kind: str = "parallel", taken=None) -> dict[str, str]:
    ids = [f"u{i}" for i in range(n)]
    conditions = {i: str(i in taken) for i in ids} if taken else None
    nodes, flows = region(ids, kind, conditions)
    return files("test_joins", ids, [b.start(), b.end(), *nodes],
                 [*b.chain("start", "split"), *flows, *b.chain("join", "end")])


def loop_into_split(n: int) -> dict[str, str]:
    ids = [f"u{i}" for i in range(n)]
    nodes, flows = region(ids)
    return files("test_joins", ids,
                 [b.start(), b.script("count", "n = n + 1"), b.xor("again", default="f_out"), b.end(), *nodes],
                 [*b.chain("start", "split"), *flows, *b.chain("join", "count", "again"),
                  b.flow("f_back", "again", "split", "n < 3"), b.flow("f_out", "again", "end")])


def complete(api, case: dict, element: str) -> dict:
    task = api.open_task(case, element)
    return api.post(f"/api/v1/tasks/{task['id']}/complete", "clerk", {"data": {element: f"done {element}"}})["instance"]


@pytest.mark.parametrize("n", [3, 5])
def test_a_parallel_join_of_branches_finishing_in_separate_requests_fires_with_all_their_data(api, n):
    api.deploy("test_joins", split_join(n))
    case = api.post("/api/v1/processes/test_joins/instances", "clerk", {"variables": {}}, expect=201)
    order = [f"u{i}" for i in reversed(range(n))]
    for element in order:
        assert case["status"] == "active" and case["open_tasks"], "active with nothing open"
        case = complete(api, case, element)
    assert case["status"] == "completed"
    assert {k: case["variables"][k] for k in order} == {e: f"done {e}" for e in order}


def test_an_inclusive_join_of_three_branches_keeps_the_first_branch_data(api):
    api.deploy("test_joins", split_join(3, "inclusive", taken=["u0", "u1", "u2"]))
    case = api.post("/api/v1/processes/test_joins/instances", "clerk", {"variables": {}}, expect=201)
    for element in ("u0", "u1", "u2"):
        case = complete(api, case, element)
    assert case["status"] == "completed"
    assert [case["variables"].get(e) for e in ("u0", "u1", "u2")] == ["done u0", "done u1", "done u2"]


def test_a_loop_back_into_a_parallel_gateway_runs_three_rounds(api):
    api.deploy("test_joins", loop_into_split(3))
    case = api.post("/api/v1/processes/test_joins/instances", "clerk", {"variables": {"n": 0}}, expect=201)
    for round_order in (["u0", "u1", "u2"], ["u2", "u1", "u0"], ["u1", "u0", "u2"]):
        for done, element in enumerate(round_order):
            assert sorted(t["element_id"] for t in case["open_tasks"]) == sorted(set(round_order) - set(round_order[:done]))
            case = complete(api, case, element)
    assert case["status"] == "completed" and case["variables"]["n"] == 3
