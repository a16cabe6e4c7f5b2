"""Two workers completing the same task at the same moment: exactly one wins, the other gets 409."""
import threading

from tests.support.diagrams import parallel_flow


def race(app, token, path, body, n):
    """Fire `n` identical requests at once from `n` threads, each with its own client."""
    barrier = threading.Barrier(n)
    results = []
    lock = threading.Lock()

    def worker():
        client = app.test_client()
        barrier.wait()
        response = client.post(path, json=body, headers={"Authorization": f"Bearer {token}"})
        with lock:
            results.append(response.status_code)

    threads = [threading.Thread(target=worker) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return sorted(results)


def test_concurrent_completions_of_one_task_complete_it_exactly_once(app, api):
    api.deploy("test_parallel", parallel_flow())
    token = api.token("both")
    for _ in range(5):
        case = api.post("/api/v1/processes/test_parallel/instances", "clerk", {"variables": {}}, expect=201)
        task = api.open_task(case, "check_a")
        codes = race(app, token, f"/api/v1/tasks/{task['id']}/complete", {"data": {}}, 4)
        assert codes == [200, 409, 409, 409]
        history = api.get(f"/api/v1/instances/{case['id']}/history", "boss")
        assert [e["task_id"] for e in history if e["type"] == "task_completed"] == [task["id"]]
        after = api.get(f"/api/v1/instances/{case['id']}", "boss")
        assert [t["element_id"] for t in after["open_tasks"]] == ["check_b"]


def test_completing_both_branches_at_once_runs_the_join_once(app, api):
    api.deploy("test_parallel", parallel_flow())
    token = api.token("both")
    case = api.post("/api/v1/processes/test_parallel/instances", "clerk", {"variables": {}}, expect=201)
    a, b = api.open_task(case, "check_a"), api.open_task(case, "check_b")
    barrier = threading.Barrier(2)
    codes = []

    def complete(task_id):
        client = app.test_client()
        barrier.wait()
        r = client.post(f"/api/v1/tasks/{task_id}/complete", json={"data": {}},
                        headers={"Authorization": f"Bearer {token}"})
        codes.append(r.status_code)

    threads = [threading.Thread(target=complete, args=(t["id"],)) for t in (a, b)]
    [t.start() for t in threads]
    [t.join(timeout=60) for t in threads]
    assert codes == [200, 200]
    after = api.get(f"/api/v1/instances/{case['id']}", "boss")
    assert [t["element_id"] for t in after["open_tasks"]] == ["after"]


def test_concurrent_claims_give_the_task_to_one_person(app, api):
    api.deploy("test_parallel", parallel_flow())
    case = api.post("/api/v1/processes/test_parallel/instances", "clerk", {"variables": {}}, expect=201)
    task = api.open_task(case, "check_a")
    tokens = [api.token("clerk"), api.token("clerk2")]
    barrier = threading.Barrier(2)
    codes = []

    def claim(token):
        client = app.test_client()
        barrier.wait()
        codes.append(client.post(f"/api/v1/tasks/{task['id']}/claim",
                                 headers={"Authorization": f"Bearer {token}"}).status_code)

    threads = [threading.Thread(target=claim, args=(t,)) for t in tokens]
    [t.start() for t in threads]
    [t.join(timeout=60) for t in threads]
    assert sorted(codes) == [200, 409]


def test_the_first_cases_of_a_year_started_at_once_all_get_distinct_numbers(app, api):
    api.deploy("test_parallel", parallel_flow())
    barrier, numbers, lock = threading.Barrier(4), [], threading.Lock()
    token = api.token("clerk")

    def start():
        client = app.test_client()
        barrier.wait()
        response = client.post("/api/v1/processes/test_parallel/instances", json={"variables": {}},
                               headers={"Authorization": f"Bearer {token}"})
        with lock:
            numbers.append((response.status_code, (response.get_json() or {}).get("case_number")))

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert [code for code, _ in numbers] == [201] * 4
    assert sorted(n for _, n in numbers) == [f"TES-2024-{i:06d}" for i in range(1, 5)]
