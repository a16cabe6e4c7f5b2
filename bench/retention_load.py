"""Bulk-load finished cases for bench/retention.py: one bench case run through the engine, then
copied server-side with generate_series (the idea of bench/pg_load.py: the database writes the
rows, Python sends one statement per chunk), its history included, ended years ago."""
from __future__ import annotations

from sqlalchemy import text

CHUNK = 100_000
# Tables holding a bench case's rows, and how each copy differs from the template's.
CHILDREN = ("workflow_task_state", "task", "audit_event", "case_stage_period")
OVERRIDES = {
    "process_instance": {"id": "g", "case_number": "'OLD-' || g",
                         "ended_at": "timestamp '2019-01-01' + g * interval '1 minute'",
                         "started_at": "timestamp '2019-01-01' + g * interval '1 minute' - interval '2 days'"},
    "task": {"spiff_task_id": "gen_random_uuid()::text"},
}


def _columns(conn, table: str) -> list[str]:
    return list(conn.execute(text("SELECT column_name FROM information_schema.columns WHERE table_name = :t "
                                  "ORDER BY ordinal_position"), {"t": table}).scalars())


def _copy(conn, table: str, key: str, template: int, first: int, last: int) -> None:
    """Copies of the template case's rows of `table` for case ids first..last (`key` = its case id column)."""
    columns = [c for c in _columns(conn, table) if not (c == "id" and table != "process_instance")]
    override = {**OVERRIDES.get(table, {}), key: "g"}
    values = ", ".join(override.get(c, f"t.{c}") for c in columns)
    conn.execute(text(f"INSERT INTO {table} ({', '.join(columns)}) SELECT {values} FROM {table} t, "
                      f"generate_series(CAST(:first AS bigint), CAST(:last AS bigint)) AS g WHERE t.{key} = :template"),
                 {"first": first, "last": last, "template": template})


def load(raw_engine, template: int, cases: int, log) -> int:
    """`cases` finished copies of case `template`, ids from template + 1000 on; the last id."""
    first = template + 1000
    with raw_engine.connect() as conn:
        for start in range(first, first + cases, CHUNK):
            end = min(start + CHUNK, first + cases) - 1
            with conn.begin():
                _copy(conn, "process_instance", "id", template, start, end)
                for table in CHILDREN:
                    _copy(conn, table, "instance_id", template, start, end)
            log(f"  loaded cases up to {end - first + 1:,}")
        conn.execute(text("SELECT setval(pg_get_serial_sequence('process_instance', 'id'), :n)"),
                     {"n": first + cases})
        conn.commit()
    with raw_engine.execution_options(isolation_level="AUTOCOMMIT").connect() as conn:
        conn.execute(text("VACUUM ANALYZE"))
    return first + cases - 1
