"""Each open task of a parallel multi-instance shows its own item and completes into its own slot."""
import pytest

from tests.api.test_failures_in_error import multi_instance
from tests.support import bpmn as b

FORM = b.form({"result": {"type": "integer"}}, {"item": {"type": "integer"}})


def deploy_review(api, key, sequential):
    xml = b.diagram(key, lanes={"test_clerk": ["start", "review", "end"]},
                    nodes=[b.start(), multi_instance("review", "items", "item", sequential, "items", "result"), b.end()],
                    flows=b.chain("start", "review", "end"))
    api.deploy(key, {f"{key}.bpmn": xml, "review.schema.json": FORM})


@pytest.mark.parametrize("sequential", [False, True])
def test_each_instance_shows_its_item_and_its_result_lands_in_its_slot(api, sequential):
    key = "mi_seq" if sequential else "mi_par"
    deploy_review(api, key, sequential)
    case = api.post(f"/api/v1/processes/{key}/instances", "clerk", {"variables": {"items": [2, 4, 6]}}, expect=201)
    seen = []
    while case["open_tasks"]:
        views = [api.get(f"/api/v1/tasks/{t['id']}", "clerk") for t in case["open_tasks"]]
        items = sorted(v["data"]["case"]["item"] for v in views)
        if not sequential and not seen:
            assert items == [2, 4, 6]  # every open instance its own item, not the newest three times
        last = views[-1]  # completed last-opened first: slots must not follow completion order
        seen.append(last["data"]["case"]["item"])
        case = api.post(f"/api/v1/tasks/{last['id']}/complete", "clerk",
                        {"data": {"result": 10 * last["data"]["case"]["item"]}})["instance"]
    assert case["status"] == "completed"
    assert sorted(seen) == [2, 4, 6]
    assert case["variables"]["items"] == [20, 40, 60]
