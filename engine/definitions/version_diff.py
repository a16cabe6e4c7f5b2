"""What changed between two deployed versions of a process: elements, sequence flows, lanes, their
scripts, conditions and timers, and forms.

Elements come from each version's stored summary (written at deploy time); flows, lanes, scripts
and forms from its stored files, so two versions are compared without touching a running case.
A changed branch condition is a change of the flow that carries it, so flows are rows like elements.
"""
from __future__ import annotations

import json

from engine.definitions import form_files
from engine.definitions.parsing import BPMN, describe
from engine.definitions.xml_safety import parse_xml

COMPARED = ("type", "name", "lane", "process", "called_element", "attached_to", "timer", "message",
            "source", "target", "default")

# What a changed script-like text is called in the diff: the kind describe() gives it, grouped.
SCRIPT_KINDS = {"script": "script", "preScript": "script", "postScript": "script", "condition": "condition",
                "timeDate": "timer", "timeDuration": "timer", "timeCycle": "timer"}


def _bpmn(files: dict[str, str]) -> dict[str, str]:
    return {n: c for n, c in files.items() if n.endswith(".bpmn")}


def _scripts(info: dict) -> dict[str, dict[str, str]]:
    """{element or flow id: {kind: source}} of every script, condition and timer expression."""
    out: dict[str, dict[str, str]] = {}
    for script in info["scripts"]:
        out.setdefault(script["element_id"], {})[script["kind"]] = script["source"]
    return out


def _flows_and_lanes(files: dict[str, str], info: dict) -> dict[str, dict]:
    """Sequence flows ({id, type, name, process, source, target, default}) and lanes ({id, type,
    name, process}), keyed by id, described like the summary's elements."""
    out: dict[str, dict] = {}
    for filename, content in sorted(_bpmn(files).items()):
        root = parse_xml(content.encode("utf-8"), filename)
        for proc in root.iter(f"{{{BPMN}}}process"):
            defaults = {node.get("default") for node in proc.iter() if node.get("default")}
            for flow in proc.iter(f"{{{BPMN}}}sequenceFlow"):
                source, target = flow.get("sourceRef"), flow.get("targetRef")
                out[flow.get("id")] = {"id": flow.get("id"), "type": "sequenceFlow",
                                       "name": flow.get("name") or flow.get("id"),
                                       "process": proc.get("id"), "source": source, "target": target,
                                       "default": flow.get("id") in defaults}
    for pid, proc in info["processes"].items():
        for lane in proc["lanes"]:
            out[lane["id"]] = {"id": lane["id"], "type": "lane", "name": lane["name"], "process": pid}
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


def _items(summary: dict, files: dict[str, str]) -> tuple[dict, dict]:
    info = describe(_bpmn(files))
    items = {e["id"]: e for e in summary.get("elements", [])}
    for item_id, item in _flows_and_lanes(files, info).items():
        items.setdefault(item_id, item)
    return items, _scripts(info)


def _changes(before: dict, after: dict, old_scripts: dict, new_scripts: dict, forms: tuple) -> list[str]:
    changes = [k for k in COMPARED if before.get(k) != after.get(k)]
    old_forms, new_forms = forms
    for kind in sorted(set(old_scripts) | set(new_scripts)):
        name = SCRIPT_KINDS.get(kind, "script")
        if old_scripts.get(kind) != new_scripts.get(kind) and name not in changes:
            changes.append(name)
    if any(old_forms.get(n) != new_forms.get(n) for n in form_files.task_names(before["id"])):
        changes.append("form")
    return changes


def compare(old_summary: dict, old_files: dict[str, str], new_summary: dict, new_files: dict[str, str]) -> dict:
    """{"elements": [{id, status, old, new, changes}], "forms": [{name, status}], "counts": {...}}.

    `elements` holds flow nodes, sequence flows and lanes. `status` is one of added, removed,
    changed, same; `changes` names what differs: a compared attribute, "script", "condition",
    "timer" (their expressions) or "form" (the task's schema or UI file).
    """
    old, old_scripts = _items(old_summary, old_files)
    new, new_scripts = _items(new_summary, new_files)
    old_forms, new_forms = _forms(old_files), _forms(new_files)
    rows = []
    for item_id in sorted(set(old) | set(new), key=lambda i: (i not in old, i)):
        before, after = old.get(item_id), new.get(item_id)
        if before is None or after is None:
            rows.append({"id": item_id, "status": "added" if before is None else "removed",
                         "old": before, "new": after, "changes": []})
            continue
        changes = _changes(before, after, old_scripts.get(item_id, {}), new_scripts.get(item_id, {}),
                           (old_forms, new_forms))
        rows.append({"id": item_id, "status": "changed" if changes else "same",
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
