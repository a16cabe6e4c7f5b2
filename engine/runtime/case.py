"""One case opened inside a command: its row, its version's spec and its live workflow.

Commands open a case, act on it (complete a task, deliver a message, fire timers), call
`advance` to run the engine steps that follow, and `close` to save the workflow and refresh the
projections and status columns, all in the command's transaction.
"""
from __future__ import annotations

import time
from uuid import UUID

from SpiffWorkflow.bpmn.specs.event_definitions.message import MessageEventDefinition as AnyMessageDefinition
from SpiffWorkflow.bpmn.specs.event_definitions.multiple import MultipleEventDefinition
from SpiffWorkflow.bpmn.util.event import BpmnEvent
from SpiffWorkflow.bpmn.workflow import BpmnWorkflow
from SpiffWorkflow.bpmn.exceptions import WorkflowTaskException
from SpiffWorkflow.exceptions import WorkflowException
from SpiffWorkflow.spiff.specs.event_definitions import MessageEventDefinition
from SpiffWorkflow.util.task import TaskState
from sqlalchemy import bindparam, update

from engine.definitions.repository import DefinitionInfo, info, specs_for
from engine.errors import NotFound
from engine.persistence.saveable import first_unsaveable
from engine.runtime import projections, records, stage_periods, store
from engine.runtime.failures import hold_failed, retry_failed, update_skipped_siblings
from engine.runtime.library_errors import correlation_problem
from engine.runtime.library_time import library_sees
from engine.runtime.records import CaseRecord
from engine.runtime.scopes import task_scope
from engine.runtime.serializer import to_json_value
from engine.runtime.stepping import CommandBudget, run_engine_steps

# An office change sent ahead of the saving statement on PostgreSQL (see `close`).
_MOVE_OFFICE = update(records.INSTANCE).where(records.INSTANCE.c.id == bindparam("m_id")).values(
    office=bindparam("m_office"))
_LIVE = TaskState.READY | TaskState.WAITING | TaskState.STARTED | TaskState.ERROR


def _message_definitions(task) -> list:
    # An event-based gateway waits itself, holding its branches' events in one
    # MultipleEventDefinition; its catch events only run after it chose.
    definition = getattr(task.task_spec, "event_definition", None)
    parts = definition.event_definitions if isinstance(definition, MultipleEventDefinition) else [definition]
    return [d for d in parts if isinstance(d, AnyMessageDefinition)]


def _message_names(task) -> list[str]:
    return [d.name for d in _message_definitions(task)]


class _NoScriptEngineYet:
    """A new workflow's script engine until `Case.begin` gives it the case's (sandboxed) one: any
    use before that is a mistake, never a script run unsandboxed."""

    def __getattr__(self, name):
        raise RuntimeError(f"the workflow has no script engine yet ({name})")


_NO_SCRIPT_ENGINE_YET = _NoScriptEngineYet()


class Case:
    def __init__(self, ctx, instance: CaseRecord, definition: DefinitionInfo, loaded, is_new: bool = False):
        self.ctx = ctx
        self.instance = instance
        self.definition = definition
        self.loaded = loaded
        self.is_new = is_new
        # Filled by close(): what the command answers with, without reading it back.
        self.open_tasks: list[dict] = []
        self.deadlines: list[dict] = []
        # Open task rows this command closed itself (a completion), for the projections' count.
        self.completed_here = 0
        # The case's running timer rows when the command read them itself (None: close() reads them).
        self.running_timers: list[dict] | None = None
        # Timer rows close() marked fired or cancelled (and released from any lease).
        self.settled_timers: set[int] = set()
        # Its open task rows when the command read them itself (a timer lot reads its cases' at once).
        self.open_task_rows: list[dict] | None = None
        # Where close() sends the projections' writes that return nothing: the connection, or a lot's
        # collector that runs them once for all its cases (engine/commands/timer_lot.py).
        self.writes = None
        # PostgreSQL: the task rows close() opens, inserted by the statement that saves the case
        # (nothing reads them before); None: inserted one by one as they open (SQLite).
        self.new_task_rows: list[dict] | None = None
        self.new_timer_rows: list[dict] | None = None  # the same for the timer rows it starts
        # PostgreSQL: writes of the command's that ride in the saving statement (store.Deferred: a
        # completed task's row), and the ids of the open task rows they close, which the database
        # still shows open until then.
        self.deferred_writes: list = []
        self.closed_task_ids: set[int] = set()
        # Steps that changed state after this are this command's, checked for unsaveable values.
        self._opened = time.time()

    def changed_in_this_command(self, task) -> bool:
        """Whether a step of this case changed state during the running command (letters use it)."""
        return task.last_state_change >= self._opened

    @property
    def workflow(self) -> BpmnWorkflow:
        return self.loaded.workflow

    # -- opening ---------------------------------------------------------------------------
    @classmethod
    def open(cls, ctx, instance_id: int, record: CaseRecord | None = None, state_rows: list | None = None) -> "Case":
        """The case, its row locked (FOR UPDATE) unless the command already read it that way (and its
        workflow's rows, unless read with other cases' in one statement: `timer_lot.state_rows_of`)."""
        # FOR UPDATE serializes commands on one case in PostgreSQL; the version column catches
        # anything else (SQLite writers are already serialized by BEGIN IMMEDIATE).
        record = record or records.load(ctx.conn, instance_id)
        if record is None:
            raise NotFound(f"there is no case {instance_id}")
        definition = info(ctx.versions, ctx.conn, record.definition_id)
        spec, subprocess_specs = specs_for(ctx.versions, ctx.conn, definition)
        script_engine = ctx.scripts.engine_for(ctx, record.id, record.parameters)
        loaded = store.load(ctx.conn, record, spec, subprocess_specs, script_engine, state_rows)
        return cls(ctx, record, definition, loaded)

    @classmethod
    def begin(cls, ctx, record: CaseRecord, definition: DefinitionInfo, variables: dict,
              workflow: BpmnWorkflow | None = None) -> "Case":
        """A new case of `definition`: its `workflow` (made by `new_workflow` before the case number
        was drawn, or made here) given the case's script engine and its first data."""
        workflow = workflow or cls.new_workflow(ctx, definition)
        workflow.script_engine = ctx.scripts.engine_for(ctx, record.id, record.parameters)
        workflow.task_tree.data.update(variables)
        return cls(ctx, record, definition, store.LoadedWorkflow(workflow, {}), is_new=True)

    @staticmethod
    def new_workflow(ctx, definition: DefinitionInfo) -> BpmnWorkflow:
        """A workflow of the definition, not yet a case's: it runs nothing until `begin` gives it a
        script engine."""
        spec, subprocess_specs = specs_for(ctx.versions, ctx.conn, definition)
        return BpmnWorkflow(spec, subprocess_specs, script_engine=_NO_SCRIPT_ENGINE_YET)

    # -- acting ----------------------------------------------------------------------------
    # Made at the first advance: every advance of one command draws on the same budget.
    budget: CommandBudget | None = None

    def advance(self) -> None:
        """Fire what is due and run every automatic step, within the command's budget; a failing
        script, or a command past its budget, puts the case in error."""
        if self.budget is None:
            self.budget = CommandBudget.for_command()
        # A suspended case's legal clock stands still: its timers see the instant it stopped, so
        # none of them falls due while it is suspended, whatever the command that runs it.
        with library_sees(self.instance.suspended_since or self.ctx.now):
            try:
                run_engine_steps(self.workflow, self.budget, before_prune=self._count_activity)
            except WorkflowException as exc:
                self._record_error(exc)
        # A signal nobody waits for is lost (BPMN); the library would keep it in the saved state forever.
        self.workflow.get_events()

    def spiff_task(self, spiff_task_id: str):
        task = self._find(UUID(spiff_task_id))
        if task is None:
            raise NotFound(f"task {spiff_task_id} is no longer part of case {self.instance.case_number}")
        return task

    def find_task(self, task_id: str):
        return self._find(UUID(task_id))

    def _find(self, task_id: UUID):
        for wf in self._workflows():
            if task_id in wf.tasks:
                return wf.tasks[task_id]
        return None

    def run_user_task(self, task, data: dict) -> None:
        task.data.update(data)
        with library_sees(self.ctx.now):
            try:
                task.run()
            except WorkflowException as exc:
                self._record_error(exc)
        self.advance()

    def message_catchers(self, name: str) -> list:
        """Tasks waiting right now for message `name` (catch events, boundary events, event gateways)."""
        return [task for task, names in self.waiting_catchers() if name in names]

    def waiting_catchers(self) -> list[tuple]:
        """(task, message names) for every task waiting right now for some message."""
        found = []
        for wf in self._workflows():
            for task in wf.tasks.values():
                if task.state == TaskState.WAITING:
                    names = _message_names(task)
                    if names:
                        found.append((task, names))
        return found

    def correlation_problem(self, name: str, payload: dict) -> str | None:
        """Why `payload` cannot be matched to the catchers of message `name` (a correlation
        property its retrieval expression cannot read), or None."""
        for definition in self._waiting_definitions(name):
            problem = correlation_problem(self.workflow.script_engine, definition, payload)
            if problem:
                return problem
        return None

    def _waiting_definitions(self, name: str) -> list:
        return [d for task in self.message_catchers(name) for d in _message_definitions(task) if d.name == name]

    def deliver(self, name: str, payload: dict, definition=None) -> None:
        """Message `name` (or the event `definition`, a signal) with its payload."""
        # An overdue timer must fire before a message is matched, or both branches of an
        # event-based gateway run (SPIFFWORKFLOW.md).
        self.advance()
        with library_sees(self.ctx.now):
            try:
                # The library matches a case that already holds correlation keys only against the
                # event's own keys: an event sent without them would never be caught.
                definitions = [] if definition is not None else self._waiting_definitions(name)
                correlations = definitions[0].calculate_correlations(
                    self.workflow.script_engine, definitions[0].correlation_properties, payload) if definitions else {}
                self.workflow.send_event(BpmnEvent(definition or MessageEventDefinition(name), payload, correlations))
            except WorkflowException as exc:
                self._record_error(exc)
        self.advance()

    def cancel(self) -> None:
        self.workflow.cancel()
        self.instance.status = "cancelled"
        self.instance.ended_at = self.ctx.now

    def error_tasks(self) -> list:
        return [t for wf in self._workflows() for t in wf.tasks.values() if t.state == TaskState.ERROR]

    def retry(self) -> None:
        """Re-run every failed step (after a fix to data, parameters or registries)."""
        self.instance.error_message = self.instance.error_element = None
        with library_sees(self.ctx.now):
            for task in self.error_tasks():
                try:
                    retry_failed(task)
                except WorkflowException as exc:
                    self._record_error(exc)
                    return
        self.advance()

    def _record_error(self, exc: WorkflowException) -> None:
        task = getattr(exc, "task", None)
        # The library marks a task ERROR only when its own run fails; a timer expression, a
        # multi-instance input or loop condition, a data output fail while a task is being readied
        # or completed, and would leave the case active with nothing open and the error lost.
        hold_failed(task, exc)
        # The other branches the library skipped go on, as they do beside a failed script.
        followups = update_skipped_siblings(task) if task is not None else []
        # A gateway with no true path raises with its spec and no task: name it all the same.
        spec = getattr(task, "task_spec", None) or getattr(exc, "task_spec", None)
        element = getattr(spec, "bpmn_id", None)
        message = str(exc).split("\n")[0]
        self.instance.error_message = message
        self.instance.error_element = element
        self.ctx.audit("error", instance_id=self.instance.id, element_id=element, message=message,
                       data={"error_type": getattr(exc, "error_type", type(exc).__name__),
                             "line": getattr(exc, "line_number", None)}, actor="engine")
        for other in followups:
            self._record_error(other)

    # -- closing ---------------------------------------------------------------------------
    def _workflows(self):
        return [self.workflow, *self.workflow.subprocesses.values()]

    def _count_activity(self) -> None:
        counts = dict(self.instance.activity or {})
        for wf in self._workflows():
            for task in wf.tasks.values():
                element = getattr(task.task_spec, "bpmn_id", None)
                if element and task.state == TaskState.COMPLETED and not task.internal_data.get("tramite_counted"):
                    counts[element] = counts.get(element, 0) + 1
                    task.internal_data["tramite_counted"] = True
        self.instance.activity = counts

    def variables(self) -> dict:
        """The case's data now: every live branch, and the last finished step (a branch that ended
        keeps its results there), merged oldest change first so the newest value wins."""
        wf = self.workflow
        # Sub-processes (a multi-instance sale per unit) show what their live steps know too.
        tasks = [t for w in self._workflows() for t in w.get_tasks(state=_LIVE, skip_subprocesses=True)]
        # A branch that ended keeps its results in its workflow's last finished step (a receipt issued
        # on the payment branch of a sale still running, for one).
        for w in self._workflows():
            if w.last_task is not None and w.last_task not in tasks and (w is wf or not w.is_completed()):
                tasks.append(w.last_task)
        data: dict = {}
        for task in sorted(tasks, key=lambda t: t.last_state_change):
            data.update(task.data)
        data.update(wf.data)
        # Data objects are the case-wide values every branch shares (BPMN dataObject).
        data.update(wf.data_objects)
        return data

    def task_context(self, task) -> dict:
        """What a completion rule sees: the case's variables, and the step's own scope over them
        (the unit or lot of its sub-process, the item of its multi-instance)."""
        variables = self.variables()
        own = task_scope(task) if task is not None else {}
        if own:
            variables.update(own)
            variables.update(self.workflow.data_objects)
        return variables

    def _refuse_unsaveable(self) -> None:
        """Scripts are checked as they run; a value that came another way (a decision table's
        result, a payload the case throws to itself) is taken out of this command's steps here,
        where the save would fail on it, and the step that produced it goes to error."""
        holding: dict = {}
        for wf in self._workflows():
            for task in wf.tasks.values():
                if task.last_state_change >= self._opened:
                    found = first_unsaveable(task.data)
                    while found:
                        holding.setdefault(found, []).append(task)
                        del task.data[found[0]]
                        found = first_unsaveable(task.data)
        for (_name, message), tasks in holding.items():
            first = min(tasks, key=lambda t: t.last_state_change)
            self._record_error(WorkflowTaskException(message, task=first))

    def close(self) -> None:
        instance = self.instance
        self._refuse_unsaveable()
        self._count_activity()
        variables = to_json_value(self.variables())
        instance.variables = variables
        stage_before = instance.stage
        instance.stage = variables.get("stage") if isinstance(variables.get("stage"), str) else instance.stage
        if isinstance(variables.get("outcome"), str):
            instance.outcome = variables["outcome"]
        # A diagram scopes its case to an office (MAT-08) by setting `office`; staff with another
        # office then neither see nor act on it.
        office_stored = instance.office
        if isinstance(variables.get("office"), str) and variables["office"]:
            instance.office = variables["office"]
        projections.index_case(self.ctx, instance, variables)
        if instance.status != "cancelled":
            if self.error_tasks():
                instance.status = "error"
            elif self.workflow.is_completed():
                if instance.status != "completed":
                    instance.ended_at = self.ctx.now
                    self.ctx.audit("case_completed", instance_id=instance.id, actor="engine",
                                   data={"outcome": instance.outcome})
                instance.status = "completed"
            else:
                instance.status = "active"
                instance.error_message = instance.error_element = None
        # Projections first: they read finished tasks that saving prunes away.
        postgresql = self.ctx.conn.dialect.name == "postgresql"
        if postgresql and instance.office != office_stored:
            # The kept list totals (0031) count a task under its case's office, and their triggers
            # run at the end of a statement: an office moved in the saving statement that also
            # inserts the case's new tasks counted those tasks twice. The move goes first, alone.
            self.ctx.conn.execute(_MOVE_OFFICE, {"m_id": instance.id, "m_office": instance.office})
        self.new_task_rows = [] if postgresql else None
        self.new_timer_rows = [] if postgresql else None
        self.open_tasks, self.deadlines = projections.sync(self.ctx, self)
        instance.next_due_at = min((t["due_at"] for t in self.open_tasks if t.get("due_at")), default=None)
        # PostgreSQL: the stage period's writes that need no answer ride in the saving statement.
        deferred = list(self.deferred_writes) if postgresql else None
        stage_periods.track(self.ctx, instance, stage_before, deferred)
        waiting = sorted({t.task_spec.bpmn_id for t, _ in self.waiting_catchers() if t.task_spec.bpmn_id})
        instance.workflow_meta = {**(instance.workflow_meta or {}),
                                  "tramite": {**instance.notes, "waiting_messages": waiting}}
        # The workflow, then the case row, with the history queued so far.
        store.save(self.ctx.conn, instance, self.loaded, self.ctx.take_audit, deferred or (), self.new_task_rows,
                   self.new_timer_rows, getattr(self.writes, "saves", None))
        self.new_task_rows = self.new_timer_rows = None
