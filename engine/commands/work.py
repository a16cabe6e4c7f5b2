"""Work management for supervisors: many task commands at once, each as a single one would be."""
from __future__ import annotations

from engine.commands import tasks
from engine.kernel import access
from engine.errors import Conflict, EngineError, Forbidden, NotFound, ValidationFailed
from engine.rules.decision import RuleViolation

# A refusal without a rule code of its own is named by its kind.
_KIND_CODES = ((NotFound, "TASK_NOT_FOUND"), (Forbidden, "FORBIDDEN"), (ValidationFailed, "LANE_NOT_HELD"))


def _code(exc: Exception) -> str:
    if isinstance(exc, Conflict) and exc.code:
        return exc.code
    if isinstance(exc, RuleViolation):
        return exc.code
    for kind, code in _KIND_CODES:
        if isinstance(exc, kind):
            return code
    return "REFUSED"


def _each(engine, actor, command, task_ids, *args) -> tuple[list[int], list[dict]]:
    """Each task in its own transaction, so that one refusal does not undo the others."""
    done, refused = [], []
    for task_id in dict.fromkeys(task_ids):
        try:
            engine.execute(command, actor, task_id, *args)
        except (EngineError, RuleViolation) as exc:
            refused.append({"id": task_id, "code": _code(exc), "message": exc.message})
        else:
            done.append(task_id)
    return done, refused


def bulk_assign(engine, actor, task_ids: list[int], username: str) -> dict:
    access.require_supervisor(actor, "assign tasks")
    assigned, refused = _each(engine, actor, tasks.assign, task_ids, username)
    return {"assigned": assigned, "refused": refused}


def bulk_release(engine, actor, task_ids: list[int]) -> dict:
    access.require_supervisor(actor, "release tasks")
    released, refused = _each(engine, actor, tasks.unclaim, task_ids)
    return {"released": released, "refused": refused}
