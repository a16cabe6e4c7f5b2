"""New open task rows and running timer rows as JSON documents, for PostgreSQL to insert within the
statement that saves their case (one round trip fewer than an INSERT of their own per row,
engine/runtime/store.py)."""
from __future__ import annotations

from engine.persistence import json_text
from engine.persistence.types import UTCDateTime

_UTC = UTCDateTime()
_COLUMNS = (("spiff_task_id", "varchar"), ("element_id", "varchar"), ("name", "varchar"), ("lane", "varchar"),
            ("assignee", "varchar"), ("state", "varchar"), ("priority", "integer"), ("created_at", "timestamp"),
            ("due_at", "timestamp"), ("completed_at", "timestamp"), ("completed_by", "varchar"), ("data", "text"))
_NAMES = ", ".join(name for name, _ in _COLUMNS)
_TIMES = ("created_at", "due_at", "completed_at")

# `data` travels as JSON text and is cast here: a task without one holds JSON null, as SQLAlchemy's
# JSON type writes Python None (a JSON null inside the recordset would read as SQL NULL).
INSERT_SQL = (f"INSERT INTO task (instance_id, {_NAMES}) SELECT :iid, "
              + ", ".join("CAST(v.data AS jsonb)" if name == "data" else f"v.{name}" for name, _ in _COLUMNS)
              + f" FROM jsonb_to_recordset(CAST(:new_tasks AS jsonb)) AS v({', '.join(f'{n} {k}' for n, k in _COLUMNS)})"
              " RETURNING id, spiff_task_id")


def as_json(rows: list[dict]) -> str:
    out = []
    for row in rows:
        item = {name: row[name] for name, _ in _COLUMNS}
        for name in _TIMES:
            if item[name] is not None:
                item[name] = _UTC.process_bind_param(item[name], None).isoformat()
        item["data"] = json_text.dumps(row["data"])
        out.append(item)
    return json_text.dumps(out)


def fill_ids(rows: list[dict], ids_json: str | None) -> None:
    """Each row's id, from the statement's {spiff task id: row id}."""
    if not rows:
        return
    ids = json_text.loads(ids_json)
    for row in rows:
        row["id"] = ids[row["spiff_task_id"]]


_TIMER_COLUMNS = (("spiff_task_id", "varchar"), ("element_id", "varchar"), ("name", "varchar"),
                  ("due_at", "timestamp"))
_TIMER_NAMES = ", ".join(name for name, _ in _TIMER_COLUMNS)
# cancelled and attempts as the model's defaults write them; the rest NULL.
TIMER_INSERT_SQL = (f"INSERT INTO timer (instance_id, {_TIMER_NAMES}, cancelled, attempts) SELECT :iid, "
                    + ", ".join(f"v.{name}" for name, _ in _TIMER_COLUMNS) + ", false, 0"
                    + " FROM jsonb_to_recordset(CAST(:new_timers AS jsonb)) AS "
                    + f"v({', '.join(f'{n} {k}' for n, k in _TIMER_COLUMNS)})")


def timers_as_json(rows: list[dict]) -> str:
    return json_text.dumps([{**{name: row[name] for name, _ in _TIMER_COLUMNS},
                             "due_at": _UTC.process_bind_param(row["due_at"], None).isoformat()} for row in rows])
