"""Keeps a live workflow small: finished history that the engine will never read again is cut away.

SpiffWorkflow keeps every task it ever ran in one tree. A loop makes the tree deeper each round,
so every command costs more and, past depth 1000, the library's own iterator stops seeing the
live task (SPIFFWORKFLOW.md, "Two traps"). The case's history is `audit_event`; the tree only has
to hold what the library still reads (SpiffWorkflow 3.2, read in its source):

- every unfinished task, and every ERROR task (a retry re-runs it), their parents and children (a
  waiting task's parent; a multi-instance or loop task reads its merged children by id);
- the root, and each workflow's `last_task` (a sub-process hands its last task's data back);
- for a parallel, inclusive or end join still to fire (`UnstructuredJoin`): the instances of that
  join which earlier branches left behind, cancelled, and their parents. The join counts its
  completed inputs as "the parent of an instance is COMPLETED" and merges each branch's data from
  those parents, so a branch that finished three commands ago must still be there. Only the
  instances of the current round count: a round ends when an instance of the join completes (it
  fired), and the branches of a round that already fired are dropped — the library itself would
  count them again in the next round of a loop and fire early;
- for a parallel join still to fire, the nearest ancestor of each of its incoming elements
  (`ParallelGateway` walks up from the instances it predicts inside a loop until it meets one of
  its inputs, up to the start event);
- for a boundary-event or event-start join still to fire, the split it looks up among its
  ancestors and all of that split's children (`BoundaryEventJoin` reads their states);
- every task where two kept branches meet, so the shape of what is left stays the shape it was.

Everything else is spliced out: a kept task's parent becomes its nearest kept ancestor. Splicing
keeps every ancestor relation between kept tasks (`is_descendant_of`), and the depth of the tree
stays bounded by the shape of the diagram, not the length of the case. Subprocesses whose owning
task was removed are dropped with it.
"""
from __future__ import annotations

from collections.abc import Iterable

from SpiffWorkflow.bpmn.specs.mixins.parallel_gateway import ParallelGateway
from SpiffWorkflow.bpmn.specs.mixins.unstructured_join import UnstructuredJoin
from SpiffWorkflow.bpmn.workflow import BpmnWorkflow
from SpiffWorkflow.specs.Join import Join
from SpiffWorkflow.util.task import TaskState

_KEEP_ALWAYS = TaskState.NOT_FINISHED_MASK | TaskState.ERROR


def _ancestors(tasks, task):
    """The task's ancestors, nearest first; a loop, not recursion (the tree may be deep)."""
    parent = task._parent
    while parent is not None and parent in tasks:
        found = tasks[parent]
        yield found
        parent = found._parent


def _round_of(tasks, task, spec) -> object:
    """Which round of join `spec` the instance `task` belongs to: its nearest ancestor instance of
    the join that completed (fired), or None in the first round."""
    for ancestor in _ancestors(tasks, task):
        if ancestor.task_spec is spec and ancestor.state == TaskState.COMPLETED:
            return ancestor.id
    return None


def _unstructured_join_needs(tasks, spec, instances) -> set:
    pending = [t for t in instances if t.state & TaskState.NOT_FINISHED_MASK]
    if not pending:
        return set()
    keep = set()
    rounds = {_round_of(tasks, t, spec) for t in pending}
    for task in instances:
        if task.state & TaskState.FINISHED_MASK and _round_of(tasks, task, spec) in rounds:
            keep.add(task.id)
            if task._parent is not None:
                keep.add(task._parent)
    if isinstance(spec, ParallelGateway):
        for task in pending:
            missing = set(spec.inputs)
            for ancestor in _ancestors(tasks, task):
                if not missing:
                    break
                if ancestor.task_spec in missing:
                    missing.discard(ancestor.task_spec)
                    keep.add(ancestor.id)
    return keep


def _structured_join_needs(tasks, task) -> set:
    """The split a boundary-event or start-event join finds with `find_ancestor`, and its children."""
    name = task.task_spec.split_task
    for ancestor in _ancestors(tasks, task):
        if ancestor.task_spec.name == name:
            return {ancestor.id, *ancestor._children}
    return set()


def _needed(workflow, protect: set) -> set:
    tasks = workflow.tasks
    keep = {workflow.task_tree.id} | (protect & set(tasks))
    joins: dict = {}
    for task in tasks.values():
        spec = task.task_spec
        if isinstance(spec, UnstructuredJoin):
            joins.setdefault(spec, []).append(task)
        if task.state & _KEEP_ALWAYS:
            keep.add(task.id)
            if task._parent is not None:
                keep.add(task._parent)
            keep.update(task._children)
            if isinstance(spec, Join) and spec.split_task is not None and task.state & TaskState.NOT_FINISHED_MASK:
                keep |= _structured_join_needs(tasks, task)
    for spec, instances in joins.items():
        keep |= _unstructured_join_needs(tasks, spec, instances)
    if workflow.last_task is not None:
        keep.add(workflow.last_task.id)
    keep &= set(tasks)

    # Branch points: a task two or more of whose children lead to kept tasks.
    leads_to: dict = {}
    for task_id in keep:
        child, parent = task_id, tasks[task_id]._parent
        while parent is not None and parent in tasks:
            seen = leads_to.setdefault(parent, set())
            already = child in seen
            seen.add(child)
            if already:
                break
            child, parent = parent, tasks[parent]._parent
    keep.update(p for p, children in leads_to.items() if len(children) > 1)
    return keep


def _prune_one(workflow, protect: set) -> set:
    tasks = workflow.tasks
    root = workflow.task_tree
    keep = _needed(workflow, protect)
    if len(keep) == len(tasks):
        return set()

    def kept_ancestor(task_id):
        parent = tasks[task_id]._parent
        while parent is not None and parent not in keep:
            parent = tasks[parent]._parent
        return parent

    new_parent = {tid: kept_ancestor(tid) for tid in keep if tid != root.id}
    new_children: dict = {tid: [] for tid in keep}
    # Walk in tree order so children lists keep their original left-to-right order.
    for task in list(_tree_order(root, tasks)):
        if task.id in new_parent and new_parent[task.id] is not None:
            new_children[new_parent[task.id]].append(task.id)
    removed = set(tasks) - keep
    for tid, parent in new_parent.items():
        tasks[tid]._parent = parent
    for tid, children in new_children.items():
        tasks[tid]._children = children
    for tid in removed:
        del tasks[tid]
    if workflow.last_task is not None and workflow.last_task.id not in tasks:
        workflow.last_task = None
    return removed


def _tree_order(root, tasks):
    stack = [root.id]
    while stack:
        tid = stack.pop()
        task = tasks.get(tid)
        if task is None:
            continue
        yield task
        stack.extend(reversed(task._children))


def prune(workflow: BpmnWorkflow, protect: Iterable = ()) -> int:
    """Splice finished history out of the top workflow and its subprocesses; returns tasks removed.

    `protect` names tasks to keep although the library no longer needs them (a command that prunes
    while it runs keeps what its projections will still read when it ends)."""
    protect = set(protect)
    removed = 0
    for sub in list(workflow.subprocesses.values()):
        removed += len(_prune_one(sub, protect))
    removed += len(_prune_one(workflow, protect))
    # A subprocess lives as long as the task that owns it (in any workflow of the case).
    while True:
        alive = set(workflow.tasks)
        for sub in workflow.subprocesses.values():
            alive.update(sub.tasks)
        orphans = [sp for sp in workflow.subprocesses if sp not in alive]
        if not orphans:
            break
        for owner in orphans:
            del workflow.subprocesses[owner]
    # The event manager holds waiting tasks by reference; none of those is ever removed, but a
    # finished one it still listed must not outlive its tree.
    manager = workflow.event_manager
    for task_id, task in list(manager.tasks.items()):
        if task_id not in task.workflow.tasks or (task.workflow is not workflow
                                                  and task.workflow.parent_task_id not in alive):
            manager.remove_task(task)
    return removed
