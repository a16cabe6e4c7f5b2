"""Document types per procedure: `processes/<procedure>/document_types.json`.

A procedure's folder holds its diagrams; every process key those diagrams declare shares the
folder's catalogue (the farmer registry's admission and membership cases file the same documents).
A process deployed by its owner, with no procedure folder of its own, takes the general catalogue
`processes/document_types.json` (any document, a letter), so its cases have a file too.
Each entry: `id`, `label_es`, `label_en`, `article` (the regulation asking for it) and optionally
`checklist`, the task form fields ("<task id>.<field path>") whose "received" box it backs.

The letters (`letter.<kind>`, made only by the engine) are named once, in the general catalogue:
every procedure's catalogue takes them from there, with the article its own procedure gives
(`articles`: {procedure folder: article}), so a letter reads the same in every index, file name
and history line.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

from engine.config.paths import processes_dir

FILE = "document_types.json"
GENERAL = ""  # the key the general catalogue is kept under
LETTER = "letter."  # the prefix of the types only the engine files (generated letters)
_PROCESS_ID = re.compile(r"<(?:\w+:)?process\b[^>]*?\bid=\"([^\"]+)\"")


def document_types(process_key: str, root: Path | None = None) -> list[dict]:
    """The catalogue of `process_key`'s procedure, in the file's order (else the general one)."""
    catalogues = _catalogues(str(root or processes_dir()))
    return list(catalogues.get(process_key, catalogues.get(GENERAL, ())))


def is_letter(type_id: str) -> bool:
    return str(type_id or "").startswith(LETTER)


def letter_label(type_id: str, root: Path | None = None) -> dict | None:
    """The general catalogue's entry for a letter type (its labels are the same for every procedure)."""
    return next((t for t in _catalogues(str(root or processes_dir())).get(GENERAL, ()) if t["id"] == type_id), None)


def has_own_catalogue(process_key: str, root: Path | None = None) -> bool:
    return process_key in _catalogues(str(root or processes_dir()))


def document_type(process_key: str, type_id: str, root: Path | None = None) -> dict | None:
    return next((t for t in document_types(process_key, root) if t["id"] == type_id), None)


def checklist_types(process_key: str, task_id: str, root: Path | None = None) -> dict[str, dict]:
    """{form field path: its document type} for the "received" boxes of one task's form."""
    found = {}
    for entry in document_types(process_key, root):
        for field in entry.get("checklist", ()):
            task, _, path = field.partition(".")
            if task == task_id and path:
                found[path] = entry
    return found


@lru_cache(maxsize=8)
def _catalogues(root: str) -> dict[str, tuple[dict, ...]]:
    # Read once per processes folder: the catalogues ship with the code, like the diagrams.
    found: dict[str, tuple[dict, ...]] = {}
    general = Path(root) / FILE
    raw_general = json.loads(general.read_text(encoding="utf-8")) if general.is_file() else []
    if general.is_file():
        found[GENERAL] = tuple(_entry(e, general) for e in raw_general)
    letters = [e for e in raw_general if is_letter(e.get("id"))]
    for file in sorted(Path(root).glob(f"*/{FILE}")):
        own = [_entry(e, file) for e in json.loads(file.read_text(encoding="utf-8"))]
        ids = {e["id"] for e in own}
        own += [_entry({**e, "article": (e.get("articles") or {}).get(file.parent.name) or e["article"]}, general)
                for e in letters if e["id"] not in ids]
        entries = tuple(own)
        for diagram in sorted(file.parent.glob("*.bpmn")):
            for key in _PROCESS_ID.findall(diagram.read_text(encoding="utf-8")):
                found[key] = entries
    return found


def _entry(raw: dict, file: Path) -> dict:
    missing = [k for k in ("id", "label_es", "label_en", "article") if not raw.get(k)]
    if missing:
        raise ValueError(f"{file}: the document type {raw.get('id')!r} lacks {', '.join(missing)}")
    return {"id": raw["id"], "label_es": raw["label_es"], "label_en": raw["label_en"],
            "article": raw["article"], "checklist": list(raw.get("checklist", ())),
            "generated": is_letter(raw["id"])}
