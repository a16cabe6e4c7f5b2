"""A call chain that can stop deploys and runs; one that can never stop is refused (issue 14 #1).

Whether a stop condition ever holds is not known before it runs: the run time bounds the call depth
of one command, and a case past it goes to `error` naming the call activity."""
from __future__ import annotations

from tests.support import bpmn as b
from tests.support.small_diagrams import HEAD


def _recursive(pid: str, stop: str) -> str:
    nodes = [b.start(), b.script("bump", "depth = depth + 1\nvisits = visits + [depth]"),
             b.xor("deeper", default="f_deeper_end"), b.call("recurse", pid), b.end()]
    flows = [b.flow("f_start_bump", "start", "bump"), b.flow("f_bump_deeper", "bump", "deeper"),
             b.flow("f_deeper_recurse", "deeper", "recurse", stop), b.flow("f_deeper_end", "deeper", "end"),
             b.flow("f_recurse_end", "recurse", "end")]
    lane = ('<bpmn:laneSet id="LS"><bpmn:lane id="Lane_clerk" name="test_clerk">' + "".join(
        f"<bpmn:flowNodeRef>{n}</bpmn:flowNodeRef>" for n in ("start", "bump", "deeper", "recurse", "end"))
        + "</bpmn:lane></bpmn:laneSet>")
    return (HEAD.format(pid=pid) + f'<bpmn:process id="{pid}" isExecutable="true">' + lane + "".join(nodes)
            + "".join(flows) + "</bpmn:process></bpmn:definitions>\n")


def _start(api, key, variables):
    return api.post(f"/api/v1/processes/{key}/instances", "clerk", {"variables": variables}, expect=201)


def test_a_recursion_with_a_stop_condition_deploys_and_runs_to_its_depth(api):
    api.deploy("test_rec", {"rec.bpmn": _recursive("test_rec", "depth < 3")})
    case = _start(api, "test_rec", {"depth": 0, "visits": []})
    assert case["status"] == "completed", case.get("error")
    # A called process hands its data back to its caller (as SpiffWorkflow does): three levels ran.
    assert case["variables"]["visits"] == [1, 2, 3] and case["variables"]["depth"] == 3


def test_a_recursion_whose_stop_never_comes_in_time_ends_in_error_naming_the_call(api, monkeypatch):
    monkeypatch.setenv("TRAMITE_COMMAND_MAX_CALL_DEPTH", "10")
    # The depth limit is under test, not the time limit: on a loaded machine ten nested calls took
    # longer than the default seconds and the case stopped at the gateway before them.
    monkeypatch.setenv("TRAMITE_COMMAND_MAX_SECONDS", "600")
    api.deploy("test_deep", {"deep.bpmn": _recursive("test_deep", "depth < 100000")})
    case = _start(api, "test_deep", {"depth": 0, "visits": []})
    assert case["status"] == "error"
    assert case["error"]["element_id"] == "recurse" and "COMMAND_BUDGET" in case["error"]["message"]
