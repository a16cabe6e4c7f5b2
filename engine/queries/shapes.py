"""Read models: the JSON shapes of API.md, built from the projection tables, never from workflows."""
from __future__ import annotations

import json

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from engine.config import parameters
from engine.persistence.models import AuditEvent, ProcessDefinition, User
from engine.queries import deadline_words
from engine.persistence.tables import IS_OPEN, TASK, TASK_COLUMNS, TIMER
from engine.runtime.serializer import to_json_value

def jsonable(value):
    return to_json_value(value)


def _iso(value):
    return value.isoformat() if value is not None else None


def task(row, case_number: str, process_key: str) -> dict:
    """A task row (mapping or ORM object) as API.md shows it."""
    get = row.get if isinstance(row, dict) else (lambda k: getattr(row, k))
    return {
        "id": get("id"), "instance_id": get("instance_id"), "case_number": case_number,
        "process_key": process_key, "element_id": get("element_id"), "name": get("name"),
        "lane": get("lane"), "assignee": get("assignee"), "state": get("state"),
        "created_at": _iso(get("created_at")), "due_at": _iso(get("due_at")),
        "completed_at": _iso(get("completed_at")), "completed_by": get("completed_by"),
        # The inbox rank a diagram gave its case (`task_priority`, e.g. MAT-28); higher comes first.
        "priority": get("priority"),
    }


def _deadline(d) -> dict:
    out = {"name": d["name"], "element_id": d["element_id"], "due_at": _iso(d["due_at"])}
    if "explanation" in d:  # a case read back explains each deadline (deadline_words)
        out["explanation"] = d["explanation"]
    return out


def case_view(record, version: int, open_tasks: list, deadlines: list) -> dict:
    return {
        "id": record.id, "case_number": record.case_number, "process_key": record.process_key,
        "version": version, "status": record.status, "outcome": record.outcome,
        "stage": record.stage, "variables": record.variables or {},
        "open_tasks": [task(t, record.case_number, record.process_key) for t in open_tasks],
        "deadlines": [_deadline(d) for d in deadlines],
        "started_at": _iso(record.started_at), "ended_at": _iso(record.ended_at),
        "started_by": record.started_by, "office": record.office,
        "error": ({"message": record.error_message, "element_id": record.error_element}
                  if record.status == "error" else None),
        # API.md §Legal time: {since, reason, legal_basis, until} while the legal clock stands still.
        "suspension": record.notes.get("suspension") if getattr(record, "suspended_since", None) else None,
    }


def case_of(case) -> dict:
    """The answer of a command that just closed `case`."""
    return case_view(case.instance, case.definition.version, case.open_tasks, case.deadlines)


_OPEN_TASKS = (select(*TASK_COLUMNS).where(TASK.c.instance_id == bindparam("instance_id"), IS_OPEN)
               .order_by(TASK.c.id))
_DEADLINES = (select(TIMER.c.name, TIMER.c.element_id, TIMER.c.due_at)
              .where(TIMER.c.instance_id == bindparam("instance_id"), TIMER.c.fired_at.is_(None),
                     TIMER.c.cancelled.is_(False)).order_by(TIMER.c.due_at))


def open_task_rows(session: Session, instance_id: int) -> list[dict]:
    return [dict(r._mapping) for r in session.execute(_OPEN_TASKS, {"instance_id": instance_id})]


def deadline_rows(session: Session, instance_id: int) -> list[dict]:
    return [dict(r._mapping) for r in session.execute(_DEADLINES, {"instance_id": instance_id})]


def explained_deadlines(session: Session, instance_id: int, lang: str = "es") -> list[dict]:
    """The running deadlines, each with its `explanation` (staff case and the applicant's page alike),
    in Spanish unless a page asks for English."""
    deadlines = deadline_rows(session, instance_id)
    if deadlines:
        holidays = parameters.typed_value("calendar.holidays", {}, session)
        deadlines = deadline_words.with_explanations(session, instance_id, deadlines, holidays, lang)
    return deadlines


def case(session: Session, record, lang: str = "es") -> dict:
    """A stored case read back (for GET), `record` as `queries.get_instance` reads it: its row,
    version, open tasks and running deadlines (their explanation in `lang`: the API's is Spanish)."""
    # The engine notes how many timers and open tasks it left; a finished case has none to read.
    deadlines = explained_deadlines(session, record.id, lang) if record.notes.get("timers", 1) else []
    open_tasks = open_task_rows(session, record.id) if record.notes.get("open_tasks", 1) else []
    return case_view(record, record.definition_version, open_tasks, deadlines)


def history(session: Session, instance_id: int) -> list[dict]:
    return histories(session, [instance_id]).get(instance_id, [])


def histories(session: Session, instance_ids: list[int]) -> dict[int, list[dict]]:
    """{case id: its history, oldest first}: one query for a batch (the retention job's)."""
    rows = session.scalars(select(AuditEvent).where(AuditEvent.instance_id.in_(instance_ids))
                           .order_by(AuditEvent.id)).all()
    out: dict[int, list[dict]] = {}
    for e in rows:
        out.setdefault(e.instance_id, []).append(
            {"at": _iso(e.at), "actor": e.actor, "type": e.type, "element_id": e.element_id,
             "task_id": e.task_id, "data": e.data or {}, "rule_ids": e.rule_ids or [], "message": e.message})
    return out


def activity(session: Session, record) -> dict:
    """{element id: {state, count}}: counts of completed visits plus what is active or waiting now."""
    out = {element: {"state": "completed", "count": n} for element, n in (record.activity or {}).items()}
    for row in open_task_rows(session, record.id):
        out.setdefault(row["element_id"], {"count": 0})["state"] = "active"
    for row in session.execute(select(TIMER.c.element_id).where(
            TIMER.c.instance_id == record.id, TIMER.c.fired_at.is_(None), TIMER.c.cancelled.is_(False))):
        out.setdefault(row.element_id, {"count": 0})["state"] = "waiting"
    for element in (record.workflow_meta or {}).get("tramite", {}).get("waiting_messages", []):
        out.setdefault(element, {"count": 0})["state"] = "waiting"
    if record.status == "error" and record.error_element:
        out.setdefault(record.error_element, {"count": 0})["state"] = "error"
    return out


def user(u: User) -> dict:
    return {"id": u.id, "username": u.username, "full_name": u.full_name, "roles": u.role_ids,
            "office": u.office, "active": u.active, "email": u.email, "daily_digest": bool(u.daily_digest)}


def signed_in(u: User) -> dict:
    """The user a web session shows (its name falls back to the username)."""
    return {"id": u.id, "username": u.username, "full_name": u.full_name or u.username,
            "office": u.office, "roles": sorted(u.role_ids), "must_change_password": bool(u.must_change_password)}


def definition(d: ProcessDefinition, with_files: bool = False) -> dict:
    out = {"key": d.key, "version": d.version, "name": d.name, "hash": d.hash,
           "deployed_by": d.deployed_by, "deployed_at": _iso(d.deployed_at),
           "starter_lane": d.summary.get("starter_lane"), "lanes": d.summary.get("lanes", []),
           "elements": d.summary.get("elements", []), "messages": d.summary.get("messages", []),
           "children": d.summary.get("children", {})}
    if with_files:
        out["forms"] = {name: json.loads(content) for name, content in d.files.items()
                        if name.endswith(".json")}
        out["files"] = sorted(d.files)
    return out
