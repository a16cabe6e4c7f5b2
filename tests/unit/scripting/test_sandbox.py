"""The script sandbox, exercised through real (tiny) BPMN workflows, and its step/time budget.

The environment used directly and the deploy-time check are in test_sandbox_environment.py.
"""
from __future__ import annotations

import threading
import time
from decimal import Decimal
from xml.sax.saxutils import escape

import pytest
from SpiffWorkflow.bpmn import BpmnWorkflow
from SpiffWorkflow.bpmn.exceptions import WorkflowTaskException
from SpiffWorkflow.spiff.parser.process import SpiffBpmnParser
from SpiffWorkflow.util.task import TaskState

from engine.errors import ScriptError
from engine.scripting.policy import Budget
from engine.scripting.sandbox import SandboxedEnvironment, make_script_engine

FUNCTIONS = {"double": lambda value: value * 2}

SCRIPT_PROCESS = """<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
                  id="defs" targetNamespace="http://tramite.test/sandbox">
  <bpmn:process id="scripted" isExecutable="true">
    <bpmn:startEvent id="start"><bpmn:outgoing>to_script</bpmn:outgoing></bpmn:startEvent>
    <bpmn:sequenceFlow id="to_script" sourceRef="start" targetRef="the_script" />
    <bpmn:scriptTask id="the_script" name="The script">
      <bpmn:incoming>to_script</bpmn:incoming>
      <bpmn:outgoing>to_end</bpmn:outgoing>
      <bpmn:script>{script}</bpmn:script>
    </bpmn:scriptTask>
    <bpmn:sequenceFlow id="to_end" sourceRef="the_script" targetRef="end" />
    <bpmn:endEvent id="end"><bpmn:incoming>to_end</bpmn:incoming></bpmn:endEvent>
  </bpmn:process>
</bpmn:definitions>
"""

GATEWAY_PROCESS = """<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
                  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
                  id="defs" targetNamespace="http://tramite.test/sandbox">
  <bpmn:process id="routed" isExecutable="true">
    <bpmn:startEvent id="start"><bpmn:outgoing>to_gateway</bpmn:outgoing></bpmn:startEvent>
    <bpmn:sequenceFlow id="to_gateway" sourceRef="start" targetRef="gateway" />
    <bpmn:exclusiveGateway id="gateway" default="to_low">
      <bpmn:incoming>to_gateway</bpmn:incoming>
      <bpmn:outgoing>to_high</bpmn:outgoing>
      <bpmn:outgoing>to_low</bpmn:outgoing>
    </bpmn:exclusiveGateway>
    <bpmn:sequenceFlow id="to_high" sourceRef="gateway" targetRef="high_end">
      <bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">{condition}</bpmn:conditionExpression>
    </bpmn:sequenceFlow>
    <bpmn:sequenceFlow id="to_low" sourceRef="gateway" targetRef="low_end" />
    <bpmn:endEvent id="high_end"><bpmn:incoming>to_high</bpmn:incoming></bpmn:endEvent>
    <bpmn:endEvent id="low_end"><bpmn:incoming>to_low</bpmn:incoming></bpmn:endEvent>
  </bpmn:process>
</bpmn:definitions>
"""


def gateway_workflow(condition: str, data: dict, **budget) -> BpmnWorkflow:
    parser = SpiffBpmnParser()
    parser.add_bpmn_str(GATEWAY_PROCESS.format(condition=escape(condition)).encode())
    wf = BpmnWorkflow(parser.get_spec("routed"), script_engine=make_script_engine(FUNCTIONS, **budget))
    wf.task_tree.data.update(data)
    return wf


def run_script(script: str, data: dict | None = None, **budget) -> BpmnWorkflow:
    parser = SpiffBpmnParser()
    parser.add_bpmn_str(SCRIPT_PROCESS.format(script=escape(script)).encode())
    wf = BpmnWorkflow(parser.get_spec("scripted"), script_engine=make_script_engine(FUNCTIONS, **budget))
    wf.task_tree.data.update(data or {})
    wf.do_engine_steps()
    return wf


def script_task(wf: BpmnWorkflow):
    return next(t for t in wf.get_tasks() if t.task_spec.bpmn_id == "the_script")


def assert_refused(script: str, fragment: str, data: dict | None = None, **budget) -> WorkflowTaskException:
    """The script task errors with our ScriptError, whose message survives the wrapping."""
    with pytest.raises(WorkflowTaskException) as info:
        run_script(script, {"x": 2, **(data or {})}, **budget)
    exc = info.value
    assert isinstance(exc.__cause__, ScriptError), repr(exc.__cause__)
    assert exc.error_type == "ScriptError"
    assert fragment in exc.__cause__.message
    assert fragment in str(exc)
    assert exc.task.task_spec.bpmn_id == "the_script"
    assert exc.task.state == TaskState.ERROR
    return exc


# --- scripts that must work -------------------------------------------------------------------

def test_normal_script_runs_and_writes_task_data():
    script = "\n".join([
        "y = double(x)",
        "fee = Decimal('10.10') * 3 + Decimal('0.05')",
        "total = 0",
        "for i in range(5):",
        "    total += i",
        "squares = [i * i for i in range(4) if i]",
        "pairs = {k: v for k, v in {'a': 1, 'b': 2}.items()}",
        "names = sorted(set(['b', 'a', 'b']))",
        "items = []",
        "items.append(len(names))",
        "items[0] = items[0] + 1",
        "conf = {}",
        "conf['ok'] = all([True]) and not any([])",
        "due = str(date(2024, 1, 31) + timedelta(days=20))",
        "first, second = 1, 2",
        "n = 0",
        "while n < 3:",
        "    n += 1",
        "def helper(v):",
        "    return v + 1",
        "z = helper(max(1, 2, 3))",
        "big = 2 ** 100",
        "text = 'ab' * 3",
    ])
    wf = run_script(script, {"x": 21})
    assert wf.is_completed()
    data = script_task(wf).data
    assert data["y"] == 42
    assert data["fee"] == Decimal("30.35")
    assert data["total"] == 10
    assert data["squares"] == [1, 4, 9]
    assert data["pairs"] == {"a": 1, "b": 2}
    assert data["names"] == ["a", "b"]
    assert data["items"] == [3]
    assert data["conf"] == {"ok": True}
    assert data["due"] == "2024-02-20"
    assert (data["first"], data["second"], data["n"], data["z"]) == (1, 2, 3, 4)
    assert data["big"] == 2 ** 100 and data["text"] == "ababab"
    # Whitelisted functions, builtins and functions the script defined stay out of task data.
    for name in ("double", "helper", "__builtins__", "Decimal", "len", "_tick_", "_getattr_"):
        assert name not in data


def test_ordinary_script_bugs_keep_their_own_error_type_and_line():
    with pytest.raises(WorkflowTaskException) as info:
        run_script("a = 1\nb = a / 0")
    assert info.value.error_type == "ZeroDivisionError"
    assert info.value.line_number == 2


def test_missing_attribute_raises_instead_of_answering_none():
    with pytest.raises(WorkflowTaskException) as info:
        run_script("y = x.nonexistent", {"x": 2})
    assert info.value.error_type == "AttributeError"


def test_task_variable_shadowing_a_function_is_refused():
    assert_refused("y = double(1)", "overwrites a predefined function", {"double": 3})


# --- scripts that must be refused -------------------------------------------------------------

@pytest.mark.parametrize("script, fragment", [
    ("import os", "imports are not allowed"),
    ("from os import system", "imports are not allowed"),
    ("open('/etc/passwd')", 'calling "open" is not allowed'),
    ("__import__('os')", '"__import__" is an invalid variable name'),
    ("eval('1+1')", "Eval calls are not allowed"),
    ("exec('x=1')", "Exec calls are not allowed"),
    ("().__class__.__base__.__subclasses__()", '"__class__" is an invalid attribute name'),
    ("getattr(x, '__class__')", 'calling "getattr" is not allowed'),
    ("type(1)", 'calling "type" is not allowed'),
    ("print(x)", '"print" is not available'),
    ("class A:\n    pass", "class definitions are not allowed"),
    ("g = (i for i in [1]).gi_frame", '"gi_frame" is a restricted name'),
    ("_tick_ = None", '"_tick_" is an invalid variable name'),
    ("_tick_()", '"_tick_" is an invalid variable name'),
    ("def f(_tick_):\n    return 1", '"_tick_" is an invalid'),
    ("y = (", "SyntaxError: '(' was never closed"),
])
def test_compile_time_refusals(script, fragment):
    exc = assert_refused(script, fragment)
    assert exc.line_number == 0  # the line is in the message ("Line 1: ...")


@pytest.mark.parametrize("script", [
    "y = '{0.__class__}'.format(1)",
    "y = '{0.__class__}'.format_map({})",
    "y = str.format('{0.__class__}', 1)",
    "f = '{0}'.format",
])
def test_str_format_attribute_walk_is_refused(script):
    assert_refused(script, "format")


def test_percent_formatting_cannot_walk_attributes():
    # Old-style formatting has no attribute syntax: it stays available and harmless.
    wf = run_script("y = '%s-%d' % ('a', 1)")
    assert script_task(wf).data["y"] == "a-1"


def test_writing_attributes_of_non_containers_is_refused():
    assert_refused("x.real = 3", "cannot assign into a value of type int")


@pytest.mark.parametrize("script, fragment", [
    ("x = 10 ** 10 ** 10", "power with exponent 10000000000"),
    ("x = 3\nx **= 100000", "power with exponent 100000"),
    ("y = (2 ** 5000) ** 5000", "power with exponent 5000"),
    ("y = 1 << 10 ** 7", "shift"),
    ("y = 'a' * 10 ** 7", "repeated str of 10000000 items"),
    ("y = [0] * 10 ** 7", "repeated list"),
    ("y = 10 ** 7 * (1,)", "repeated tuple"),
    ("s = 'ab'\ns *= 10 ** 7", "repeated str"),
    ("s = 'a'\nfor i in range(40):\n    s = s + s", "str of 1048576 items"),
    ("items = [1]\nitems += range(10 ** 12)", "list of 1000000000001 items"),
    ("n = 2 ** 9000\nfor i in range(40):\n    n = n * n", "product"),
])
def test_oversized_arithmetic_is_refused(script, fragment):
    assert_refused(script, fragment)


# --- the step/time budget ----------------------------------------------------------------------
# Each test injects the one limit it exercises: with the real clock and both limits set, which
# fires first depends on the machine's load (under parallel runs 1,000,000 steps outlast 2 s).

def frozen_clock() -> float:
    """Time stands still, so only the step budget can fire."""
    return 0.0


class SteppingClock:
    """A fake time source that advances `step` seconds per reading, however fast the machine."""

    def __init__(self, step: float):
        self.step, self.now = step, 0.0

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_production_budget_is_unchanged():
    for owner in (Budget(), SandboxedEnvironment(), make_script_engine(FUNCTIONS).environment):
        assert (owner.max_steps, owner.max_seconds, owner.clock) == (1_000_000, 2.0, time.thread_time)


def _busy(seconds: float) -> None:
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def test_the_production_clock_counts_the_scripts_own_cpu_not_time_spent_waiting_for_a_core():
    # A loaded server: while this thread waits, another one works (here a thread of this process
    # holding the GIL). With the wall clock the budget was spent by the wait and a legitimate
    # script failed; with the thread's CPU time only the script's own work counts.
    budget = Budget(max_steps=None, max_seconds=0.05)
    other = threading.Thread(target=_busy, args=(0.3,))
    other.start()
    other.join()
    budget.tick()  # not exhausted: the wait used none of this thread's CPU
    assert budget.exceeded is None
    with pytest.raises(ScriptError, match="time budget"):
        _busy(0.06)
        budget.tick()


def test_step_budget_fires_while_time_stands_still():
    # No second to spare (max_seconds=0), yet only steps count: the clock never moves past it.
    budget = Budget(max_steps=5, max_seconds=0.0, clock=frozen_clock)
    for _ in range(5):
        budget.tick()
    for exhausted in (budget.tick, budget.tick, budget.check):  # exhausted stays exhausted
        with pytest.raises(ScriptError, match=r"exceeded its time budget \(5 steps\)$"):
            exhausted()


def test_time_budget_fires_on_the_injected_clock():
    budget = Budget(max_steps=None, max_seconds=1.0, clock=SteppingClock(0.25))  # deadline 1.25
    for _ in range(4):  # readings 0.5, 0.75, 1.0, 1.25: not past the deadline
        budget.tick()
    with pytest.raises(ScriptError, match=r"exceeded its time budget \(1.0 seconds\)$"):
        budget.tick()  # 1.5
    assert budget.steps == 5
    with pytest.raises(ScriptError, match=r"\(1.0 seconds\)$"):
        budget.check()


def test_no_time_limit_ignores_the_clock():
    budget = Budget(max_steps=3, max_seconds=None, clock=SteppingClock(10 ** 9))
    for _ in range(3):
        budget.tick()
    with pytest.raises(ScriptError, match=r"\(3 steps\)$"):
        budget.tick()


@pytest.mark.parametrize("script", [
    "while True:\n    pass",
    "y = [i for i in range(10 ** 9)]",
    "y = sum(range(10 ** 12))",
    "y = sorted(range(10 ** 12))",
    "y = list(range(10 ** 12))",
    "y = max(range(10 ** 12))",
    "y = any(i < 0 for i in range(10 ** 12))",
    "y = dict(zip(range(10 ** 12), range(10 ** 12)))",
])
def test_budget_stops_runaway_loops_with_default_budget(script):
    assert_refused(script, "script exceeded its time budget (1000000 steps)", clock=frozen_clock)


@pytest.mark.parametrize("script", [
    "def f(n):\n    return n and f(n - 1) + f(n - 1)\ny = f(40)",
    "f = lambda g, n: n and g(g, n - 1) + g(g, n - 1)\ny = f(f, 40)",
    "for i in range(10 ** 9):\n    pass",
    "try:\n    while True:\n        pass\nexcept:\n    pass\nswallowed = 1",
])
def test_budget_bounds_recursion_loops_and_swallowed_errors(script):
    assert_refused(script, "exceeded its time budget (10000 steps)", max_steps=10_000, clock=frozen_clock)


def test_time_budget_applies_when_steps_are_plenty():
    assert_refused("while True:\n    pass", "exceeded its time budget (0.05 seconds)",
                   max_steps=10 ** 12, max_seconds=0.05, clock=SteppingClock(0.01))


def test_time_budget_reads_the_real_clock_by_default():
    # The one budget test on the real clock: with no step limit nothing races the deadline, so
    # load can only make it slower, never make it fail.
    assert_refused("while True:\n    pass", "exceeded its time budget (0.05 seconds)",
                   max_steps=None, max_seconds=0.05)


def test_budget_is_per_evaluation():
    env = SandboxedEnvironment(FUNCTIONS, max_steps=1_000, clock=frozen_clock)
    for _ in range(3):
        data = {}
        env.execute("t = 0\nfor i in range(450):\n    t += i", data)
        assert data["t"] == sum(range(450))


def test_budget_works_outside_the_main_thread():
    outcome = {}

    def worker():
        try:
            run_script("while True:\n    pass", max_steps=10_000, clock=frozen_clock)
        except WorkflowTaskException as exc:
            outcome["cause"] = exc.__cause__

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join(timeout=10)
    assert not thread.is_alive()
    assert isinstance(outcome["cause"], ScriptError)
    assert outcome["cause"].message == "script exceeded its time budget (10000 steps)"


# --- gateway conditions go through the same environment --------------------------------------

def _reached_end(wf: BpmnWorkflow) -> set[str]:
    return {t.task_spec.bpmn_id for t in wf.get_tasks(state=TaskState.COMPLETED)} & {"high_end", "low_end"}


@pytest.mark.parametrize("amount, expected", [(50, {"high_end"}), (5, {"low_end"})])
def test_gateway_condition_routes(amount, expected):
    wf = gateway_workflow("amount > 10", {"amount": amount})
    wf.do_engine_steps()
    assert wf.is_completed()
    assert _reached_end(wf) == expected


@pytest.mark.parametrize("condition, fragment", [
    ("__import__('os')", '"__import__" is an invalid variable name'),
    ("amount.__class__", '"__class__" is an invalid attribute name'),
    ("len([i for i in range(10 ** 9)]) > 0", "exceeded its time budget (1000000 steps)"),
])
def test_gateway_condition_refused(condition, fragment):
    wf = gateway_workflow(condition, {"amount": 50}, clock=frozen_clock)
    with pytest.raises(WorkflowTaskException) as info:
        wf.do_engine_steps()
    exc = info.value
    assert isinstance(exc.__cause__, ScriptError)
    assert exc.error_type == "ScriptError"
    assert fragment in str(exc)
    assert exc.task.task_spec.bpmn_id == "gateway"
    assert exc.task.state == TaskState.ERROR
