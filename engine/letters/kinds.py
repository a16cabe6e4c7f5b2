"""The letter kinds, as data: `engine/letters/kinds/<procedure>.json`.

Each file names its procedure's agency and its kinds (a reason's words are never here: they are the
rules' own, engine/rules/<procedure>/messages.py): the step whose completion gives the notice (`on`, a
BPMN element id of `process`, or a list of them), the rule ids that require the letter, the words of its title,
decision and remedy (es/en, with `{placeholders}` filled from the case), the parameter holding the
remedy's term, and the signing office. A kind's document type is `letter.<kind>`, labelled in the
general document-type catalogue (processes/document_types.json).
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

KINDS_DIR = Path(__file__).resolve().parent / "kinds"


@lru_cache(maxsize=1)
def procedures() -> dict[str, dict]:
    """{procedure name: its file's data}, read once."""
    out = {}
    for path in sorted(KINDS_DIR.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        out[data["procedure"]] = data
    return out


@lru_cache(maxsize=1)
def all_kinds() -> dict[str, dict]:
    """{kind: its entry, with the procedure's name added}; a kind is named once across procedures."""
    out: dict[str, dict] = {}
    for name, data in procedures().items():
        for entry in data["kinds"]:
            if entry["kind"] in out:
                raise ValueError(f"letter kind {entry['kind']!r} is declared twice")
            out[entry["kind"]] = {**entry, "procedure": name}
    return out


@lru_cache(maxsize=1)
def _triggers() -> dict[str, dict[str, tuple[dict, ...]]]:
    out: dict[str, dict[str, list]] = {}
    for entry in all_kinds().values():
        for element in ([entry["on"]] if isinstance(entry["on"], str) else entry["on"]):
            out.setdefault(entry["process"], {}).setdefault(element, []).append(entry)
    return {key: {element: tuple(v) for element, v in by_element.items()} for key, by_element in out.items()}


def triggers_for(process_key: str) -> dict[str, tuple[dict, ...]]:
    """{element id: the kinds its completion gives} for one process key ({} for most)."""
    return _triggers().get(process_key, {})


def document_type(kind: str) -> str:
    return f"letter.{kind}"
