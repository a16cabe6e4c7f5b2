"""One case opened inside a command: its row, its version's spec and its live workflow.

Commands open a case, act on it (complete a task, deliver a message, fire timers), call
`advance` to run the engine steps that follow, and `close` to save the workflow and refresh the
projections and status columns, all in the command's transaction.
"""
from __future__ import annotations

from uuid import UUID

from SpiffWorkflow.bpmn.specs.event_definitions.message import MessageEventDefinition as AnyMessageDefinition
from SpiffWorkflow.bpmn.specs.event_definitions.multiple import MultipleEventDefinition
from SpiffWorkflow.bpmn.util.event import BpmnEvent
from SpiffWorkflow.bpmn.workflow import BpmnWorkflow
from SpiffWorkflow.exceptions import WorkflowException
from SpiffWorkflow.spiff.specs.event_definitions import MessageEventDefinition
from SpiffWorkflow.util.task import TaskState
from engine.definitions.repository import DefinitionInfo, info, specs_for
from engine.errors import NotFound
from engine.runtime import projections, records, store
from engine.runtime.library_time import library_sees
from engine.runtime.records import CaseRecord
from engine.runtime.serializer import to_json_value

_LIVE = TaskState.READY | TaskState.WAITING | TaskState.STARTED | TaskState.ERROR


def _message_names(task) -> list[str]:
    # An event-based gateway waits itself, holding its branches' events in one
    # MultipleEventDefinition; its catch events only run after it chose.
    definition = getattr(task.task_spec, "event_definition", None)
    parts = definition.event_definitions if isinstance(definition, MultipleEventDefinition) else [definition]
    return [d.name for d in parts if isinstance(d, AnyMessageDefinition)]


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

    @property
    def workflow(self) -> BpmnWorkflow:
        return self.loaded.workflow

    # -- opening ---------------------------------------------------------------------------
    @classmethod
    def open(cls, ctx, instance_id: int, record: CaseRecord | None = None) -> "Case":
        """The case, its row locked (FOR UPDATE) unless the command already read it that way."""
        # FOR UPDATE serializes commands on one case in PostgreSQL; the version column catches
        # anything else (SQLite writers are already serialized by BEGIN IMMEDIATE).
        record = record or records.load(ctx.conn, instance_id)
        if record is None:
            raise NotFound(f"there is no case {instance_id}")
        definition = info(ctx.versions, ctx.conn, record.definition_id)
        spec, subprocess_specs = specs_for(ctx.versions, ctx.conn, definition)
        script_engine = ctx.scripts.engine_for(ctx, record.id, record.parameters)
        loaded = store.load(ctx.conn, record, spec, subprocess_specs, script_engine)
        return cls(ctx, record, definition, loaded)

    @classmethod
    def begin(cls, ctx, record: CaseRecord, definition: DefinitionInfo, variables: dict) -> "Case":
        spec, subprocess_specs = specs_for(ctx.versions, ctx.conn, definition)
        script_engine = ctx.scripts.engine_for(ctx, record.id, record.parameters)
        workflow = BpmnWorkflow(spec, subprocess_specs, script_engine=script_engine)
        workflow.task_tree.data.update(variables)
        return cls(ctx, record, definition, store.LoadedWorkflow(workflow, {}), is_new=True)

    # -- acting ----------------------------------------------------------------------------
    def advance(self) -> None:
        """Fire what is due and run every automatic step; a failing script puts the case in error."""
        with library_sees(self.ctx.now):
            try:
                self.workflow.refresh_timers()
                self.workflow.do_engine_steps()
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

    def deliver(self, name: str, payload: dict, definition=None) -> None:
        """Message `name` (or the event `definition`, a signal) with its payload."""
        # An overdue timer must fire before a message is matched, or both branches of an
        # event-based gateway run (SPIFFWORKFLOW.md).
        self.advance()
        with library_sees(self.ctx.now):
            try:
                self.workflow.send_event(BpmnEvent(definition or MessageEventDefinition(name), payload))
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
        """Re-run every failed task (after a fix to data, parameters or registries)."""
        self.instance.error_message = self.instance.error_element = None
        with library_sees(self.ctx.now):
            for task in self.error_tasks():
                try:
                    task._set_state(TaskState.READY)
                    task.run()
                except WorkflowException as exc:
                    self._record_error(exc)
                    return
        self.advance()

    def _record_error(self, exc: WorkflowException) -> None:
        task = getattr(exc, "task", None)
        # A gateway with no true path raises with its spec and no task: name it all the same.
        spec = getattr(task, "task_spec", None) or getattr(exc, "task_spec", None)
        element = getattr(spec, "bpmn_id", None)
        message = str(exc).split("\n")[0]
        self.instance.error_message = message
        self.instance.error_element = element
        self.ctx.audit("error", instance_id=self.instance.id, element_id=element, message=message,
                       data={"error_type": getattr(exc, "error_type", type(exc).__name__),
                             "line": getattr(exc, "line_number", None)}, actor="engine")

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
        """What a completion rule sees: the case's variables, and for a step inside a sub-process
        its own scope first (the unit or lot it is about)."""
        variables = self.variables()
        if task is not None and task.workflow is not self.workflow:
            variables.update(task.data)
            variables.update(self.workflow.data_objects)
        return variables

    def close(self) -> None:
        instance = self.instance
        self._count_activity()
        variables = to_json_value(self.variables())
        instance.variables = variables
        instance.stage = variables.get("stage") if isinstance(variables.get("stage"), str) else instance.stage
        if isinstance(variables.get("outcome"), str):
            instance.outcome = variables["outcome"]
        # A diagram scopes its case to an office (MAT-08) by setting `office`; staff with another
        # office then neither see nor act on it.
        if isinstance(variables.get("office"), str) and variables["office"]:
            instance.office = variables["office"]
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
        self.open_tasks, self.deadlines = projections.sync(self.ctx, self)
        instance.next_due_at = min((t["due_at"] for t in self.open_tasks if t.get("due_at")), default=None)
        waiting = sorted({t.task_spec.bpmn_id for t, _ in self.waiting_catchers() if t.task_spec.bpmn_id})
        instance.workflow_meta = {**(instance.workflow_meta or {}),
                                  "tramite": {**instance.notes, "waiting_messages": waiting}}
        store.save(self.ctx.conn, instance, self.loaded)
        records.save(self.ctx.conn, instance)
