"""A command's history events as one JSON document, for PostgreSQL to insert in one statement.

Text arrays (`unnest(CAST(:x AS jsonb[]))`) cost the client more than the statement itself: psycopg
writes each element of an array through a regular expression that escapes its quotes, and every
event's `data` is JSON full of quotes. One JSON text is sent as it is, and the server reads it once
(`jsonb_to_recordset`). SQLite keeps SQLAlchemy's INSERT (a statement costs it no round trip).
"""
from __future__ import annotations

from engine.persistence import json_text
from engine.persistence.types import UTCDateTime

_UTC = UTCDateTime()
_COLUMNS = (("at", "timestamp"), ("actor", "varchar"), ("instance_id", "bigint"), ("task_id", "bigint"),
            ("element_id", "varchar"), ("type", "varchar"), ("data", "jsonb"), ("rule_ids", "jsonb"),
            ("message", "text"))
_NAMES = ", ".join(name for name, _ in _COLUMNS)

# The INSERT, to run alone or as a data-modifying CTE of the statement that saves a case.
INSERT_SQL = (f"INSERT INTO audit_event ({_NAMES}) SELECT {_NAMES} FROM jsonb_to_recordset(CAST(:audit_events AS jsonb))"
              f" AS e({', '.join(f'{name} {kind}' for name, kind in _COLUMNS)})")


def as_json(events: list[dict]) -> str:
    """The events as the JSON array INSERT_SQL reads: the instant as naive UTC (the column's own
    conversion), the rest as queued (its data already plain JSON)."""
    rows = []
    for event in events:
        row = dict(event)
        row["at"] = _UTC.process_bind_param(event["at"], None).isoformat()
        rows.append(row)
    return json_text.dumps(rows)
