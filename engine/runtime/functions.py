"""The whitelist: every function a script, gateway condition or timer expression may call.

Two kinds: the engine's helpers (the clock's date, a case's frozen parameters, legal deadline
arithmetic) and the procedures' rule functions. Each rule call is written to the case history in
the same transaction, with its rule ids and inputs, so diagrams never have to record decisions.
"""
from __future__ import annotations

from contextvars import ContextVar
from datetime import date, datetime
from decimal import Decimal
from typing import Callable

from .. import calendar, parameters
from ..registries import script_api as registry_functions
from ..rules import farmer_registry
from ..rules.decision import Decision
from .scripting import make_script_engine

RULE_MODULES = (farmer_registry,)

HELPER_NAMES = frozenset({
    "today", "now", "param", "last_timely_day", "deadline_timer", "add_years", "add_months",
    "valid_until", "as_date", "money",
}) | registry_functions.NAMES

_current_element: ContextVar[str | None] = ContextVar("tramite_current_element", default=None)


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
    """Delegates to the sandboxed engine, remembering which element is running for the history."""

    def __init__(self, inner):
        self._inner = inner

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def _with_element(self, task, call):
        token = _current_element.set(getattr(task.task_spec, "bpmn_id", None))
        try:
            return call()
        finally:
            _current_element.reset(token)

    def execute(self, task, script, external_context=None):
        return self._with_element(task, lambda: self._inner.execute(task, script, external_context))

    def evaluate(self, task, expression, external_context=None):
        return self._with_element(task, lambda: self._inner.evaluate(task, expression, external_context))


def script_engine_for(ctx, instance_id: int | None, frozen: dict):
    """A sandboxed script engine whose helpers see this command's clock, case and transaction."""

    def param(name: str):
        return parameters.typed_value(name, frozen, ctx.conn)

    def today() -> date:
        return calendar.local_date(ctx.now)

    def last_timely_day(days, start=None) -> date:
        return calendar.last_timely_day(
            as_date(start) if start is not None else today(), int(days),
            roll_forward=bool(param("calendar.rollForwardNonBusinessDay")),
            holidays=calendar.parse_holidays(param("calendar.holidays") or []))

    def deadline_timer(last_day) -> str:
        return calendar.to_timer_iso(calendar.deadline_instant(as_date(last_day)))

    helpers = {
        "today": today, "now": lambda: ctx.now, "param": param,
        "last_timely_day": last_timely_day, "deadline_timer": deadline_timer,
        "add_years": lambda day, n: calendar.add_years(as_date(day), int(n)),
        "add_months": lambda day, n: calendar.add_months(as_date(day), int(n)),
        "valid_until": lambda day, n: calendar.valid_until(as_date(day), int(n)),
        "as_date": as_date, "money": money,
    }
    for name, rule in rule_functions().items():
        helpers[name] = _recorded(ctx, instance_id, name, rule)
    helpers.update(registry_functions.bind(ctx, instance_id))
    return _RecordingEngine(make_script_engine(helpers))


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
