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

from datetime import date, timedelta, timezone

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
    return fold(ctx.conn, ctx.now.astimezone(timezone.utc).date())


def fold(conn, today: date | None = None) -> dict:
    """Fold the deltas; with `today`, also the due days before it (case_due_total, 0032)."""
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
    if today is not None and conn.execute(FOLD_DUE_NEEDED, {"today": today}).scalar():
        day = {"today": today, "yesterday": today - timedelta(days=1)}
        whole = conn.execute(LAST_PAST_DAY).scalar() != day["yesterday"]
        out["case_due_total"] = conn.execute(FOLD_DUE_ALL if whole else FOLD_DUE_ROUND, day).rowcount
    return out


# case_due_total (0032): the overdue list sums the days before its today and never a single one of
# them, so every past day folds into one row per key, dated the day before the fold's and marked
# `folded_past` (a reader at an earlier day, a clock set back, then counts rows instead). A row
# already folded at a later day than this fold's stays as it is. A round folds the past rows (one
# per key) with the pending deltas, so a future day may have a folded row per round that wrote
# one; the first round of each day folds the whole table into one row per key and day.
_DUE_KEY = "definition_id, process_key, status, office, stage, outcome"
FOLD_DUE_NEEDED = text("SELECT EXISTS (SELECT 1 FROM case_due_total WHERE pending)"
                       " OR EXISTS (SELECT 1 FROM case_due_total WHERE due_day < :today AND NOT folded_past)")
LAST_PAST_DAY = text("SELECT max(due_day) FROM case_due_total WHERE folded_past")  # ix_case_due_total_past


def _fold_due(where: str):
    return text(
        f"WITH gone AS (DELETE FROM case_due_total {where} RETURNING {_DUE_KEY}, due_day, n, folded_past), "
        f"dated AS (SELECT {_DUE_KEY}, n, folded_past OR due_day < :today AS past,"
        f" CASE WHEN due_day < :today THEN CAST(:yesterday AS date) ELSE due_day END AS day FROM gone) "
        f"INSERT INTO case_due_total ({_DUE_KEY}, due_day, n, pending, folded_past) "
        f"SELECT {_DUE_KEY}, day, sum(n), false, past FROM dated GROUP BY {_DUE_KEY}, day, past "
        f"HAVING sum(n) <> 0")


FOLD_DUE_ALL = _fold_due("")
FOLD_DUE_ROUND = _fold_due("WHERE pending OR due_day < :today")
