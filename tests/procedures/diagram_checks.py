"""What every procedure's diagram and forms must satisfy for the people who edit them: each element
drawn (bpmn-js shows only what has DI), flows drawn orthogonally, nodes inside their lanes, forms
labelled in Spanish, every element explained in the procedure's README, the shared contract check
clean. The procedure tests call these with their own contract."""
from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from itertools import pairwise
from pathlib import Path

from engine.definitions.forms import check_schema

NS = {"bpmn": "http://www.omg.org/spec/BPMN/20100524/MODEL",
      "bpmndi": "http://www.omg.org/spec/BPMN/20100524/DI",
      "dc": "http://www.omg.org/spec/DD/20100524/DC", "di": "http://www.omg.org/spec/DD/20100524/DI"}


def root_of(path: Path):
    return ET.parse(path).getroot()


def elements(root, tag: str) -> list:
    return list(root.iter(f"{{{NS['bpmn']}}}{tag}"))


def shapes(root) -> dict[str, tuple[float, float, float, float]]:
    out = {}
    for shape in root.iter(f"{{{NS['bpmndi']}}}BPMNShape"):
        b = shape.find("dc:Bounds", NS)
        out[shape.get("bpmnElement")] = tuple(float(b.get(k)) for k in ("x", "y", "width", "height"))
    return out


def assert_drawn(root, node_tags, flow_tags=("sequenceFlow",)) -> None:
    """Every node, lane and pool has a shape; every flow an orthogonal edge of two points or more."""
    drawn = shapes(root)
    edges = {e.get("bpmnElement"): e.findall("di:waypoint", NS) for e in root.iter(f"{{{NS['bpmndi']}}}BPMNEdge")}
    for element in [n for tag in node_tags for n in elements(root, tag)] + elements(root, "lane") + \
            elements(root, "participant"):
        assert element.get("id") in drawn, element.get("id")
    for flow in [f for tag in flow_tags for f in elements(root, tag)]:
        points = [(float(w.get("x")), float(w.get("y"))) for w in edges.get(flow.get("id"), [])]
        assert len(points) >= 2, flow.get("id")
        for (x1, y1), (x2, y2) in pairwise(points):
            assert x1 == x2 or y1 == y2, f"{flow.get('id')} is not drawn orthogonally"


def assert_inside_lanes(root, skip=frozenset()) -> None:
    drawn = shapes(root)
    for lane in elements(root, "lane"):
        lx, ly, lw, lh = drawn[lane.get("id")]
        for ref in lane.findall("bpmn:flowNodeRef", NS):
            if ref.text in skip:
                continue
            x, y, w, h = drawn[ref.text]
            assert lx <= x and x + w <= lx + lw and ly <= y + h / 2 <= ly + lh, ref.text


def lanes_of(roots) -> dict[str, str]:
    return {ref.text: lane.get("name") for root in roots for lane in elements(root, "lane")
            for ref in lane.findall("bpmn:flowNodeRef", NS)}


def contract_check(repo: Path, key: str) -> tuple[int, str] | None:
    """(exit status, output) of ../shared/tools/contract_check.py, None when the tool is not beside us."""
    tool = repo.parent / "shared" / "tools" / "contract_check.py"
    if not tool.exists():
        return None
    result = subprocess.run([sys.executable, str(tool), key], cwd=repo, capture_output=True, text=True, check=False)
    return result.returncode, result.stdout


def ui_paths(schema: dict, ui: dict, prefix: str = ""):
    """(path, property schema, ui entry) for every property of a form, nested objects and rows of
    lists of objects included."""
    for name, prop in schema.get("properties", {}).items():
        entry = ui.get(name, {})
        yield f"{prefix}{name}", prop, entry
        kinds = prop.get("type") if isinstance(prop.get("type"), list) else [prop.get("type")]
        if "object" in kinds and prop.get("properties"):
            yield from ui_paths(prop, entry, f"{prefix}{name}.")
        if prop.get("type") == "array" and isinstance(prop.get("items"), dict) and prop["items"].get("type") == "object":
            yield from ui_paths(prop["items"], entry.get("items", {}), f"{prefix}{name}[].")


def unlabelled(schema: dict, ui: dict, skip=()) -> list[str]:
    """Fields without a Spanish label, or choices without display names."""
    wrong = []
    for path, prop, entry in ui_paths(schema, ui):
        if path in skip:
            continue
        if not entry.get("ui:title"):
            wrong.append(f"{path} has no label")
        elif "enum" in prop and len(entry.get("ui:enumNames", [])) != len(prop["enum"]):
            wrong.append(f"{path} has choices without names")
    return wrong


def unexplained(roots, readme: str, node_tags) -> list[str]:
    ids = [n.get("id") for root in roots for tag in node_tags for n in elements(root, tag)]
    return [i for i in ids if f"`{i}`" not in readme]


def check_form_labels(forms: Path, task: str, skip=frozenset()) -> None:
    """A task's form is valid JSON Schema, its UI orders every field, and every field has a Spanish
    label and every choice a display name."""
    schema = json.loads((forms / f"{task}.schema.json").read_text(encoding="utf-8"))
    ui = json.loads((forms / f"{task}.ui.json").read_text(encoding="utf-8"))
    assert check_schema(json.dumps(schema)) is None
    assert set(ui["ui:order"]) == set(schema["properties"])
    assert unlabelled(schema, ui, skip=skip) == [], task
