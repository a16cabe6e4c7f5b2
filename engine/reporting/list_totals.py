"""Totals kept beside the rows, so a list's exact X-Total-Count is a sum of a few rows (PostgreSQL).

At 1,000,000 cases and 10,000,000 task rows every list page is the head of an index (< 20 ms),
and the contract's exact total was a count of 10^4-10^6 index entries (150-1,400 ms;
bench/RESULTS.md). The totals are kept instead, exact, in two tables (migration 0031):
`case_total` (version, process, status, office, stage, outcome: n) and `task_total` (state, lane,
assignee, the case's office and process: n).

Insert-only deltas, never a counter updated in place: one row per key would be a hot row every
case start and every claim would queue on (a row lock held to commit). Triggers write +n / -n rows
in the changing transaction, so a total is exactly as committed as the rows it counts, for every
writer: commands, the retention purge, a bulk load, a later migration. Statement triggers with
transition tables take a bulk statement's rows in one grouped INSERT; updates use row triggers
whose WHEN skips, without a function call, the updates that change no counted column.

This module folds them: each worker round (`compact`, the timer worker's one line) replaces the
table's rows by one row per key with their sum (DELETE ... RETURNING into INSERT, one statement,
so a reader sees either the deltas or their sums, never both), dropping keys that sum to zero.
A writer's delta committed meanwhile is not in the DELETE's snapshot and stays for the next round.
Two workers do not fold at once (a transaction advisory lock; PgBouncer's transaction mode keeps
it). A round with no delta since the last fold reads the small table and writes nothing.

Readers (engine/queries/list_totals.py) sum folded and pending rows alike, so the totals are right
whether or not a round has run; the rounds only keep the tables small (thousands of keys, not one
row per change). SQLite keeps no totals: its lists count their rows."""
from __future__ import annotations

from sqlalchemy import text

from engine.identity.actor import SYSTEM

# pg_try_advisory_xact_lock's key for the fold ("totals" in ASCII).
FOLD_LOCK = 0x746F74616C73
KEYS = {"case_total": "definition_id, process_key, status, office, stage, outcome",
        "task_total": "state, lane, assignee, office, process_key"}


def fold_round(engine) -> dict:
    """The timer worker's call each round; SQLite keeps no totals (and no transaction is opened)."""
    return {} if engine.db.is_sqlite else engine.execute(compact, SYSTEM)


def compact(ctx) -> dict:
    """The worker's round (engine.execute(compact, SYSTEM)): fold each table that has deltas."""
    return fold(ctx.conn)


def fold(conn) -> dict:
    if conn.dialect.name != "postgresql":
        return {}
    if not conn.execute(text("SELECT pg_try_advisory_xact_lock(:k)"), {"k": FOLD_LOCK}).scalar():
        return {"busy": True}
    out = {}
    for table, key in KEYS.items():
        if conn.execute(text(f"SELECT EXISTS (SELECT 1 FROM {table} WHERE pending)")).scalar():
            out[table] = conn.execute(text(
                f"WITH gone AS (DELETE FROM {table} RETURNING {key}, n) "
                f"INSERT INTO {table} ({key}, n, pending) SELECT {key}, sum(n), false FROM gone "
                f"GROUP BY {key} HAVING sum(n) <> 0")).rowcount
    return out
