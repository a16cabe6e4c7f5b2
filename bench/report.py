"""The results table, printed and written as Markdown."""
from __future__ import annotations

import os
import platform

from datetime import datetime, timezone

from .common import HTTP_THREADS, TARGET_C_OVER_B, TARGET_HTTP_CASES_S, TARGET_LOOP_RATIO, ms

def verdict(ok: bool | None) -> str:
    return "n/a" if ok is None else ("PASS" if ok else "FAIL")


def _postgresql_rows(r: dict) -> list[tuple[str, str, str, str]]:
    """(c) on PostgreSQL (--db): cases/s, its ratio to (b) of the same run, CPU per case both sides."""
    pg = r.get("c_pg")
    if not pg:
        return []
    durable = ", ".join(f"{k}={v}" for k, v in pg["durability"].items())
    ratio = pg["cases_s"] / r["b"]["cases_s"]
    n = pg["cases"]
    return [(f"(c) Tramite engine commands, PostgreSQL ({durable})", f"{pg['cases_s']:.0f} cases/s ({n} cases)", "", ""),
            ("(c PostgreSQL) / (b)", f"{ratio:.0%}", f">= {TARGET_C_OVER_B:.0%}", verdict(ratio >= TARGET_C_OVER_B)),
            ("(c PostgreSQL) CPU per case: bench process + server backends",
             f"{pg['cpu_s'] / n * 1000:.2f} ms + {pg['server_cpu_s'] / n * 1000:.2f} ms", "", "")]


def build_report(args, r: dict, total_s: float, command: str) -> tuple[str, str]:
    """(plain text table, Markdown document)."""
    rows: list[tuple[str, str, str, str]] = []  # measurement, result, target, verdict
    a, b, c = r["a"], r["b"], r["c"]
    rows.append(("(a) raw SpiffWorkflow, in memory", f"{a['cases_s']:.0f} cases/s ({a['cases']} cases)", "", ""))
    rows.append(("(b) raw SpiffWorkflow + JSON save/load x2", f"{b['cases_s']:.0f} cases/s ({b['cases']} cases)",
                 "", ""))
    rows.append(("(c) Tramite engine commands, SQLite, full audit",
                 f"{c['cases_s']:.0f} cases/s ({c['cases']} cases)", "", ""))
    ratio_cb = c["cases_s"] / b["cases_s"]
    rows.append(("(c) / (b)", f"{ratio_cb:.0%}", f">= {TARGET_C_OVER_B:.0%}", verdict(ratio_cb >= TARGET_C_OVER_B)))
    rows.append(("(c) / (a)", f"{c['cases_s'] / a['cases_s']:.0%}", "", ""))
    rows += _postgresql_rows(r)
    d = r.get("d")
    if d:
        seq, conc = d["seq"], d["conc"]
        rows.append(("(d) HTTP, `tramite serve` 1 worker, 1 client",
                     f"{seq['cases_s']:.1f} cases/s ({seq['cases']} cases)", f">= {TARGET_HTTP_CASES_S:.0f} cases/s",
                     verdict(seq["cases_s"] >= TARGET_HTTP_CASES_S)))
        errs = f", {len(conc['errors'])} failed" if conc["errors"] else ""
        rows.append((f"(d) HTTP, `tramite serve` 1 worker, {HTTP_THREADS} clients",
                     f"{conc['cases_s']:.1f} cases/s ({conc['cases']} cases{errs})",
                     f">= {TARGET_HTTP_CASES_S:.0f} cases/s",
                     verdict(conc["cases_s"] >= TARGET_HTTP_CASES_S and not conc["errors"])))
    else:
        rows.append(("(d) HTTP", "skipped (--no-http)", "", "n/a"))
    le = r["loop_engine"]
    m = le["medians"]
    loop_ratio = m[1000] / m[10] if m.get(1000) and m.get(10) else None
    rows.append(("loop, engine: cost of a completion @10 / @100 / @1000",
                 " / ".join(ms(m[k]) if m[k] else "-" for k in (10, 100, 1000)), "", ""))
    rows.append(("loop, engine: cost@1000 / cost@10",
                 f"{loop_ratio:.2f}x" if loop_ratio else "-", f"<= {TARGET_LOOP_RATIO:.0f}x",
                 verdict(loop_ratio <= TARGET_LOOP_RATIO if loop_ratio else None)))
    lr = r.get("loop_raw")
    if lr:
        mr = lr["medians"]
        result = " / ".join(ms(mr[k]) if mr[k] else "-" for k in (10, 100, 1000))
        if lr["stopped"]:
            result += f"; stopped at round {lr['stopped'][0]} ({lr['stopped'][1]})"
        rows.append(("loop, raw SpiffWorkflow in memory, no pruning: @10 / @100 / @1000", result, "", ""))

    widths = [max(len(row[i]) for row in rows + [("measurement", "result", "target", "verdict")]) for i in range(4)]
    header = ("measurement", "result", "target", "verdict")
    line = "  ".join("-" * w for w in widths)
    text = [line, "  ".join(h.ljust(w) for h, w in zip(header, widths)), line]
    text += ["  ".join(v.ljust(w) for v, w in zip(row, widths)) for row in rows]
    text.append(line)

    lat_rows = [("(c) engine, start_case", *c["latency"]["start"]), ("(c) engine, complete", *c["latency"]["complete"])]
    if r.get("c_pg"):
        lat_rows += [("(c) PostgreSQL, start_case", *r["c_pg"]["latency"]["start"]),
                     ("(c) PostgreSQL, complete", *r["c_pg"]["latency"]["complete"])]
    if d:
        for label, part in (("1 client", d["seq"]), (f"{HTTP_THREADS} clients", d["conc"])):
            for kind, (p50, p95) in part["latency"].items():
                lat_rows.append((f"(d) {label}, {kind}", p50, p95))
    text.append("")
    text.append("latency per request type            p50        p95")
    text += [f"  {name:<34}{ms(p50):>10} {ms(p95):>10}" for name, p50, p95 in lat_rows]
    if d and d["conc"]["errors"]:
        text.append("")
        text.append(f"concurrent HTTP errors ({len(d['conc']['errors'])}), first: {d['conc']['errors'][0]}")

    now = datetime.now(timezone.utc).astimezone()
    import SpiffWorkflow
    import sqlalchemy
    spiff_version = getattr(SpiffWorkflow, "__version__", None)
    if spiff_version is None:
        from importlib.metadata import version
        spiff_version = version("SpiffWorkflow")
    md = [
        "# Benchmark results",
        "",
        f"- date: {now:%Y-%m-%d %H:%M %Z}",
        f"- machine: {os.cpu_count()} CPUs (nproc {len(os.sched_getaffinity(0))}), {platform.machine()}, "
        f"{platform.system()} {platform.release()}",
        f"- Python {platform.python_version()}, SpiffWorkflow {spiff_version}, SQLAlchemy {sqlalchemy.__version__}",
        f"- command: `{command}`",
        f"- whole run: {total_s:.0f} s",
        "- diagram (all four measurements): start → script → exclusive gateway → user task (lane "
        "`bench_clerk`) → script → end (`bench/diagram.py`); loop: `tests/diagrams/loop.bpmn`",
        f"- (a), (b) and (c) interleaved in {args.rounds} rounds (a slice of each measurement's cases per round, "
        "the order turned round every other round), so their ratios compare one machine",
        f"- (d): `tramite serve --workers 1 --threads {HTTP_THREADS} --no-timer-worker` (gthread, access log on) "
        "on SQLite; one case = POST instances, "
        "GET tasks?instance=, POST tasks/<id>/complete, GET instances/<id>; http.client keep-alive",
        "",
        "| measurement | result | target | verdict |",
        "|---|---|---|---|",
        *[f"| {m_} | {res} | {tgt} | {v} |" for m_, res, tgt, v in rows],
        "",
        "| latency per request type | p50 | p95 |",
        "|---|---|---|",
        *[f"| {name} | {ms(p50)} | {ms(p95)} |" for name, p50, p95 in lat_rows],
        "",
    ]
    if d and d["conc"]["errors"]:
        md += [f"Concurrent HTTP errors: {len(d['conc']['errors'])}; first: `{d['conc']['errors'][0]}`", ""]
    return "\n".join(text), "\n".join(md)
