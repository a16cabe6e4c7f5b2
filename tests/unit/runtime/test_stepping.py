"""Running a case's automatic steps: long loops run to their end, and a command's budget of steps,
time and call depth stops what would not (no database: the library, the stepping and pruning)."""
from __future__ import annotations

import threading
import time

import pytest
from SpiffWorkflow.bpmn.workflow import BpmnWorkflow
from SpiffWorkflow.util.task import TaskState

from engine.runtime.stepping import BudgetExceeded, CommandBudget, run_engine_steps
from tests.support import bpmn as B
from tests.unit.runtime.playing import parse

UNLIMITED = dict(max_steps=None, max_seconds=None)


def counting_loop(rounds: int) -> str:
    return B.diagram("p", lanes={"clerk": ["review"]},
                     nodes=[B.start(), B.script("count", "n = n + 1"), B.xor("again", default="f_done"),
                            B.user("review"), B.end()],
                     flows=[*B.chain("start", "count", "again"), B.flow("f_more", "again", "count", f"n < {rounds}"),
                            B.flow("f_done", "again", "review"), *B.chain("review", "end")])


def workflow(xml: str, data: dict | None = None, pid: str = "p") -> BpmnWorkflow:
    spec, subprocess_specs = parse(xml, pid)
    wf = BpmnWorkflow(spec, subprocess_specs)
    wf.task_tree.data.update(data or {})
    return wf


def review_task(wf):
    return [t for t in wf.get_tasks(state=TaskState.READY, manual=True) if t.task_spec.bpmn_id == "review"]


@pytest.mark.parametrize("rounds", [600, 2000])
def test_a_long_automatic_loop_runs_to_its_last_round_in_one_command(rounds):
    wf = workflow(counting_loop(rounds), {"n": 0})
    run_engine_steps(wf, CommandBudget(**UNLIMITED))
    [review] = review_task(wf)
    assert review.data["n"] == rounds and not wf.is_completed()
    assert len(wf.tasks) < 100  # pruned on the way: the tree stays the size of the diagram


def test_without_stepping_the_library_stops_early_and_calls_it_complete():
    # What the stepping is for (SPIFFWORKFLOW.md, "Two traps"); if the library ever stops doing
    # this, the chunking can go.
    wf = workflow(counting_loop(600), {"n": 0})
    wf.do_engine_steps()
    assert not review_task(wf)


def test_past_its_steps_the_command_stops_with_the_next_step_in_error_naming_it():
    wf = workflow(counting_loop(10 ** 9), {"n": 0})
    budget = CommandBudget(max_steps=101, max_seconds=None)
    with pytest.raises(BudgetExceeded) as caught:
        run_engine_steps(wf, budget)
    task = caught.value.task
    assert task.state == TaskState.ERROR and task.task_spec.bpmn_id in ("count", "again")
    assert str(caught.value).startswith(f"COMMAND_BUDGET: {task.task_spec.bpmn_id} was not run")
    assert "101 engine steps" in str(caught.value)
    assert budget.steps == 102
    # Spent stays spent: a second advance in the same command stops at once.
    task._set_state(TaskState.READY)
    with pytest.raises(BudgetExceeded):
        run_engine_steps(wf, budget)
    assert budget.steps == 103


class SteppingClock:
    """A time source that moves `step` seconds each time it is read."""

    def __init__(self, step: float):
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_past_its_time_the_command_stops_whatever_the_steps():
    wf = workflow(counting_loop(10 ** 9), {"n": 0})
    budget = CommandBudget(max_steps=None, max_seconds=10, clock=SteppingClock(1.0))
    with pytest.raises(BudgetExceeded, match="budget of 10 seconds"):
        run_engine_steps(wf, budget)
    assert budget.steps == 11  # the deadline was 11 (read at 1); the 11th read is at 12


def test_a_cycle_timer_of_zero_period_does_not_loop_for_ever_inside_one_command():
    timer = ('<bpmn:boundaryEvent id="every" attachedToRef="review" cancelActivity="false">'
             '<bpmn:timerEventDefinition><bpmn:timeCycle>"R/PT0S"</bpmn:timeCycle></bpmn:timerEventDefinition>'
             '</bpmn:boundaryEvent>')
    xml = B.diagram("p", lanes={"clerk": ["review"]},
                    nodes=[B.start(), B.user("review"), B.end(), timer, B.script("tick", "ticks = 1"), B.end("e2")],
                    flows=[*B.chain("start", "review", "end"), *B.chain("every", "tick", "e2")])
    wf = workflow(xml)
    with pytest.raises(BudgetExceeded, match="100 engine steps"):
        run_engine_steps(wf, CommandBudget(max_steps=100, max_seconds=None))


def test_a_process_that_calls_itself_stops_at_the_call_depth():
    xml = B.diagram("p", lanes={"clerk": []}, nodes=[B.start(), B.call("again", "p"), B.end()],
                    flows=B.chain("start", "again", "end"))
    wf = workflow(xml)
    with pytest.raises(BudgetExceeded, match="budget of 20 nested calls") as caught:
        run_engine_steps(wf, CommandBudget(max_steps=None, max_seconds=None, max_call_depth=20))
    assert max(sp.depth for sp in wf.subprocesses.values()) == 21
    # The case's error names the call that went too deep; the step it stopped waits in ERROR for a retry.
    assert caught.value.task.task_spec.bpmn_id == "again" and str(caught.value).startswith("COMMAND_BUDGET: again")
    assert caught.value.stopped.state == TaskState.ERROR and caught.value.stopped.workflow.depth == 21


def test_a_thousand_branch_split_is_stopped_by_the_time_budget():
    ids = [f"s{i}" for i in range(1000)]
    xml = B.diagram("p", lanes={"clerk": []},
                    nodes=[B.start(), B.parallel("split"), B.parallel("join"), B.end(),
                           *[B.script(i, "x = 1") for i in ids]],
                    flows=[*B.chain("start", "split"), *[B.flow(f"a{i}", "split", i) for i in ids],
                           *[B.flow(f"b{i}", i, "join") for i in ids], *B.chain("join", "end")])
    wf = workflow(xml)
    began = time.monotonic()
    with pytest.raises(BudgetExceeded, match="seconds"):
        run_engine_steps(wf, CommandBudget(max_steps=None, max_seconds=0.5))
    assert time.monotonic() - began < 30  # a generous "does not hang" bound (unbounded: minutes)


def _busy(seconds: float) -> None:
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def test_the_production_clock_counts_the_commands_own_cpu_not_time_spent_waiting_for_a_core():
    # A loaded server: while this thread waits, another one works. With the wall clock the wait
    # spent the command's seconds and a legitimate case went to error; the thread's CPU time counts
    # only the command's own work, and a runaway loop still burns it.
    assert CommandBudget(None, 3.0).clock is time.thread_time
    wf = workflow(counting_loop(10 ** 9), {"n": 0})
    budget = CommandBudget(max_steps=None, max_seconds=0.05)
    other = threading.Thread(target=_busy, args=(0.3,))
    other.start()
    other.join()
    budget.spend(wf.get_tasks(state=TaskState.READY)[0])  # not exhausted: the wait used none of this thread's CPU
    assert budget.exceeded is None
    with pytest.raises(BudgetExceeded, match="budget of 0.05 seconds"):
        run_engine_steps(wf, budget)


def test_the_production_clock_is_read_only_once_the_budget_could_be_spent(monkeypatch):
    # The thread's CPU time is a system call per read: a firing's steps read it at every step. It
    # cannot run ahead of the monotonic clock, so steps well inside the budget by that clock read it
    # not at all (the command's start reads it once).
    reads = []
    real = time.thread_time
    monkeypatch.setattr(time, "thread_time", lambda: reads.append(1) or real())
    wf = workflow(counting_loop(10 ** 9), {"n": 0})
    budget = CommandBudget(max_steps=None, max_seconds=3.0)
    for _ in range(200):
        budget.spend(wf.get_tasks(state=TaskState.READY)[0])
    assert budget.exceeded is None and len(reads) == 1
