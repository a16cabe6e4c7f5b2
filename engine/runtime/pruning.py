"""Keeps a live workflow small: finished history that the engine will never read again is cut away.

SpiffWorkflow keeps every task it ever ran in one tree. A loop makes the tree deeper each round,
so every command costs more and, past depth 1000, the library's own iterator stops seeing the
live task (SPIFFWORKFLOW.md, "Two traps"). The case's history is `audit_event`; the tree only has
to hold what the library still reads:

- every unfinished task, and every ERROR task (a retry re-runs it);
- their parents and children (joins read a waiting task's parent; a multi-instance task reads
  its merged children);
- every task where two kept branches meet (boundary-event and start-event joins look up their
  split among the ancestors);
- the root, and the workflow's `last_task`.

Everything else is spliced out: a kept task's parent becomes its nearest kept ancestor, so the
depth of the tree stays bounded by the shape of the diagram, not the length of the case.
Subprocesses whose owning task was removed are dropped with it.
"""
from __future__ import annotations

from SpiffWorkflow.bpmn.workflow import BpmnWorkflow
from SpiffWorkflow.util.task import TaskState

_KEEP_ALWAYS = TaskState.NOT_FINISHED_MASK | TaskState.ERROR


def _prune_one(workflow) -> set:
    tasks = workflow.tasks
    root = workflow.task_tree
    keep = {root.id}
    for task in tasks.values():
        if task.state & _KEEP_ALWAYS:
            keep.add(task.id)
            if task._parent is not None:
                keep.add(task._parent)
            keep.update(task._children)
    if workflow.last_task is not None and workflow.last_task.id in tasks:
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


def prune(workflow: BpmnWorkflow) -> int:
    """Splice finished history out of the top workflow and its subprocesses; returns tasks removed."""
    removed = 0
    for sub in list(workflow.subprocesses.values()):
        removed += len(_prune_one(sub))
    removed_top = _prune_one(workflow)
    removed += len(removed_top)
    # A subprocess lives as long as the task that owns it (in any workflow of the case).
    while True:
        alive = set(workflow.tasks)
        for sub in workflow.subprocesses.values():
            alive.update(sub.tasks)
        orphans = [sp for sp in workflow.subprocesses if sp not in alive]
        if not orphans:
            return removed
        for owner in orphans:
            del workflow.subprocesses[owner]
