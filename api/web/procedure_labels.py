"""Each procedure's own words for its codes: `processes/<procedure>/labels.json`, in Spanish and English.

The file sits beside the procedure's diagrams and is read from the same processes folder `tramite
deploy` deploys (`TRAMITE_PROCESSES_DIR`, else the bundled one), again whenever it changes, like the
procedure's other data files. It names, each as `{"es": …, "en": …}`:

    "processes": [the process keys it speaks for],
    "stages", "outcomes", "values": {CODE: label}      codes a variable holds (stage, outcome, statuses)
    "variables": {"eligibility.income_share_pct": label, "offers.*.price": label}
    "internal": [variables the engine keeps for itself, not shown as facts]
    "events": {"registry_entry_created": label}        history event types of the procedure
    "messages": {"documents_received": {label, "fields": {"documents.*.type": label}}}
    "elements": {"merge_evaluation": label}            diagram elements the diagram leaves unnamed

`processes/labels.json` holds the words every procedure shares (the legal parameters' values).
A diagram deployed without such a file shows its own element names, its forms' titles and the codes'
own wording (see api/web/labels.py); roles come from roles.json (label_es, label_en).
"""
from __future__ import annotations

import json
from pathlib import Path

from flask import g, has_request_context

from engine.config.paths import processes_dir

FILE = "labels.json"
_BUNDLED = Path(__file__).resolve().parents[2] / "processes"
_cache: dict[Path, tuple[float, dict]] = {}


def _read(path: Path) -> dict:
    stamp = path.stat().st_mtime
    cached = _cache.get(path)
    if cached is None or cached[0] != stamp:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            data = {}
        _cache[path] = (stamp, data if isinstance(data, dict) else {})
    return _cache[path][1]


def files() -> list[dict]:
    """Every procedure's label data: the configured folder's, else the bundled one's, looked up once
    per request. A case list page asks for a stage's and an outcome's words on each of its 50 rows,
    and each look-up globbed the folder and read each file's time stamp (issue 21: a third of the
    page's render at 50,000 cases); a request still sees a file changed before it began."""
    if not has_request_context():
        return _files()
    found = g.get("procedure_label_files")
    if found is None:
        found = g.procedure_label_files = _files()
    return found


def _files() -> list[dict]:
    root = processes_dir()
    paths = _paths(root) if root.is_dir() else []
    if not paths and root.resolve() != _BUNDLED.resolve():
        paths = _paths(_BUNDLED)
    return [_read(p) for p in paths]


def _paths(root: Path) -> list[Path]:
    # Each procedure's file, then the folder's own (words shared by all, e.g. parameter values).
    return sorted(root.glob(f"*/{FILE}")) + ([root / FILE] if (root / FILE).is_file() else [])


def for_process(process_key: str | None) -> dict:
    """The label data of the procedure a process belongs to ({} when it has none)."""
    for data in files():
        if process_key in (data.get("processes") or []):
            return data
    return {}


def section(name: str, process_key: str | None = None) -> dict:
    """One section ("stages", "events"…) of a process's data; without a process (a list over every
    procedure), all procedures' together. A process without label data borrows no other's words."""
    if process_key is not None:
        return for_process(process_key).get(name) or {}
    merged: dict = {}
    for data in files():
        merged.update(data.get(name) or {})
    return merged
