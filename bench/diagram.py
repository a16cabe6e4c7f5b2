"""The benchmark's diagram, written with the test suite's BPMN builder.

start → prepare (script) → route (exclusive gateway) → review (user task, lane bench_clerk)
      → finish (script) → end;  the gateway's default goes to a second end event.
One user task, so one case = start + one completion.
"""
from __future__ import annotations

from pathlib import Path

from tests.support import bpmn as b

KEY = "bench_flow"
ROLE = "bench_clerk"
USER_TASK = "review"
COMPLETE_DATA = {"approved": True}
LOOP_BPMN = Path(__file__).resolve().parent.parent / "tests" / "diagrams" / "loop.bpmn"


def bench_xml() -> str:
    return b.diagram(
        KEY, name="Benchmark flow",
        lanes={ROLE: ["start", "prepare", "route", "review", "finish", "end", "end_skipped"]},
        nodes=[b.start(), b.script("prepare", "amount = 100\nstage = 'RECEIVED'"),
               b.xor("route", default="f_skip"), b.user(USER_TASK, "Revisar"),
               b.script("finish", "outcome = 'APPROVED' if approved else 'DENIED'\nstage = 'DONE'"),
               b.end("end"), b.end("end_skipped")],
        flows=[*b.chain("start", "prepare", "route"),
               b.flow("f_review", "route", USER_TASK, "amount > 0"),
               b.flow("f_skip", "route", "end_skipped"),
               *b.chain(USER_TASK, "finish", "end")])


def bench_files() -> dict[str, str]:
    """What Tramite deploys: the diagram and the user task's form."""
    return {"bench.bpmn": bench_xml(),
            f"{USER_TASK}.schema.json": b.form({"approved": {"type": "boolean"}})}


def loop_files() -> dict[str, str]:
    """tests/diagrams/loop.bpmn (process test_loop, lane test_clerk) with its form."""
    return {"loop.bpmn": LOOP_BPMN.read_text(), "work.schema.json": b.form({"done": {"type": "boolean"}})}
