"""Each completed task's answers as that task's own record: who gave them, when, and what.

The workflow's data carries the newest value of a name to the steps that follow (a gateway routes
on the answer just given), so two tasks asking for the same field (`recommendation` of the
evaluator and of the review board) share one variable there. Who said what is kept here instead:
the `task` row of each completion holds what that person submitted, never rewritten. A later task
reads the earlier answers from this record, and its form starts empty where the case's value is
another task's answer, so nobody submits someone else's words as their own by leaving a field as
it was drawn.
"""
from __future__ import annotations

from sqlalchemy import bindparam, select

from engine.persistence.tables import TASK

# A case that loops a thousand rounds has a thousand completions: a page reads the newest ones.
NEWEST = 200
_COMPLETED = (select(TASK.c.id, TASK.c.element_id, TASK.c.name, TASK.c.lane, TASK.c.completed_by,
                     TASK.c.completed_at, TASK.c.data)
              .where(TASK.c.instance_id == bindparam("instance_id"), TASK.c.state == "completed")
              .order_by(TASK.c.completed_at.desc(), TASK.c.id.desc()).limit(NEWEST))


def of_case(conn, instance_id: int) -> list[dict]:
    """The case's completed tasks (the newest NEWEST), oldest first: {task_id, element_id, name,
    lane, by, at, data}."""
    rows = list(conn.execute(_COMPLETED, {"instance_id": instance_id}))
    return [{"task_id": r.id, "element_id": r.element_id, "name": r.name, "lane": r.lane,
             "by": r.completed_by, "at": r.completed_at.isoformat() if r.completed_at else None,
             "data": r.data if isinstance(r.data, dict) else {}}
            for r in reversed(rows)]


def field_names(schema: dict) -> set[str]:
    """The top-level fields a form asks for: its properties and those of its `allOf` parts."""
    names = set((schema or {}).get("properties") or {})
    for part in (schema or {}).get("allOf") or []:
        if isinstance(part, dict):
            names.update(part.get("properties") or {})
    return names


def last_givers(answers: list[dict]) -> dict[str, dict]:
    """{field name: the newest completion that answered it}."""
    out: dict[str, dict] = {}
    for answer in answers:
        for name in answer["data"]:
            out[name] = answer
    return out


def prefill(element_id: str, names: set[str], variables: dict, scope: dict, answers: list[dict]) -> dict:
    """What the form of task `element_id` starts with.

    Its own scope first (the item of its multi-instance); then the case's values of its fields,
    except a value that is another task's answer (the same element's own earlier answer, a loop
    back to it, is kept). A value a script set after that answer is the case's again."""
    givers = last_givers(answers)
    out = {}
    for name in names:
        if name in (scope or {}):
            out[name] = scope[name]
            continue
        if name not in (variables or {}):
            continue
        giver = givers.get(name)
        if giver is not None and giver["element_id"] != element_id and giver["data"][name] == variables[name]:
            continue
        out[name] = variables[name]
    return out
