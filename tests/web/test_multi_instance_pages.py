"""The web task page of a parallel multi-instance instance shows that instance's own item."""
import re

from tests.api.test_parallel_multi_instance import deploy_review


def test_each_instance_page_prefills_its_own_item(api, web):
    deploy_review(api, "mi_web", sequential=False)
    case = api.post("/api/v1/processes/mi_web/instances", "clerk", {"variables": {"items": [2, 4, 6]}}, expect=201)
    clerk = web("clerk")
    shown = []
    for task in case["open_tasks"]:
        page = clerk.get(f"/web/tasks/{task['id']}")
        field = re.search(r'<input[^>]*name="item"[^>]*>', page).group(0)
        shown.append(int(re.search(r'value="(\d+)"', field).group(1)))
    assert sorted(shown) == [2, 4, 6]
