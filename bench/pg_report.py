"""The PostgreSQL benchmarks' report: plain text for the terminal, Markdown blocks for bench/RESULTS.md
(one block per family, so a run of one family leaves the others' last figures in place)."""
from __future__ import annotations

import os
import platform
import re
from datetime import datetime, timezone

from .common import RESULTS

SECTION = "## PostgreSQL (issue 8)"
TARGET_P95_MS = 50.0


def _ms(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1000:.1f}"


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _throughput(t: dict) -> str:
    raw = t["raw"]
    rows = [["raw SpiffWorkflow, in memory (bench/raw.py)", f"{raw['a']['cases_s']:.0f}", "", "", "", ""],
            ["raw SpiffWorkflow + JSON save/load x2", f"{raw['b']['cases_s']:.0f}", "", "", "", ""]]
    for run in t["runs"]:
        lat = run["latency"]
        errs = f"; {run['n_errors']} failed" if run["n_errors"] else ""
        rows.append([f"HTTP, gunicorn {run['workers']} worker(s) x {run['threads']} threads, "
                     f"{run['clients']} clients ({run['cases']} cases{errs})", f"{run['cases_s']:.1f}",
                     f"{_ms(lat['case (4 requests)']['p50'])} / {_ms(lat['case (4 requests)']['p95'])}",
                     f"{_ms(lat['start']['p50'])} / {_ms(lat['start']['p95'])}",
                     f"{_ms(lat['complete']['p50'])} / {_ms(lat['complete']['p95'])}",
                     f"{run['server_cpu_ms']:.1f}" if "server_cpu_ms" in run else ""])
    rows.append(["raw SpiffWorkflow in memory, again after the HTTP runs", f"{raw['a_after']['cases_s']:.0f}",
                 "", "", "", ""])
    one, two = t["runs"][0], t["runs"][-1]
    notes = (f"- 2 workers / 1 worker: {two['cases_s'] / one['cases_s']:.2f}x; HTTP 2 workers / raw in memory: "
             f"{two['cases_s'] / raw['a']['cases_s']:.1%}; / raw + JSON: {two['cases_s'] / raw['b']['cases_s']:.1%}\n"
             f"- one case = POST instances, GET tasks?instance=, POST tasks/<id>/complete, GET instances/<id> "
             f"(bench/diagram.py); `tramite serve --workers N --threads {one['threads']}` on PostgreSQL, "
             f"keep-alive clients\n- server 5xx/tracebacks: {sum(len(r['server_errors']) for r in t['runs'])}; "
             f"cases per status afterwards: {t['statuses']}"
             + (f"\n- the server's durability: synchronous_commit={t['durability']['synchronous_commit']}, "
                f"fsync={t['durability']['fsync']}; the HTTP server on the system clock" if "durability" in t else "")
             + "\n- server CPU = the gunicorn workers' user + system CPU time during the run, per case")
    return ("### HTTP throughput, start + complete\n\n"
            + _table(["measurement", "cases/s", "case p50 / p95 ms", "start p50 / p95 ms",
                      "complete p50 / p95 ms", "server CPU ms/case"], rows) + "\n\n" + notes)


def _queries(q: dict) -> str:
    info = q["info"]
    c = info["counts"]
    rows = []
    for r in q["rows"]:
        ok = r["p95"] * 1000 <= TARGET_P95_MS
        rows.append([r["group"], r["label"], r["user"], f"`{r['request']}`", "-" if r["total"] is None else f"{r['total']:,}",
                     _ms(r["p50"]), _ms(r["p95"]), "PASS" if ok else "FAIL"])
    m = q["mixed"]
    worst = max(q["rows"], key=lambda r: r["p95"])
    load = ""
    if info.get("load_seconds"):
        steps = "; ".join(f"{name} {sec:.0f} s" for name, sec in (info.get("phases") or {}).items())
        load = f" in {info['load_seconds']:.0f} s" + (f" ({steps})" if steps else "")
    history = (f"; history: {c['history']:,} audit_event rows ({c['history'] / c['cases']:.1f} per case: "
               f"case_started, task_completed per completed task, case_completed/cancelled), "
               f"{c['history_size']}; whole database {c['database_size']}") if c.get("history") else ""
    durability = info.get("durability") or {}
    notes = (f"- data: {c['cases']:,} cases, {c['tasks']:,} task rows ({c['open']:,} open), "
             f"{c['size']} with indexes{history}; real procedures of processes/ deployed; bulk-loaded with COPY"
             f"{load}, secondary indexes built after the rows, then VACUUM ANALYZE\n"
             f"- one client, the {len(q['rows'])} requests interleaved, {q['rounds']} samples each, "
             f"`tramite serve --workers {q['workers']} --threads {q['threads']}`; target p95 <= {TARGET_P95_MS:.0f} ms; "
             f"worst p95: {worst['label']} {_ms(worst['p95'])} ms\n"
             f"- {m['clients']} concurrent clients, the same mix: {m['req_s']:.0f} requests/s, "
             f"p50 {_ms(m['p50'])} ms, p95 {_ms(m['p95'])} ms ({m['requests']} requests"
             + (f", {len(m['errors'])} errors" if m["errors"] else "") + ")"
             + (f"\n- the server: fsync={durability.get('fsync', '?')}, synchronous_commit="
                f"{durability.get('synchronous_commit', '?')} (reads do not wait on commits: read-latency figures)"
                if durability else "")
             + _kept_notes(info))
    kept = ", totals kept beside the rows (0031)" if info.get("kept_totals") else ""
    return (f"### Task inbox and case list, {c['cases']:,} cases / {c['tasks']:,} tasks{kept}\n\n"
            + _table(["list", "query", "user", "request", "total", "p50 ms", "p95 ms", "<= 50 ms"], rows)
            + "\n\n" + notes)


def _kept_notes(info: dict) -> str:
    """What the totals were read from (migration 0031), and whether they equal the rows counted."""
    if not info.get("kept_totals"):
        return "\n- totals (X-Total-Count): counted over the rows"
    wrong = info.get("totals_differ") or {}
    return ("\n- totals (X-Total-Count): kept beside the rows (migration 0031: case_total "
            f"{info['kept_totals']['case_total']:,} rows, task_total {info['kept_totals']['task_total']:,} rows), "
            "overdue kept per due day (0032) with today's cases counted, a text search's starters counted "
            "over their index, its applicant text over the term index (0034) and its case numbers over the "
            "rows; each API total compared with the rows counted "
            "(count(*) of the same filter): " + ("all equal" if not wrong else f"DIFFERENT: {wrong}"))


def queries_block(q: dict) -> str:
    """The block of one data size: issue 8's 100,000 cases keep theirs, a larger load gets its own,
    and a run on the kept totals (0031) one beside the counted one."""
    c = q["info"]["counts"]
    name = "queries" if c["cases"] <= 100_000 else f"queries-{c['cases']}"
    return name + ("-kept" if q["info"].get("kept_totals") else "")


def _timers(t: dict) -> str:
    runs = t.get("runs") or [t]
    rows = []
    for run in runs:
        marks = run["marks"]
        what = f"{t['timers']:,} due timers, {t['workers']} `tramite worker` processes (poll {t['interval']} s)"
        if "code" in run:
            what += f", {run['code']} code"
        cpu = (f"{run['worker_cpu_ms']:.2f} + {run['server_cpu_ms']:.2f}" if "worker_cpu_ms" in run else "-")
        rows.append([what, _fmt_s(marks.get(10)), _fmt_s(marks.get(50)), _fmt_s(marks.get(90)), _fmt_s(run["seconds"]),
                     f"{run['rate']:.0f}" if run["rate"] else "-", cpu, f"{run.get('load_before', '?')}"])
    events = ", ".join(f"{r['fired_events']:,}" for r in runs)
    cases = ", ".join(f"{r['fired_cases']:,}" for r in runs)
    once = all(r["fired_events"] == r["fired_cases"] == t["timers"] for r in runs)
    notes = (f"- clock moved once past every deadline; fired rows counted every 0.2 s; "
             f"timer_fired events: {events} for "
             f"{cases} cases (exactly once: {'yes' if once else 'NO'}); "
             f"worker tracebacks: {sum(r['tracebacks'] for r in runs)}\n- the {t['timers']:,} cases were started "
             + (f"through the engine first (4 threads, {t['start_seconds']:.0f} s, "
                f"{t['timers'] / t['start_seconds']:.0f} cases/s)" if t["start_seconds"] else
                "by an earlier run (--reuse) and never fired there")
             + ("; each code fired its own copy of that database (CREATE DATABASE … TEMPLATE)" if len(runs) > 1 else "")
             + "\n- CPU per firing: the worker processes' utime+stime + the server backends' serving that "
               "database, from the clock move to the last firing")
    durability = t.get("durability") or {}
    notes += (f"\n- the server's durability: synchronous_commit={durability.get('synchronous_commit', '?')}, "
              f"fsync={durability.get('fsync', '?')}"
              + ("" if durability == {"synchronous_commit": "on", "fsync": "on"} else " (NOT a production figure)"))
    return ("### Timers\n\n" + _table(["measurement", "10 % s", "50 % s", "90 % s", "all s", "timers/s",
                                        "CPU ms per firing, workers + server", "load before"], rows)
            + "\n\n" + notes)


def _fmt_s(s: float | None) -> str:
    return "-" if s is None else f"{s:.1f}"


def build_report(args, r: dict, total_s: float, command: str) -> tuple[str, dict]:
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    header = (f"- {stamp}; {os.cpu_count()} CPUs ({platform.machine()}), shared with another engineer's test "
              f"runs: load average {r['load_start']} at the start, {r['load_end']} at the end; whole run "
              f"{total_s:.0f} s\n- command: `{command}`")
    blocks = {}
    if "throughput" in r:
        blocks["throughput"] = _throughput(r["throughput"])
    if "queries" in r:
        blocks[queries_block(r["queries"])] = _queries(r["queries"])
    if "timers" in r:
        blocks["timers"] = _timers(r["timers"])
    blocks = {k: header + "\n\n" + v for k, v in blocks.items()}
    text = "\n\n".join(blocks.values())
    return text, blocks


def write_section(blocks: dict, _only) -> None:
    """Replace this run's family blocks in RESULTS.md's PostgreSQL section, keeping the rest."""
    current = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else "# Benchmark results\n"
    if SECTION not in current:
        current = current.rstrip("\n") + f"\n\n{SECTION}\n\n`python -m bench.production` (bench/production.py).\n"
        for family in ("throughput", "queries", "timers"):
            current += f"\n<!-- pg:{family} -->\n_not run yet_\n<!-- /pg:{family} -->\n"
    for family, md in blocks.items():
        if f"<!-- pg:{family} -->" not in current:  # a new block goes after the queries block
            sibling = f"<!-- /pg:{family.removesuffix('-kept')} -->"
            anchor = sibling if sibling in current else "<!-- /pg:queries -->"
            current = current.replace(anchor, f"{anchor}\n\n<!-- pg:{family} -->\n<!-- /pg:{family} -->", 1)
        pattern = re.compile(rf"<!-- pg:{re.escape(family)} -->.*?<!-- /pg:{re.escape(family)} -->", re.S)
        current = pattern.sub(lambda _m: f"<!-- pg:{family} -->\n{md}\n<!-- /pg:{family} -->", current)
    RESULTS.write_text(current, encoding="utf-8")
