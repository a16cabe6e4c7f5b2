"""Plays a scenario through Tramite's HTTP API, the way any client would: deploy, start, complete,
messages, signals and the manual clock. What each step completed is read from the case's
`activity` counts (one GET after each step); state, open tasks and data from the case itself."""
from __future__ import annotations

import signal
from contextlib import contextmanager
from datetime import datetime

from tests.conformance.outcome import (Outcome, Refused, ServerError, Stuck, Unexpected, evaluated, normalized,
                                       parse_duration)

ACTOR = "both"            # holds test_clerk and test_reviewer, the lanes every diagram uses
SUPERVISOR = "boss"
HANG_SECONDS = 20         # no single request may take this long (issue 14: no hangs)


class Hang(AssertionError):
    """One request did not answer within HANG_SECONDS."""


@contextmanager
def no_hang(seconds: int = HANG_SECONDS):
    """Interrupts a request that runs away (pure-Python loops see the alarm); the main thread only."""
    def ring(signum, frame):
        raise Hang(f"a request took more than {seconds} s")
    try:
        previous = signal.signal(signal.SIGALRM, ring)
    except ValueError:  # not the main thread: no guard available
        yield
        return
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class TramitePlayer:
    def __init__(self, api):
        self.api = api
        self.case: dict | None = None
        self.counts: dict[str, int] = {}
        self.outcome = Outcome("waiting")

    def _call(self, method: str, path: str, user: str, json=None, expect=(200,)):
        with no_hang():
            response = self.api.call(method, path, user, None, **({"json": json} if json is not None else {}))
        if response.status_code >= 500:
            raise ServerError(f"{method} {path} → {response.status_code}: {response.get_data(as_text=True)[:500]}")
        if response.status_code not in expect:
            raise Unexpected(f"{method} {path} → {response.status_code}: {response.get_data(as_text=True)[:800]}")
        return response

    # -- deploy --------------------------------------------------------------------------
    def deploy(self, key: str, files: dict[str, str | bytes]) -> dict:
        """201/200 → the version; 400 → Refused carrying the `errors`; anything else fails."""
        import io
        data = {"files": [(io.BytesIO(c if isinstance(c, bytes) else c.encode("utf-8")), name)
                          for name, c in files.items()]}
        with no_hang():
            response = self.api.call("POST", f"/api/v1/processes/{key}/versions", "owner", None,
                                     data=data, content_type="multipart/form-data")
        body = response.get_json(silent=True) or {}
        if response.status_code >= 500:
            raise ServerError(f"deploy {key} → {response.status_code}: {response.get_data(as_text=True)[:500]}")
        if response.status_code == 400:
            error = Refused(f"deploy {key} refused: {body.get('errors')}")
            error.errors = body.get("errors") or {}
            raise error
        if response.status_code not in (200, 201):
            raise AssertionError(f"deploy {key} → {response.status_code}: {body}")
        self.key = key
        return body

    def clock(self) -> datetime:
        return datetime.fromisoformat(self._call("GET", "/api/v1/admin/clock", "admin").get_json()["now"])

    # -- the steps -----------------------------------------------------------------------
    def start(self, variables: dict):
        self.case = self._call("POST", f"/api/v1/processes/{self.key}/instances", ACTOR,
                               {"variables": variables}, expect=(201,)).get_json()
        self._step()

    def complete(self, element_id: str, data: dict, nth: int = 0):
        case = self._read()
        tasks = sorted((t for t in case["open_tasks"] if t["element_id"] == element_id), key=lambda t: t["id"])
        if len(tasks) <= nth:
            raise LookupError(f"no open task {element_id} #{nth}; open: {self.open_tasks(case)}")
        task = tasks[nth]
        if any(isinstance(v, str) and v.startswith("=") for v in data.values()):
            # A task shows the case as its worker sees it (`data.case`): for one instance of a
            # multi-instance, its own item.
            shown = self._call("GET", f"/api/v1/tasks/{task['id']}", ACTOR).get_json()["data"]
            data = evaluated(data, shown.get("case", shown))
        self._call("POST", f"/api/v1/tasks/{task['id']}/complete", ACTOR, {"data": data})
        self._step()

    def message(self, name: str, payload: dict):
        self._call("POST", f"/api/v1/instances/{self.case['id']}/messages/{name}", SUPERVISOR, {"payload": payload})
        self._step()

    def signal(self, name: str, payload: dict | None):
        self._call("POST", f"/api/v1/signals/{name}", SUPERVISOR, {"payload": payload or {}})
        self._step()

    def wait(self, duration: str):
        target = self.clock() + parse_duration(duration)
        self._call("PUT", "/api/v1/admin/clock", "admin", {"now": target.isoformat()})
        self._step()

    # -- reading -------------------------------------------------------------------------
    def _read(self) -> dict:
        return self._call("GET", f"/api/v1/instances/{self.case['id']}", SUPERVISOR).get_json()

    def _activity(self) -> dict:
        return self._call("GET", f"/api/v1/instances/{self.case['id']}/activity", SUPERVISOR).get_json()

    def _step(self):
        activity = self._activity()
        counts = {e: v.get("count", 0) for e, v in activity.items()}
        done = [e for e, n in counts.items() for _ in range(n - self.counts.get(e, 0))]
        self.counts = counts
        self.outcome.steps.append(sorted(done))
        self.last_activity = activity

    @staticmethod
    def open_tasks(case: dict) -> list[str]:
        return sorted(t["element_id"] for t in case["open_tasks"])

    def finish(self) -> Outcome:
        case, out = self._read(), self.outcome
        out.open_tasks = self.open_tasks(case)
        waiting = [e for e, v in self.last_activity.items() if v.get("state") in ("waiting", "active")]
        status = case["status"]
        if status == "active":
            out.state = "waiting" if (out.open_tasks or case["deadlines"] or waiting) else "stuck"
        else:
            out.state = status
        if status == "error":
            out.error_element = (case.get("error") or {}).get("element_id")
        out.data = normalized(case["variables"])
        # The case history is the other record of the path: its completions, in order.
        history = self._call("GET", f"/api/v1/instances/{case['id']}/history", SUPERVISOR).get_json()
        out.human_path = [e["element_id"] for e in history if e["type"] == "task_completed"]
        self.final_case = case
        return out

    def stop(self):
        """Cancels a case left running, so later clock moves of the suite do not touch it."""
        if self.case is not None:
            case = self._read()
            if case["status"] in ("active", "error"):
                self.api.call("POST", f"/api/v1/instances/{case['id']}/cancel", SUPERVISOR, None,
                              json={"reason": "conformance scenario over"})


def assert_not_stuck(outcome: Outcome):
    if outcome.state == "stuck":
        raise Stuck("the case is active with nothing open, nothing waiting and no error")
