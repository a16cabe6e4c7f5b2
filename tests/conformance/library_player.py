"""Plays a scenario with SpiffWorkflow alone, in memory: the library's parser, BpmnWorkflow and its
default PythonScriptEngine. No Tramite code at all (no pruning, no serializer, no database, no
sandbox): this module must not import `engine` (tests/conformance/test_harness.py checks).

Two things a bare library user must do anyway, done here as plainly as possible:

- time: the library reads `datetime.now(timezone.utc)` in its timer module; while a scenario plays,
  that module's `datetime` is swapped for one reading this player's clock (restored afterwards).
  Moving the clock fires due timers one by one at their own due instant, earliest first, as the
  contract of `PUT /api/v1/admin/clock` says;
- depth: the library's task iterator stops at depth 1000 (SPIFFWORKFLOW.md, "Two traps"), so after
  `do_engine_steps()` the player looks at every task of `workflow.tasks` and runs the READY
  automatic ones the iterator could not see, with the library's own `Task.run()`. That is the
  reference a long loop is compared with: what the library does once its iterator is out of the way.
"""
from __future__ import annotations

from contextlib import contextmanager
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal

from SpiffWorkflow.bpmn.script_engine import PythonScriptEngine, TaskDataEnvironment
from SpiffWorkflow.bpmn.specs.event_definitions import timer as timer_module
from SpiffWorkflow.bpmn.specs.event_definitions.multiple import MultipleEventDefinition
from SpiffWorkflow.bpmn.specs.event_definitions.timer import TimerEventDefinition
from SpiffWorkflow.bpmn.util.event import BpmnEvent
from SpiffWorkflow.bpmn.workflow import BpmnWorkflow
from SpiffWorkflow.exceptions import WorkflowException
from SpiffWorkflow.spiff.parser.process import VALIDATOR, SpiffBpmnParser
from SpiffWorkflow.spiff.specs.event_definitions import MessageEventDefinition, SignalEventDefinition
from SpiffWorkflow.util.task import TaskState

from tests.conformance.outcome import Outcome, evaluated, normalized, parse_duration

_LIVE = TaskState.READY | TaskState.WAITING | TaskState.STARTED | TaskState.ERROR
MAX_TIMER_FIRINGS = 500   # a clock move firing more than this is a runaway cycle (reported, not hung)


class LibraryRefused(Exception):
    """The library itself cannot parse the diagram."""


class _Clock:
    def __init__(self, now: datetime):
        self.now = now

    def datetime_class(self, nudge: timedelta = timedelta(0)):
        clock = self

        class PlayerDatetime(datetime):
            @classmethod
            def now(cls, tz=None):
                current = clock.now + nudge
                return current.astimezone(tz) if tz else current.astimezone(timezone.utc).replace(tzinfo=None)
        return PlayerDatetime


class LibraryPlayer:
    def __init__(self, files: dict[str, str | bytes], key: str, start: datetime):
        parser = SpiffBpmnParser(validator=VALIDATOR)
        try:
            for name, content in sorted(files.items()):
                raw = content if isinstance(content, bytes) else content.encode("utf-8")
                if name.endswith(".bpmn"):
                    parser.add_bpmn_str(raw, name)
                elif name.endswith(".dmn"):
                    parser.add_dmn_str(raw, name)
            self.spec = parser.get_spec(key)
            self.subprocess_specs = parser.get_subprocess_specs(key)
        except Exception as exc:  # the library's own verdict on the diagram, whatever its class
            raise LibraryRefused(f"{type(exc).__name__}: {exc}") from exc
        self.clock = _Clock(start)
        self.workflow: BpmnWorkflow | None = None
        self.error_element: str | None = None
        self.seen: set = set()
        self.outcome = Outcome("waiting")

    @contextmanager
    def _library_time(self):
        saved = timer_module.datetime
        # A timer due exactly now fires (the library compares strictly).
        timer_module.datetime = self.clock.datetime_class(timedelta(microseconds=1))
        try:
            yield
        finally:
            timer_module.datetime = saved

    # -- the steps ---------------------------------------------------------------------------
    def start(self, variables: dict):
        with self._library_time():
            # The library's own engine, given the standard names a diagram's scripts use (the
            # library's tests do the same); `datetime.now()` reads the scenario's clock.
            names = {"datetime": self.clock.datetime_class(), "date": date, "timedelta": timedelta,
                     "Decimal": Decimal}
            engine = PythonScriptEngine(environment=TaskDataEnvironment(names))
            self.workflow = BpmnWorkflow(self.spec, self.subprocess_specs, script_engine=engine)
            self.workflow.task_tree.data.update(variables)
            self._run(self._engine_steps)

    def complete(self, element_id: str, data: dict, nth: int = 0):
        ready = [t for t in self._all_tasks() if t.state == TaskState.READY and t.task_spec.manual
                 and t.task_spec.bpmn_id == element_id]
        if len(ready) <= nth:
            raise LookupError(f"no open task {element_id} #{nth}; open: {self.open_tasks()}")
        task = ready[nth]
        task.data.update(evaluated(data, task.data))
        with self._library_time():
            self._run(lambda: (task.run(), self._engine_steps()))
        if task.state == TaskState.COMPLETED:
            self.outcome.human_path.append(element_id)

    def message(self, name: str, payload: dict):
        with self._library_time():
            self._run(lambda: (self._engine_steps(),
                               self.workflow.send_event(BpmnEvent(MessageEventDefinition(name), payload)),
                               self._engine_steps()))

    def signal(self, name: str, payload: dict | None):
        with self._library_time():
            self._run(lambda: (self._engine_steps(),
                               self.workflow.send_event(BpmnEvent(SignalEventDefinition(name), payload)),
                               self._engine_steps()))

    def wait(self, duration: str):
        target = self.clock.now + parse_duration(duration)

        def move():
            for _ in range(MAX_TIMER_FIRINGS):
                due = [d for d in self._timer_dues() if d <= target]
                if not due:
                    break
                self.clock.now = max(self.clock.now, min(due))
                self._engine_steps()
            else:
                raise RuntimeError(f"more than {MAX_TIMER_FIRINGS} timer firings in one clock move")
            self.clock.now = target
            self._engine_steps()
        with self._library_time():
            self._run(move)

    # -- driving the library -------------------------------------------------------------
    def _run(self, action):
        before = self._completed_now()
        try:
            action()
        except WorkflowException as exc:
            task = getattr(exc, "task", None)
            self.error_element = getattr(getattr(task, "task_spec", None), "bpmn_id", None)
        after = self._completed_now()
        self.outcome.steps.append(sorted(after[k] for k in after.keys() - before.keys()))

    def _engine_steps(self):
        wf = self.workflow
        wf.refresh_timers()
        wf.do_engine_steps()
        # Past the iterator's depth limit: run what it could not see, oldest first.
        seen = None
        while True:
            hidden = [t for t in self._all_tasks() if t.state == TaskState.READY and not t.task_spec.manual]
            if not hidden:
                return
            if {t.id for t in hidden} == seen:
                raise RuntimeError(f"the library does not move past {[t.task_spec.bpmn_id for t in hidden]}")
            seen = {t.id for t in hidden}
            for task in sorted(hidden, key=lambda t: t.last_state_change):
                if task.state == TaskState.READY:
                    self._run_chain(task)
            wf.refresh_timers()

    def _run_chain(self, task):
        # A straight run of automatic steps, following children, without rescanning the tree.
        while task is not None:
            task.run()
            nxt = [c for c in task.children if c.state == TaskState.READY and not c.task_spec.manual]
            task = nxt[0] if len(nxt) == 1 else None

    def _workflows(self):
        wf = self.workflow
        return [wf, *wf.subprocesses.values()]

    def _all_tasks(self):
        return [t for w in self._workflows() for t in w.tasks.values()]

    def _completed_now(self) -> dict:
        return {t.id: t.task_spec.bpmn_id for t in self._all_tasks()
                if t.state == TaskState.COMPLETED and t.task_spec.bpmn_id}

    def _timer_dues(self) -> list[datetime]:
        dues = []
        for task in self._all_tasks():
            definition = getattr(task.task_spec, "event_definition", None)
            if task.state != TaskState.WAITING or definition is None:
                continue
            parts = definition.event_definitions if isinstance(definition, MultipleEventDefinition) else [definition]
            if not any(isinstance(d, TimerEventDefinition) for d in parts):
                continue
            value = task.internal_data.get("event_value")
            if isinstance(value, dict):
                value = value.get("next") if value.get("cycles") != 0 else None
            if isinstance(value, str):
                due = TimerEventDefinition.get_datetime(value)
                dues.append(due if due.tzinfo else due.replace(tzinfo=timezone.utc))
        return dues

    # -- the result --------------------------------------------------------------------------
    def open_tasks(self) -> list[str]:
        return sorted(t.task_spec.bpmn_id for t in self._all_tasks()
                      if t.state == TaskState.READY and t.task_spec.manual)

    def finish(self) -> Outcome:
        wf, out = self.workflow, self.outcome
        tasks = self._all_tasks()
        out.open_tasks = self.open_tasks()
        errors = [t for t in tasks if t.state == TaskState.ERROR]
        unfinished = [t for t in wf.tasks.values() if t.state & TaskState.NOT_FINISHED_MASK]
        if errors or self.error_element:
            out.state = "error"
            out.error_element = self.error_element or errors[0].task_spec.bpmn_id
        elif not unfinished:
            out.state = "completed"
        elif out.open_tasks or any(t.state == TaskState.WAITING for t in tasks):
            out.state = "waiting"
        else:
            out.state = "stuck"
        out.data = normalized(self._data(out.state))
        return out

    def _data(self, state: str) -> dict:
        wf = self.workflow
        if state == "completed":
            return {**wf.data, **wf.data_objects}
        live = [t for w in self._workflows() for t in w.tasks.values() if t.state & _LIVE]
        data: dict = {}
        for task in sorted(live, key=lambda t: t.last_state_change):
            data.update(task.data)
        data.update(wf.data)
        data.update(wf.data_objects)
        return data

