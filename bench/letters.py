"""Letter generation benchmark (not a test): how long a notice's letter costs.

    cd /work/main && .venv/bin/python -m bench.letters [--cases N] [--no-write]

(1) the pure renderer: one denial letter's data → PDF/A-3b bytes (Jinja + WeasyPrint), N times;
(2) through the engine on SQLite: the completion of `notify_denial` of a farmer registry case — the
command that assembles the letter from the case, renders it, stores it in the expediente and links
it from its notification, in one transaction — against the completion of `evaluate_application`
of the same cases (a step that gives no letter). Writes a "## Letters (issue 17)" section at the end
of bench/RESULTS.md, replacing the previous one.
"""
from __future__ import annotations

import argparse
import os
import tempfile
import time
from datetime import date
from pathlib import Path

from .common import RESULTS, log, pct

SECTION = "\n## Letters (issue 17)"


def _sample_letter():
    from engine.letters import assemble
    from engine.letters.samples import SAMPLES
    params = {"farmer.reviewDeadlineDays": 20, "calendar.rollForwardNonBusinessDay": True, "calendar.holidays": [],
              "letters.rightsLaw": "Ley núm. 170 de 12 de agosto de 1978, Ley de Procedimiento Uniforme"}
    return assemble.letters_for("denial", SAMPLES["denial"], case_number="FAR-2024-000123",
                                notice_date=date(2024, 4, 8), parameters=params)[0]


def bench_render(n: int) -> dict:
    from engine.letters import render
    letter = _sample_letter()
    t0 = time.perf_counter()
    first = render.pdf(letter)  # loads Pango and the fonts
    cold = time.perf_counter() - t0
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        render.pdf(letter)
        times.append(time.perf_counter() - t0)
    return {"cold": cold, "p50": pct(times, 50), "p95": pct(times, 95), "bytes": len(first)}


def bench_engine(n: int, workdir: Path) -> dict:
    os.environ["TRAMITE_DOCUMENT_DIR"] = str(workdir / "documents")
    from engine.bootstrap import make_engine, prepare, procedure_files
    from engine.commands.cases import start_case
    from engine.commands.deploy import deploy
    from engine.commands.tasks import complete
    from engine.identity.actor import SYSTEM, Actor

    root = Path(__file__).resolve().parent.parent
    eng = make_engine(f"sqlite:///{workdir / 'tramite.db'}")
    eng.db.upgrade()
    prepare(eng, upgrade=False)
    files = procedure_files(root / "processes" / "farmer_registry", root / "forms")
    eng.execute(deploy, SYSTEM, "farmer_registry_membership", files)
    eng.execute(deploy, SYSTEM, "farmer_registry_admission", files)
    clerk = Actor("bench_clerk", frozenset({"registry_clerk"}))
    evaluator = Actor("bench_evaluator", frozenset({"registry_evaluator"}))
    variables = {"applicant": {"name": "Ana Torres", "producer_type": "agricultor", "address": "Carr. 172 km 3",
                               "municipality": "Cidra"},
                 "gross_annual_income": "40000.00", "activity_income": "32000.00", "sworn_declaration": True,
                 "documents": []}
    timings: dict[str, list[float]] = {"evaluate_application": [], "notify_denial": []}
    try:
        for i in range(n + 3):  # three warm-up cases first
            case = eng.execute(start_case, clerk, "farmer_registry_admission", variables)
            t0 = time.perf_counter()
            case = eng.execute(complete, evaluator, case["open_tasks"][0]["id"],
                               {"recommendation": "deny", "findings": "Sin certificación"})["instance"]
            evaluated = time.perf_counter() - t0
            t0 = time.perf_counter()
            eng.execute(complete, clerk, case["open_tasks"][0]["id"], {"method": "correo_certificado"})
            notified = time.perf_counter() - t0
            if i >= 3:
                timings["evaluate_application"].append(evaluated)
                timings["notify_denial"].append(notified)
    finally:
        eng.db.dispose()
    return {k: (pct(v, 50), pct(v, 95)) for k, v in timings.items()}


def report(n: int, render_result: dict, engine_result: dict) -> str:
    ms = lambda s: f"{s * 1000:.1f} ms"  # noqa: E731
    ev, nd = engine_result["evaluate_application"], engine_result["notify_denial"]
    return "\n".join([
        SECTION.strip(), "",
        f"`python -m bench.letters --cases {n}` (SQLite, folder storage; {os.cpu_count()} cores, load average "
        f"{os.getloadavg()[0]:.1f} when it ended: other work shared the machine):", "",
        "| measurement | p50 | p95 |", "|---|---|---|",
        f"| render a denial letter to PDF/A-3b (pure function, {render_result['bytes']:,} bytes; "
        f"first call {ms(render_result['cold'])} loading Pango and fonts) | {ms(render_result['p50'])} | "
        f"{ms(render_result['p95'])} |",
        f"| engine: complete `evaluate_application` (no letter) | {ms(ev[0])} | {ms(ev[1])} |",
        f"| engine: complete `notify_denial` (letter assembled, rendered, stored, linked) | {ms(nd[0])} | "
        f"{ms(nd[1])} |", ""])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=30)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    log(f"rendering {args.cases} letters…")
    render_result = bench_render(args.cases)
    log(f"{args.cases} farmer denials through the engine…")
    with tempfile.TemporaryDirectory() as tmp:
        engine_result = bench_engine(args.cases, Path(tmp))
    md = report(args.cases, render_result, engine_result)
    print(md)
    if not args.no_write:
        old = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else ""
        at = old.find(SECTION)
        if at < 0:
            text = old.rstrip("\n") + "\n\n" + md
        else:  # this section replaced, the ones after it kept
            following = old.find("\n## ", at + len(SECTION))
            text = old[:at] + "\n" + md + (old[following:] if following != -1 else "")
        RESULTS.write_text(text, encoding="utf-8")
        log(f"written to {RESULTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
