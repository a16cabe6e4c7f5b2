"""(a) and (b): raw SpiffWorkflow in memory and with the stock JSON save/load; the raw loop."""
from __future__ import annotations

import time

from SpiffWorkflow.bpmn.serializer.workflow import BpmnWorkflowSerializer
from SpiffWorkflow.bpmn.workflow import BpmnWorkflow
from SpiffWorkflow.spiff.parser.process import SpiffBpmnParser
from SpiffWorkflow.spiff.serializer.config import SPIFF_CONFIG
from SpiffWorkflow.util.task import TaskState

from .common import LOOP_KEY, WARMUP, Slices, window_medians
from .diagram import COMPLETE_DATA, KEY, bench_xml, loop_files

def parse_spec(xml: str, pid: str):
    parser = SpiffBpmnParser()
    parser.add_bpmn_str(xml.encode("utf-8"))
    return parser.get_spec(pid)


def _ready_user_task(wf):
    ready = wf.get_tasks(state=TaskState.READY, manual=True)
    return ready[0] if ready else None


def raw_case(spec, serializer=None) -> None:
    wf = BpmnWorkflow(spec)
    wf.do_engine_steps()
    if serializer is not None:
        wf = serializer.deserialize_json(serializer.serialize_json(wf))
    task = _ready_user_task(wf)
    task.data.update(COMPLETE_DATA)
    task.run()
    wf.do_engine_steps()
    if serializer is not None:
        wf = serializer.deserialize_json(serializer.serialize_json(wf))
    assert wf.is_completed() and wf.data.get("outcome") == "APPROVED", wf.data


class RawCases(Slices):
    """(a) or (b) in slices, to interleave with (c): on a shared VM the speed moves by 2x within an
    hour (bench/RESULTS.md, 2026-12-03 evening), and a ratio of two runs minutes apart measured that."""

    def __init__(self, with_json: bool):
        super().__init__()
        self.spec = parse_spec(bench_xml(), KEY)
        self.serializer = (BpmnWorkflowSerializer(BpmnWorkflowSerializer.configure(SPIFF_CONFIG))
                           if with_json else None)
        for _ in range(WARMUP):
            self.one()

    def one(self) -> None:
        raw_case(self.spec, self.serializer)


def bench_raw(n: int, with_json: bool) -> dict:
    raw = RawCases(with_json)
    raw.run(n)
    return raw.result()




def bench_loop_raw(rounds: int, budget_s: float) -> dict:
    """Raw SpiffWorkflow in memory, no pruning: stops at the depth trap or when the budget is spent."""
    spec = parse_spec(loop_files()["loop.bpmn"], LOOP_KEY)
    wf = BpmnWorkflow(spec)
    wf.task_tree.data.update({"rounds": 0})
    wf.do_engine_steps()
    costs: list[float] = []
    stopped = None
    started = time.perf_counter()
    for round_no in range(1, rounds + 1):
        try:
            task = _ready_user_task(wf)
            if task is None:
                stopped = (round_no, f"no READY user task (is_completed()={wf.is_completed()}): depth trap")
                break
            t0 = time.perf_counter()
            task.data.update({"done": round_no == rounds})
            task.run()
            wf.do_engine_steps()
            # include finding the next task, as the engine does
            _ready_user_task(wf)
            costs.append(time.perf_counter() - t0)
        except Exception as exc:  # noqa: BLE001 - the library's failure is what we report
            stopped = (round_no, f"{type(exc).__name__}: {str(exc).splitlines()[0][:80]}")
            break
        if time.perf_counter() - started > budget_s:
            stopped = (round_no + 1, f"time budget of {budget_s:.0f} s spent")
            break
    return {"completed": len(costs), "seconds": time.perf_counter() - started, "stopped": stopped,
            "medians": window_medians(costs), "tasks": len(wf.tasks)}
