"""Bulk-load 1,000,000 cases, 10,000,000 task rows and their history into the tables with COPY.

The real procedures of processes/ are deployed first (so versions_with_lanes, lanes, element ids and
names are the real ones); then rows shaped like the engine's own: case numbers <PREFIX>-<year>-<n>,
30 % of the cases active (one open task, 10 % two), 2 % in error, 3 % cancelled; every completed
task carries its completer as assignee (as engine/commands/tasks.py writes it); a third of the open
tasks claimed; due dates on 80 % of the open tasks, some past the clock; offices on materials_aid
cases (regional offices). Staff users: a few per lane, with a skewed share of the work."""
from __future__ import annotations

import json
import random
import time
import uuid
from datetime import datetime, timedelta, timezone

import psycopg
from sqlalchemy.engine import make_url

from engine.definitions.case_index import fold

from .common import ROOT

# Share of the cases per process key.
MIX = {"materials_aid": 0.35, "farmer_registry_admission": 0.20, "farmer_registry_membership": 0.10,
       "surplus_disposition": 0.15, "bid_adjudication": 0.20}
PREFIX = {"farmer_registry_admission": "FAR", "farmer_registry_membership": "FAR", "surplus_disposition": "SUR",
          "materials_aid": "MAT", "bid_adjudication": "BID"}
USERS_PER_LANE = 8
PASSWORD = "bench-secreto-123"


def libpq(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def offices() -> list[str]:
    data = json.loads((ROOT / "processes" / "materials_aid" / "regional_offices.json").read_text())
    return [o["id"] for o in data["offices"]]


def staff(definitions: list[dict]) -> dict[str, list[tuple[str, str | None]]]:
    """{lane: [(username, office)]}: USERS_PER_LANE users per lane; materials_aid lanes get offices."""
    offs = offices()
    office_lanes = {"regional_office", "regional_director"}
    out = {}
    for lane in sorted({lane for d in definitions for lane in d["lanes"]}):
        out[lane] = [(f"{lane}_{i:02d}", offs[i % len(offs)] if lane in office_lanes else None)
                     for i in range(USERS_PER_LANE)]
    return out


def _definitions(conn) -> list[dict]:
    out = []
    for def_id, key, summary in conn.execute("SELECT id, key, summary FROM process_definition ORDER BY id"):
        elements = {e["id"]: e for e in summary["elements"] if e.get("process") == key}
        user_tasks = [t for t in summary["user_tasks"] if t in elements] or list(summary["user_tasks"])
        every = {e["id"]: e for e in summary["elements"]}
        out.append({"id": def_id, "key": key, "lanes": summary["lanes"],
                    "starter": summary["starter_lane"],
                    "tasks": [(t, every[t].get("name") or t, every[t].get("lane")) for t in user_tasks]})
    return out


def _pick(rng: random.Random, people: list[tuple[str, str | None]], office: str | None = None):
    if office is not None:
        local = [p for p in people if p[1] == office]
        people = local or people
    weights = [1 / (i + 1) for i in range(len(people))]  # the first user of a lane works the most
    return rng.choices(people, weights)[0][0]


# Applicants' names as an office has them, accents included: the search folds them (0016).
FIRST = ("María", "José", "Ana", "Luis", "Carmen", "Ramón", "Sofía", "Ángel", "Nélida", "Héctor")
LAST = ("Rivera", "Rodríguez", "Ortiz", "Núñez", "Colón", "Santiago", "Pérez", "Cruz", "Vázquez", "Torres")


# A completed task's answers: two shapes, serialized once (10,000,000 json.dumps calls are minutes).
ANSWERS = (json.dumps({"approved": True, "note": "Revisado conforme"}),
           json.dumps({"approved": False, "note": "Revisado conforme"}))
naive = lambda t: t.replace(tzinfo=None) if t else None  # noqa: E731 - naive UTC, as UTCDateTime stores


def _counts(rng: random.Random, cases: int, tasks: int) -> list[int]:
    """Tasks per case: 5..15 (mean 10), nudged so the total is exactly `tasks`."""
    counts = [rng.randint(5, 15) for _ in range(cases)]
    diff = tasks - sum(counts)
    while diff:
        i = rng.randrange(cases)
        step = 1 if diff > 0 else -1
        if 2 <= counts[i] + step <= 30:
            counts[i] += step
            diff -= step
    return counts


def _case_tasks(rng, people, case_id, status, started, ended, office, steps, now):
    """The task rows of one case (without ids) and the earliest due date of its open tasks."""
    end = ended or now
    n = len(steps)
    n_open = 0
    if status in ("active", "error", "cancelled"):
        n_open = 2 if (status == "active" and n >= 3 and rng.random() < 0.10) else 1
    priority = 10 if rng.random() < 0.05 else 0
    gap = (end - started) / (n + 1)
    rows, next_due = [], None
    for k, (element, name, lane) in enumerate(steps):
        created = (started + gap * (k + 1 if k < n - n_open else n - n_open)).replace(microsecond=0)
        is_open = k >= n - n_open
        due = created + timedelta(days=rng.choice((10, 15, 20, 30))) if rng.random() < 0.8 else None
        if is_open and status == "cancelled":
            state, assignee, completed_at, completed_by, data = "cancelled", None, ended, None, None
        elif is_open:
            claimed = _pick(rng, people[lane], office) if rng.random() < 0.35 else None
            state, assignee, completed_at, completed_by, data = "open", claimed, None, None, None
            if due is not None and (next_due is None or due < next_due):
                next_due = due
        else:
            who = _pick(rng, people[lane], office)
            state, assignee, completed_by = "completed", who, who
            completed_at = (created + gap * 0.8).replace(microsecond=0)
            data = ANSWERS[rng.random() >= 0.8]
        rows.append((case_id, str(uuid.UUID(int=rng.getrandbits(128), version=4)), element, name, lane,
                     assignee, state, priority, naive(created), naive(due), naive(completed_at), completed_by,
                     data))
    return rows, next_due


def bulk_load(url: str, now: datetime, *, cases: int = 1_000_000, tasks: int = 10_000_000,
              seed: int = 8, log=lambda _m: None) -> dict:
    """Fill process_instance, task, audit_event (plus case_counter) of an installation whose procedures
    are deployed: secondary indexes dropped first and built once at the end (bench/pg_bulk.py)."""
    from . import pg_bulk
    rng = random.Random(seed)
    offs = offices()
    phases: dict[str, float] = {}
    clock = [time.perf_counter()]

    def phase(name: str) -> None:
        t = time.perf_counter()
        phases[name] = t - clock[0]
        clock[0] = t
        log(f"    {name}: {phases[name]:.0f} s")

    with psycopg.connect(libpq(url), autocommit=False) as conn, \
            psycopg.connect(libpq(url), autocommit=False) as side:
        defs = _definitions(conn)
        by_key = {d["key"]: d for d in defs}
        people = staff(defs)
        keys = [k for k in MIX if k in by_key]
        weights = [MIX[k] for k in keys]
        counts = _counts(rng, cases, tasks)
        counters: dict[tuple[str, int], int] = {}
        span = timedelta(days=3 * 365)
        # Ids grow with time, as the engine writes them: cases in start order, tasks in creation
        # order (so the open tasks sit in the recent end of the heap, as in a real installation).
        drafts = []
        for i in range(cases):
            d = by_key[rng.choices(keys, weights)[0]]
            r = rng.random()
            status = "active" if r < 0.30 else "error" if r < 0.32 else "cancelled" if r < 0.35 else "completed"
            # active cases are recent; the others spread over three years
            age = rng.random() ** (3 if status in ("active", "error") else 1)
            started = (now - span * age - timedelta(seconds=rng.randrange(86400))).replace(microsecond=0)
            drafts.append((started, d["key"], status, counts[i]))
        del counts
        drafts.sort(key=lambda x: x[0])
        saved = pg_bulk.drop_secondary(conn)
        pg_bulk.create_stage(side)
        phase("drafts, indexes dropped")
        open_tasks = 0
        with conn.cursor() as cur, cur.copy(
                "COPY process_instance (id, case_number, process_key, definition_id, status, outcome, stage, "
                "office, variables, workflow_meta, activity, error_message, error_element, "
                "started_by, started_at, ended_at, parent_instance_id, lock_version, applicant_name, municipality, "
                "search_text, next_due_at) FROM STDIN") as copy, side.cursor() as side_cur, side_cur.copy(
                f"COPY {pg_bulk.STAGE} ({pg_bulk.TASK_COLUMNS}) FROM STDIN") as task_copy:
            for case_id, (started, key, status, n) in enumerate(drafts, start=1):
                d = by_key[key]
                year = started.astimezone(timezone(timedelta(hours=-4))).year
                prefix = PREFIX.get(d["key"], d["key"][:3].upper())
                counters[(prefix, year)] = counters.get((prefix, year), 0) + 1
                number = f"{prefix}-{year}-{counters[(prefix, year)]:06d}"
                office = rng.choice(offs) if d["key"] == "materials_aid" else None
                starter = _pick(rng, people[d["starter"]], office)
                ended = None
                outcome = None
                if status in ("completed", "cancelled"):
                    ended = min(now, started + timedelta(days=rng.randint(3, 120), seconds=rng.randrange(86400)))
                    outcome = (rng.choice(["APPROVED", "DENIED", "WITHDRAWN"]) if status == "completed"
                               else None)
                steps = [rng.choice(d["tasks"]) for _ in range(n)]
                stage = steps[-1][0].upper()[:60]
                applicant = f"{rng.choice(FIRST)} {rng.choice(LAST)} {rng.choice(LAST)} {case_id}"
                variables = {"applicant": {"name": applicant}, "municipality": rng.choice(offs),
                             "amount": rng.randint(100, 50000), "stage": stage,
                             "documents": ["solicitud.pdf", "identificacion.pdf"][: rng.randint(1, 2)]}
                rows, next_due = _case_tasks(rng, people, case_id, status, started, ended, office, steps, now)
                for row in rows:
                    task_copy.write_row(row)
                    open_tasks += row[6] == "open"
                copy.write_row((case_id, number, d["key"], d["id"], status, outcome, stage, office,
                                json.dumps(variables), '{"data": {}}',
                                json.dumps({s[0]: 1 for s in steps}),
                                "ZeroDivisionError: division by zero" if status == "error" else None,
                                steps[-1][0] if status == "error" else None,
                                starter, naive(started), naive(ended), None, n + 1,
                                applicant, variables["municipality"],
                                f"{fold(applicant)} | {fold(variables['municipality'])}", naive(next_due)))
        side.commit()
        del drafts
        phase("COPY cases and tasks")
        task_id = pg_bulk.tasks_from_stage(conn)
        phase("tasks numbered in creation order")
        history = pg_bulk.write_history(conn)
        phase("history (audit_event)")
        with conn.cursor() as cur:
            for (prefix, year), last in counters.items():
                cur.execute("INSERT INTO case_counter (prefix, year, last) VALUES (%s, %s, %s) "
                            "ON CONFLICT (prefix, year) DO UPDATE SET last = EXCLUDED.last", (prefix, year, last))
            cur.execute("SELECT setval(pg_get_serial_sequence('process_instance', 'id'), %s)", (cases,))
        conn.commit()
        pg_bulk.rebuild_secondary(conn, saved)
        phase("indexes and constraints built")
    with psycopg.connect(libpq(url), autocommit=True) as conn:
        for table in pg_bulk.TABLES:
            conn.execute(f"VACUUM ANALYZE {table}")
    phase("VACUUM ANALYZE")
    return {"cases": cases, "tasks": task_id, "open_tasks": open_tasks, "history": history, "phases": phases,
            "people": people, "definitions": [(d["id"], d["key"]) for d in defs]}
