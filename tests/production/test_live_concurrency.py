"""Twenty clients over real HTTP against a two-worker gunicorn on PostgreSQL, released together:
completing one task, claiming another and sending one message, all at once. Each action wins
exactly once, every loser gets 409, the history holds no duplicate, the server never answers 5xx."""
from __future__ import annotations

import threading
import time
from collections import Counter

from tests.support.diagrams import message_flow, parallel_flow

from .live import REQUIRES_POSTGRES, Http

pytestmark = REQUIRES_POSTGRES

CLIENTS = 20
ROUNDS = 6
# The events that one winning command writes once; a second copy would be a duplicate decision.
ONCE_ONLY = {"case_started", "task_claimed", "task_completed", "message_received", "timer_fired"}


def race(port: int, clients: dict[str, str], actions: list[tuple[str, str, dict | None]]) -> list[dict]:
    """Each client opens its connection, waits at the barrier, then sends every action (each
    client in a different order); returns one record per request."""
    barrier = threading.Barrier(len(clients))
    results: list[dict] = []
    lock = threading.Lock()
    errors: list[BaseException] = []

    def client(index: int, username: str, token: str) -> None:
        http = Http(port, token).connect()
        shift = index % len(actions)
        mine = actions[shift:] + actions[:shift]
        if index % 2:
            mine.reverse()
        try:
            barrier.wait(timeout=60)
            for name, path, body in mine:
                began = time.monotonic()
                status, answer = http.request("POST", path, body if body is not None else {})
                with lock:
                    results.append({"user": username, "action": name, "status": status, "body": answer,
                                    "began": began, "ended": time.monotonic()})
        except BaseException as exc:  # reported below, so that a broken client fails the test
            with lock:
                errors.append(exc)
        finally:
            http.close()

    threads = [threading.Thread(target=client, args=(i, u, t)) for i, (u, t) in enumerate(clients.items())]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not [t for t in threads if t.is_alive()], "a client never finished"
    assert not errors, errors
    assert len(results) == len(clients) * len(actions)
    return results


def most_in_flight(results: list[dict]) -> int:
    edges = sorted([(r["began"], 1) for r in results] + [(r["ended"], -1) for r in results])
    level = peak = 0
    for _, step in edges:
        level += step
        peak = max(peak, level)
    return peak


def test_twenty_clients_racing_for_the_same_tasks_and_message_each_win_once(installation, serve):
    installation.deploy("test_parallel", parallel_flow())
    installation.deploy("test_message", message_flow())
    staff = {f"staff{i:02d}": ["test_clerk", "test_reviewer"] for i in range(CLIENTS)}
    installation.users({**staff, "boss": ["supervisor"]})
    tokens = installation.tokens(*staff, "boss")
    server = serve(workers=2, threads=8)
    boss = Http(server.port, tokens["boss"])
    starter = Http(server.port, tokens["staff00"])
    peaks = []

    for _ in range(ROUNDS):
        parallel = starter.post("/api/v1/processes/test_parallel/instances", {"variables": {}}, expect=201)
        waiting = starter.post("/api/v1/processes/test_message/instances", {"variables": {}}, expect=201)
        check_a, = [t["id"] for t in parallel["open_tasks"] if t["element_id"] == "check_a"]
        check_b, = [t["id"] for t in parallel["open_tasks"] if t["element_id"] == "check_b"]
        actions = [("complete", f"/api/v1/tasks/{check_a}/complete", {"data": {}}),
                   ("claim", f"/api/v1/tasks/{check_b}/claim", None),
                   ("message", f"/api/v1/instances/{waiting['id']}/messages/documents_received",
                    {"payload": {"documents": ["escritura.pdf"]}})]

        results = race(server.port, {u: tokens[u] for u in staff}, actions)

        assert not [r for r in results if r["status"] >= 500], [r for r in results if r["status"] >= 500]
        winners = {}
        for name, _, _ in actions:
            statuses = Counter(r["status"] for r in results if r["action"] == name)
            assert statuses == {200: 1, 409: CLIENTS - 1}, (name, statuses)
            winners[name], = [r["user"] for r in results if r["action"] == name and r["status"] == 200]
        peaks.append(most_in_flight(results))

        # The winners' changes, and nothing of the losers', are what the database holds.
        (state_a, completed_by), = installation.rows("SELECT state, completed_by FROM task WHERE id = :i", i=check_a)
        assert (state_a, completed_by) == ("completed", winners["complete"])
        (state_b, assignee), = installation.rows("SELECT state, assignee FROM task WHERE id = :i", i=check_b)
        assert (state_b, assignee) == ("open", winners["claim"])
        case = boss.get(f"/api/v1/instances/{parallel['id']}")
        assert [t["element_id"] for t in case["open_tasks"]] == ["check_b"]
        case = boss.get(f"/api/v1/instances/{waiting['id']}")
        assert [t["element_id"] for t in case["open_tasks"]] == ["review"]
        assert case["variables"]["docs"] == 1

        for instance_id in (parallel["id"], waiting["id"]):
            history = boss.get(f"/api/v1/instances/{instance_id}/history")
            keys = Counter((e["type"], e["task_id"], e["element_id"]) for e in history if e["type"] in ONCE_ONLY)
            assert [k for k, n in keys.items() if n > 1] == [], history
        history = boss.get(f"/api/v1/instances/{parallel['id']}/history")
        assert [(e["type"], e["actor"]) for e in history if e["task_id"] == check_a and e["type"] == "task_completed"] \
            == [("task_completed", winners["complete"])]
        assert [e["actor"] for e in history if e["task_id"] == check_b and e["type"] == "task_claimed"] \
            == [winners["claim"]]
        history = boss.get(f"/api/v1/instances/{waiting['id']}/history")
        assert [e["actor"] for e in history if e["type"] == "message_received"] == [winners["message"]]

    # The requests really overlapped: many were in flight at one moment in every round.
    assert min(peaks) >= 8, peaks
    assert len(server.worker_pids()) == 2
    assert server.server_errors() == []
    print(f"\n{ROUNDS} rounds of {CLIENTS} clients x {len(actions)} actions; most requests in flight at once: {peaks}")
