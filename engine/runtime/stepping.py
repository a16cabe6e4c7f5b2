"""Runs a case's automatic steps within one command's budget, pruning as it goes.

`BpmnWorkflow.do_engine_steps` loops until nothing automatic is ready, with no bound: a
self-calling call activity, a cycle timer `R/PT0S` or a 1,000-branch split held one command (and
the database's write lock) for minutes or for ever. And its task iterator stops at depth 1000, so
an automatic loop of a few hundred rounds inside one command looked finished with a task still
ready (SPIFFWORKFLOW.md, "Two traps"). Here the same passes run one at a time (the library's own
`_do_engine_steps`, exactly what `do_engine_steps` repeats); whenever the tree has grown by
`PRUNE_GROWTH` tasks the finished history is pruned, so the tree never gets deep; and each step
is charged to the command's `CommandBudget`. Past the budget, the step about to run is put in ERROR with a
`COMMAND_BUDGET` message naming it, the case goes to `error` like any failing step, the command
ends normally and saves that state, and a retry runs on from there with a fresh budget.
"""
from __future__ import annotations

import math
import time
from collections.abc import Callable

from SpiffWorkflow.bpmn.exceptions import WorkflowTaskException
from SpiffWorkflow.exceptions import WorkflowException
from SpiffWorkflow.util.task import TaskState

from engine.config.settings import command_budget
from engine.runtime.pruning import prune

# How many tasks the workflow may grow by before it is pruned while it runs. Every pass of the
# library walks the whole tree (once for ready tasks, once per completion for waiting ones), so a
# long automatic loop costs the size of its tree per step: a small tree keeps it linear, and a
# pruned tree never nears the library's depth limit of 1000. Most commands grow by less than
# this and never prune before they save.
PRUNE_GROWTH = 40


def _size(workflow) -> int:
    return len(workflow.tasks) + sum(len(sp.tasks) for sp in workflow.subprocesses.values())


class BudgetExceeded(WorkflowTaskException):
    """The command spent its budget; `task` is the step that was about to run."""

    def __init__(self, task, limit: str, named=None):
        named = named or task  # the element the case's error names (a call too deep: the call)
        element = named.task_spec.bpmn_id or named.task_spec.name
        # Not WorkflowTaskException.__init__: its task trace gives up (raising) past 1000 nested calls.
        WorkflowException.__init__(self, f"COMMAND_BUDGET: {element} was not run: this command "
                                         f"spent its budget of {limit}", task_spec=named.task_spec)
        self.task = named
        self.stopped = task
        self.limit = limit
        self.line_number = self.offset = self.error_line = None
        self.error_type = "CommandBudget"


class CommandBudget:
    """Engine steps, CPU time and call depth one command may use; spent stays spent.

    `clock` is the time source (seconds, never going back), so a test can run out of time without
    waiting; None for a limit means no such limit. The production clock is the running thread's CPU
    time, as the script budget's (engine.scripting.policy.SCRIPT_CLOCK): on a loaded server a
    legitimate command waiting for a core spent its 3 wall-clock seconds and left its case in error
    (seen under CI-like load: a bid case with no open task after its offers), while a runaway
    diagram burns its own CPU and is stopped as before; engine steps do not block."""

    def __init__(self, max_steps: int | None, max_seconds: float | None, max_call_depth: int | None = None,
                 clock: Callable[[], float] | None = None):
        self.max_steps, self.max_seconds, self.max_call_depth = max_steps, max_seconds, max_call_depth
        self.clock = clock = time.thread_time if clock is None else clock
        self.steps = 0
        self._step_limit = math.inf if max_steps is None else max_steps
        self._depth_limit = math.inf if max_call_depth is None else max_call_depth
        self.deadline = math.inf if max_seconds is None else clock() + max_seconds
        # The thread's CPU time is a system call (~2 µs on issue 21's VM, where a firing's steps read it
        # a few times each): it never runs ahead of the monotonic clock (~0.1 µs, no system call), so it
        # is read only once the monotonic clock says the budget could be spent. A test's clock is read
        # at every step, as before.
        self._read_clock_at = (time.monotonic() + max_seconds if clock is time.thread_time and max_seconds is not None
                               else -math.inf)
        self.exceeded: str | None = None

    @classmethod
    def for_command(cls) -> "CommandBudget":
        steps, seconds, depth = command_budget()
        return cls(steps, seconds, depth)

    def spend(self, task) -> None:
        """Charge one step about to run; past the budget the step is marked ERROR and not run."""
        self.steps += 1
        named = None
        if self.exceeded is None:
            if self.steps > self._step_limit:
                self.exceeded = f"{self.max_steps} engine steps"
            elif getattr(task.workflow, "depth", 0) > self._depth_limit:
                self.exceeded = f"{self.max_call_depth} nested calls or sub-processes"
                named = task.workflow.top_workflow.get_task_from_id(task.workflow.parent_task_id)
            elif time.monotonic() >= self._read_clock_at and self._past_deadline():
                self.exceeded = f"{self.max_seconds:g} seconds"
            else:
                return
        task._set_state(TaskState.ERROR)
        raise BudgetExceeded(task, self.exceeded, named)

    def _past_deadline(self) -> bool:
        left = self.deadline - self.clock()
        if left < 0:
            return True
        if self._read_clock_at != -math.inf:  # the CPU left cannot be spent sooner than this
            self._read_clock_at = time.monotonic() + left
        return False


def run_engine_steps(workflow, budget: CommandBudget, before_prune: Callable[[], None] | None = None) -> None:
    """What `refresh_timers(); do_engine_steps()` does, bounded by `budget` and pruned on the way.

    `before_prune` runs before each prune (the case counts the visits it is about to lose). The
    tasks waiting for an event when the steps began are kept: the timer projection reads, when the
    command ends, whether each one fired."""
    waiting = set(workflow.event_manager.tasks)
    workflow.refresh_timers()
    pruned_at = _size(workflow)
    while workflow._do_engine_steps(will_complete_task=budget.spend):
        if _size(workflow) > pruned_at + PRUNE_GROWTH:
            if before_prune is not None:
                before_prune()
            prune(workflow, protect=waiting)
            pruned_at = _size(workflow)
    workflow.refresh_timers()
