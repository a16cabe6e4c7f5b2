"""The README's supported-constructs table, generated from the conformance catalogue:

    python -m tests.conformance.table --write     # rewrite it in README.md
    python -m tests.conformance.table             # print it

test_constructs_table.py fails when README.md and the catalogue disagree, and each row's verdict is
what the scenarios of that construct assert (a refusal with its code, or the same end state, path
and data as SpiffWorkflow alone)."""
from __future__ import annotations

import sys
from collections import Counter

from tests.conformance import corpus
from tests.conformance.catalog import all_scenarios
from tests.conformance.corpus_known import KNOWN
from tests.conformance.scenario import Scenario

README = corpus.REPO / "README.md"
START, END = "<!-- constructs:start -->", "<!-- constructs:end -->"


def _verdict(group: list[Scenario]) -> str:
    refused = [s for s in group if s.refused is not None]
    if refused:
        codes = sorted({s.refused for s in refused if s.refused})
        text = "refused at deploy, naming the element" + (f" (`{'`, `'.join(codes)}`)" if codes else "")
    else:
        text = "runs like SpiffWorkflow alone"
        if any(s.allow_error for s in group):
            text += ", or stops in `error` naming the element"
    notes = sorted({s.note for s in group if s.note})
    if notes:
        text += f", by decision: {'; '.join(notes)}"
    failing = sorted({s.known.item for s in group if s.known and not s.known.library_bug})
    if failing:
        text += f" — not yet on this code: issue 14 {', '.join(failing)}"
    diverging = sorted(s.key for s in group if s.known and s.known.library_bug)
    if diverging:
        text += (f" — except `{'`, `'.join(diverging)}`, a documented divergence where SpiffWorkflow alone "
                 f"is wrong (its strict xfail says how)")
    return text


def table() -> str:
    groups: dict[str, list[Scenario]] = {}
    for scenario in all_scenarios():
        groups.setdefault(scenario.construct, []).append(scenario)
    rows = ["| construct | Tramite | scenarios |", "|---|---|---|"]
    for construct, group in groups.items():
        rows.append(f"| {construct} | {_verdict(group)} | {len(group)} |")
    entries = corpus.sweep_entries()
    known = Counter(KNOWN[e["path"]][0] for e in entries if e["path"] in KNOWN)
    failing = ", ".join(f"{item}: {n}" for item, n in sorted(known.items()))
    verdict = (f"not yet right on this code, by issue 14 item: {failing}" if failing else
               "each file refused at deploy naming the element, or run like SpiffWorkflow alone")
    rows += ["", f"{len(all_scenarios())} scenarios in `tests/conformance/diagrams/`; the public corpus "
                 f"(`../shared/conformance-corpus/`, {len(entries)} files deployed): {verdict}."]
    return "\n".join(rows)


def readme_section(text: str) -> str:
    return text.split(START, 1)[1].split(END, 1)[0].strip("\n")


def write() -> None:
    text = README.read_text(encoding="utf-8")
    head, rest = text.split(START, 1)
    tail = rest.split(END, 1)[1]
    README.write_text(f"{head}{START}\n{table()}\n{END}{tail}", encoding="utf-8")


if __name__ == "__main__":
    if "--write" in sys.argv:
        write()
    else:
        print(table())
