"""The whitelist: every function a script, gateway condition or timer expression may call.

Two kinds: the engine's helpers (the clock's date, a case's frozen parameters, legal deadline
arithmetic) and the procedures' rule functions. Each rule call is written to the case history in
the same transaction, with its rule ids and inputs, so diagrams never have to record decisions.
"""
from __future__ import annotations

import functools
from contextvars import ContextVar
from datetime import date, datetime
from decimal import Decimal
from typing import Callable

from SpiffWorkflow.bpmn.specs.event_definitions.timer import TimerEventDefinition
from SpiffWorkflow.util.task import TaskState

from .. import calendar, parameters
from ..registries import materials_functions
from ..registries import bid_functions
from ..registries import notifications
from ..registries import surplus_functions
from ..registries import script_api as registry_functions
from ..rules import farmer_registry, materials_aid
from ..rules import bid_adjudication
from ..rules import surplus_disposition
from ..rules.decision import Decision
from . import records
from .scripting import make_script_engine

# A registry binding module may add hooks that need reference data the pure rules are handed.
RULE_MODULES = (farmer_registry, materials_aid, materials_functions, bid_adjudication, bid_functions,
                surplus_disposition, surplus_functions)

# Registry helpers come in modules whose `bind(ctx, instance_id)` makes them together (they share
# closures over the command).
REGISTRY_BINDINGS = (registry_functions, materials_functions, bid_functions, notifications, surplus_functions)

HELPER_NAMES = frozenset({
    "today", "now", "param", "last_timely_day", "deadline_timer", "add_years", "add_months",
    "valid_until", "as_date", "money", "extend_deadline", "local_now",
}).union(*(module.NAMES for module in REGISTRY_BINDINGS))

_current_element: ContextVar[str | None] = ContextVar("tramite_current_element", default=None)
# The task whose script is running: `extend_deadline` finds its case's workflow through it.
_current_task: ContextVar = ContextVar("tramite_current_task", default=None)


def rule_functions() -> dict[str, Callable]:
    table: dict[str, Callable] = {}
    for module in RULE_MODULES:
        table.update(getattr(module, "SCRIPT_FUNCTIONS", {}))
    return table


def completion_rule(process_key: str, element_id: str) -> Callable | None:
    for module in RULE_MODULES:
        rule = getattr(module, "COMPLETION_RULES", {}).get((process_key, element_id))
        if rule is not None:
            return rule
    return None


def message_rule(process_key: str, message_name: str) -> Callable | None:
    for module in RULE_MODULES:
        rule = getattr(module, "MESSAGE_RULES", {}).get((process_key, message_name))
        if rule is not None:
            return rule
    return None


def lane_refusal(process_key: str, element_id: str) -> dict | None:
    """The rule code a procedure gives to acting on a task outside its lane (`LANE_REFUSALS`), if any."""
    for module in RULE_MODULES:
        refusal = getattr(module, "LANE_REFUSALS", {}).get((process_key, element_id))
        if refusal is not None:
            return {"rule": [refusal[0]]}
    return None


def whitelist() -> frozenset[str]:
    """Names a deployed script may call (the deploy check refuses any other)."""
    return HELPER_NAMES | frozenset(rule_functions())


def as_date(value) -> date:
    if isinstance(value, datetime):
        return calendar.local_date(value)
    if isinstance(value, date):
        return value
    return date.fromisoformat(str(value))


def money(value) -> Decimal:
    """Exact money from form data: numbers go through their text so 0.1 stays 0.1."""
    return value if isinstance(value, Decimal) else Decimal(str(value))


class _RecordingEngine:
    """Delegates to the shared sandboxed engine, with this command's helpers bound while a script
    runs, and remembering which element is running for the history."""

    def __init__(self, inner, binding: "_Binding"):
        self._inner = inner
        self._binding = binding

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def _with_element(self, task, call):
        binding_token = _binding.set(self._binding)
        token = _current_element.set(getattr(task.task_spec, "bpmn_id", None))
        task_token = _current_task.set(task)
        try:
            return call()
        finally:
            _current_task.reset(task_token)
            _current_element.reset(token)
            _binding.reset(binding_token)

    def execute(self, task, script, external_context=None):
        return self._with_element(task, lambda: self._inner.execute(task, script, external_context))

    def evaluate(self, task, expression, external_context=None):
        return self._with_element(task, lambda: self._inner.evaluate(task, expression, external_context))


# The command whose script is running: the shared engine's helpers act on its transaction and case.
_binding: ContextVar["_Binding | None"] = ContextVar("tramite_script_binding", default=None)


class _Binding:
    """One command's helpers, each made the first time a script calls it.

    Most commands run scripts that call few helpers or none; making all of them for every command
    cost more than running the benchmark's whole workflow.
    """

    def __init__(self, ctx, instance_id: int | None, frozen: dict | None):
        self.ctx, self.instance_id, self._frozen = ctx, instance_id, frozen
        self._made: dict[str, Callable] = {}

    def helper(self, name: str) -> Callable:
        if name not in self._made:
            rule = _rules().get(name)
            if rule is not None:
                self._made[name] = _recorded(self.ctx, self.instance_id, name, rule)
            else:
                family = next((module for module in REGISTRY_BINDINGS if name in module.NAMES), None)
                self._made.update(family.bind(self.ctx, self.instance_id) if family else
                                  _engine_helpers(self.ctx, self.instance_id, self.frozen_parameters))
        return self._made[name]

    def frozen_parameters(self) -> dict:
        """The parameters the case froze at its start, read the first time a script asks."""
        if self._frozen is None:
            self._frozen = records.frozen_parameters(self.ctx.conn, self.instance_id) \
                if self.instance_id is not None else {}
        return self._frozen


def _trampoline(name: str) -> Callable:
    def call(*args, **kwargs):
        binding = _binding.get()
        if binding is None:
            raise RuntimeError(f"{name}() is available only while a case's script runs")
        return binding.helper(name)(*args, **kwargs)
    call.__name__ = name
    return call


@functools.cache
def _rules() -> dict[str, Callable]:
    return rule_functions()


@functools.cache
def _shared_engine():
    # One sandboxed engine for every case: the whitelist is fixed, only the command differs.
    return make_script_engine({name: _trampoline(name) for name in sorted(whitelist())})


def script_engine_for(ctx, instance_id: int | None, frozen: dict | None):
    """A sandboxed script engine whose helpers see this command's clock, case and transaction."""
    return _RecordingEngine(_shared_engine(), _Binding(ctx, instance_id, frozen))


def _engine_helpers(ctx, instance_id: int | None, frozen: Callable[[], dict]) -> dict[str, Callable]:
    def param(name: str):
        return parameters.typed_value(name, frozen(), ctx.conn)

    def today() -> date:
        return calendar.local_date(ctx.now)

    def last_timely_day(days, start=None) -> date:
        return calendar.last_timely_day(
            as_date(start) if start is not None else today(), int(days),
            roll_forward=bool(param("calendar.rollForwardNonBusinessDay")),
            holidays=calendar.parse_holidays(param("calendar.holidays") or []))

    def deadline_timer(last_day) -> str:
        return calendar.to_timer_iso(calendar.deadline_instant(as_date(last_day)))

    return {
        "today": today, "now": lambda: ctx.now, "param": param,
        # An arrival stamp in Puerto Rico time: the day it shows is the legal day of the act.
        "local_now": lambda: calendar.to_timer_iso(ctx.now),
        "last_timely_day": last_timely_day, "deadline_timer": deadline_timer,
        "add_years": lambda day, n: calendar.add_years(as_date(day), int(n)),
        "add_months": lambda day, n: calendar.add_months(as_date(day), int(n)),
        "valid_until": lambda day, n: calendar.valid_until(as_date(day), int(n)),
        "as_date": as_date, "money": money,
        "extend_deadline": lambda element_id, last_day: _extend_deadline(
            ctx, instance_id, str(element_id), deadline_timer(last_day)),
    }


def _waiting_timer(workflow, element_id: str):
    """The task that holds the running due time of timer `element_id` (an event gateway holds its own)."""
    for wf in (workflow, *workflow.subprocesses.values()):
        for task in wf.tasks.values():
            if task.state != TaskState.WAITING:
                continue
            if task.task_spec.bpmn_id == element_id and \
                    isinstance(getattr(task.task_spec, "event_definition", None), TimerEventDefinition):
                return task
            if any(c.task_spec.bpmn_id == element_id and c.state & TaskState.NOT_FINISHED_MASK
                   for c in task.children) and "event_value" in task.internal_data:
                return task
    return None


def _extend_deadline(ctx, instance_id, element_id: str, due: str) -> str:
    """Move a running deadline (an extension): the timer fires after the new last day, and the
    projections move its `timer` row when the command saves the case."""
    running = _current_task.get()
    if running is None:
        raise ValueError("extend_deadline() runs only inside a script task")
    waiting = _waiting_timer(running.workflow.top_workflow, element_id)
    if waiting is None:
        raise ValueError(f"no running timer {element_id!r} in this case to move")
    before = waiting.internal_data.get("event_value")
    waiting.internal_data["event_value"] = due
    ctx.audit("deadline_moved", instance_id=instance_id, element_id=element_id, actor="engine",
              data={"from": before, "to": due})
    return due


def _recorded(ctx, instance_id, name, rule):
    def call(*args, **kwargs):
        decision = rule(*args, **kwargs)
        if not isinstance(decision, Decision):
            return decision
        ctx.audit("decision", instance_id=instance_id, element_id=_current_element.get(),
                  rule_ids=decision.rule_ids, message=f"{name}: {decision.outcome}",
                  data={"rule": name, "outcome": decision.outcome, "inputs": decision.inputs,
                        **decision.details}, actor="engine")
        return decision.as_dict()
    call.__name__ = name
    return call
