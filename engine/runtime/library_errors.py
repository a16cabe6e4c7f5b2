"""Makes SpiffWorkflow 3.2 raise its own WorkflowException where it raises a bare Python error.

The engine turns a `WorkflowException` into a case in `error` naming the element; anything else
would escape the command as a 500. Two places in the library fail with a plain error on bad
data, both found by running such diagrams through the API:

- a parallel multi-instance whose input collection is missing or not iterable iterates `None`
  (TypeError); the sequential one already raises "Missing data input for multiinstance task";
- a message correlation property evaluates its retrieval expression on the payload or the task
  data with the bare environment (NameError, KeyError…), outside the script engine's wrapping;
- a timer whose expression gives something that is not an ISO 8601 date, duration or cycle
  (`'7 days'`, `7`) fails parsing it (ValueError, AttributeError, a bare Exception).

Each wrapper converts exactly that step, with the task, and lets everything else through.
"""
from __future__ import annotations

from collections.abc import Iterable

from SpiffWorkflow.bpmn.exceptions import WorkflowTaskException
from SpiffWorkflow.bpmn.specs.event_definitions.timer import (
    CycleTimerEventDefinition, DurationTimerEventDefinition, TimeDateEventDefinition,
)
from SpiffWorkflow.bpmn.specs.event_definitions.message import MessageEventDefinition as _BpmnMessage
from SpiffWorkflow.bpmn.specs.mixins.multiinstance_task import ParallelMultiInstanceTask
from SpiffWorkflow.exceptions import WorkflowException
from SpiffWorkflow.spiff.specs.event_definitions import MessageEventDefinition as _SpiffMessage

_create_children = ParallelMultiInstanceTask.create_children


def _checked_create_children(self, my_task):
    if self.data_input is not None:
        if not self.data_input.exists(my_task):
            self.raise_data_exception(
                f"Missing data input for multiinstance task: no variable {self.data_input.bpmn_id!r}", my_task)
        if not isinstance(self.data_input.get(my_task), Iterable):
            self.raise_data_exception(
                f"Multiinstance data input must be iterable: {self.data_input.bpmn_id!r} is "
                f"{type(self.data_input.get(my_task)).__name__}", my_task)
    return _create_children(self, my_task)


ParallelMultiInstanceTask.create_children = _checked_create_children


def correlation_problem(script_engine, definition, values: dict) -> str | None:
    """Why the correlation properties of message `definition` cannot be read from `values`, or None."""
    for prop in getattr(definition, "correlation_properties", None) or []:
        try:
            definition.calculate_correlations(script_engine, [prop], values)
        except Exception as exc:  # the retrieval expression is arbitrary Python over the values
            return (f"CORRELATION_PROPERTY_MISSING: message {definition.name!r} needs the correlation property "
                    f"{prop.name!r} ({prop.retrieval_expression}): {type(exc).__name__}: {exc}")
    return None


def _converting(calculate):
    def wrapped(self, my_task, *args):
        try:
            return calculate(self, my_task, *args)
        except WorkflowException:
            raise
        except Exception as exc:  # one retrieval expression over the payload or the task data
            raise WorkflowTaskException(
                f"CORRELATION_PROPERTY_MISSING: message {self.name!r}: a correlation property could not be "
                f"read: {type(exc).__name__}: {exc}", task=my_task, exception=exc) from exc
    return wrapped


_BpmnMessage.get_correlations = _converting(_BpmnMessage.get_correlations)
_SpiffMessage.update_task = _converting(_SpiffMessage.update_task)


_TIMER_FORMS = {TimeDateEventDefinition: "an ISO 8601 date and time with its offset",
                DurationTimerEventDefinition: "an ISO 8601 duration such as 'P7D'",
                CycleTimerEventDefinition: "an ISO 8601 cycle such as 'R6/P1D'"}


def _parsing_timer(method):
    def wrapped(self, my_task):
        try:
            return method(self, my_task)
        except WorkflowException:
            raise
        except Exception as exc:  # the library parsing the value the timer expression gave
            value = my_task.internal_data.pop("event_value", None)  # a retry evaluates it again
            shown = f" (it gave {value!r})" if value is not None else ""
            raise WorkflowTaskException(
                f"TIMER_VALUE_INVALID: the timer expression {self.expression!r} must give "
                f"{_TIMER_FORMS.get(type(self), 'a valid ISO 8601 timer value')}{shown}: {type(exc).__name__}: {exc}", task=my_task,
                exception=exc) from exc
    return wrapped


TimeDateEventDefinition.has_fired = _parsing_timer(TimeDateEventDefinition.has_fired)
DurationTimerEventDefinition.has_fired = _parsing_timer(DurationTimerEventDefinition.has_fired)
CycleTimerEventDefinition.cycle_complete = _parsing_timer(CycleTimerEventDefinition.cycle_complete)
