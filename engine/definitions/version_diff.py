"""What changed between two deployed versions of a process: elements, their scripts, and forms.

Elements come from each version's stored summary (written at deploy time); scripts and forms from
its stored files, so two versions are compared without touching a running case.
"""
from __future__ import annotations

import json

from engine.definitions import form_files
from engine.definitions.parsing import describe

COMPARED = ("type", "name", "lane", "process", "called_element", "attached_to", "timer", "message")


def _scripts(files: dict[str, str]) -> dict[str, dict[str, str]]:
    """{element id: {kind: source}} of every script, condition and timer expression."""
    out: dict[str, dict[str, str]] = {}
    for script in describe({n: c for n, c in files.items() if n.endswith(".bpmn")})["scripts"]:
        out.setdefault(script["element_id"], {})[script["kind"]] = script["source"]
    return out


def _forms(files: dict[str, str]) -> dict[str, object]:
    forms = {}
    for name, content in files.items():
        if name.endswith(".json"):
            try:
                forms[name.rsplit("/", 1)[-1]] = json.loads(content)
            except ValueError:
                forms[name.rsplit("/", 1)[-1]] = content
    return forms


def compare(old_summary: dict, old_files: dict[str, str], new_summary: dict, new_files: dict[str, str]) -> dict:
    """{"elements": [{id, status, old, new, changes}], "forms": [{name, status}], "counts": {...}}.

    `status` is one of added, removed, changed, same; `changes` names what differs, including
    "script" (a script, condition or timer expression) and "form" (the task's schema or UI file).
    """
    old = {e["id"]: e for e in old_summary.get("elements", [])}
    new = {e["id"]: e for e in new_summary.get("elements", [])}
    old_scripts, new_scripts = _scripts(old_files), _scripts(new_files)
    old_forms, new_forms = _forms(old_files), _forms(new_files)
    rows = []
    for element_id in sorted(set(old) | set(new), key=lambda i: (i not in old, i)):
        before, after = old.get(element_id), new.get(element_id)
        if before is None or after is None:
            rows.append({"id": element_id, "status": "added" if before is None else "removed",
                         "old": before, "new": after, "changes": []})
            continue
        changes = [k for k in COMPARED if before.get(k) != after.get(k)]
        if old_scripts.get(element_id) != new_scripts.get(element_id):
            changes.append("script")
        form_names = form_files.task_names(element_id)
        if any(old_forms.get(n) != new_forms.get(n) for n in form_names):
            changes.append("form")
        rows.append({"id": element_id, "status": "changed" if changes else "same",
                     "old": before, "new": after, "changes": changes})
    forms = []
    for name in sorted(set(old_forms) | set(new_forms)):
        if name not in old_forms:
            forms.append({"name": name, "status": "added"})
        elif name not in new_forms:
            forms.append({"name": name, "status": "removed"})
        else:
            forms.append({"name": name, "status": "same" if old_forms[name] == new_forms[name] else "changed"})
    counts = {s: sum(1 for r in rows if r["status"] == s) for s in ("added", "removed", "changed", "same")}
    return {"elements": rows, "forms": forms, "counts": counts}
