"""The bid files process owners will edit: the diagram draws completely in bpmn-js, keeps the
contract's ids, lanes and message, and every form has Spanish labels for what it asks."""
import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from engine.forms import check_schema

from .conftest import REPO

NS = {"bpmn": "http://www.omg.org/spec/BPMN/20100524/MODEL",
      "bpmndi": "http://www.omg.org/spec/BPMN/20100524/DI",
      "dc": "http://www.omg.org/spec/DD/20100524/DC", "di": "http://www.omg.org/spec/DD/20100524/DI"}
DIAGRAM = REPO / "processes" / "bid_adjudication" / "bid_adjudication.bpmn"
FORMS = REPO / "forms" / "bid_adjudication"
NODE_TAGS = ("startEvent", "endEvent", "userTask", "scriptTask", "exclusiveGateway", "parallelGateway",
             "boundaryEvent")
CONTRACT_TASKS = {"record_opening": "bid_board_secretary", "evaluate_offers": "bid_board",
                  "purchasing_report": "purchasing", "set_sanctions": "bid_board", "assess_single_offer": "bid_board",
                  "break_tie": "bid_board", "award": "bid_board", "follow_up_action": "bid_board",
                  "deserted_action": "bid_board", "legislature_decision": "municipal_legislature",
                  "inform_mayor": "bid_board", "mayor_investigation": "mayor"}
ROOT = ET.parse(DIAGRAM).getroot()


def bounds(shape):
    b = shape.find("dc:Bounds", NS)
    return tuple(float(b.get(k)) for k in ("x", "y", "width", "height"))


def elements(tag):
    return list(ROOT.iter(f"{{{NS['bpmn']}}}{tag}"))


def test_every_element_has_its_shape_and_every_flow_its_orthogonal_edge():
    shapes = {s.get("bpmnElement"): bounds(s) for s in ROOT.iter(f"{{{NS['bpmndi']}}}BPMNShape")}
    edges = {e.get("bpmnElement"): e.findall("di:waypoint", NS) for e in ROOT.iter(f"{{{NS['bpmndi']}}}BPMNEdge")}
    nodes = [n for tag in NODE_TAGS for n in elements(tag)]
    for element in [*nodes, *elements("lane"), *elements("participant")]:
        assert element.get("id") in shapes, element.get("id")
    for flow in elements("sequenceFlow"):
        points = [(float(w.get("x")), float(w.get("y"))) for w in edges.get(flow.get("id"), [])]
        assert len(points) >= 2, flow.get("id")
        for (x1, y1), (x2, y2) in zip(points, points[1:]):
            assert x1 == x2 or y1 == y2, f"{flow.get('id')} is not drawn orthogonally"
    # Boundary events sit on their task's edge; they belong to the Junta's lane, which sends `cancel`.
    boundary = {b.get("id") for b in elements("boundaryEvent")}
    for lane in elements("lane"):
        lx, ly, lw, lh = shapes[lane.get("id")]
        for ref in lane.findall("bpmn:flowNodeRef", NS):
            if ref.text in boundary:
                continue
            x, y, w, h = shapes[ref.text]
            assert lx <= x and x + w <= lx + lw and ly <= y + h / 2 <= ly + lh, ref.text


def test_the_contract_ids_lanes_and_the_cancellation_before_award():
    lanes = {ref.text: lane.get("name") for lane in elements("lane") for ref in lane.findall("bpmn:flowNodeRef", NS)}
    assert {task: lanes.get(task) for task in CONTRACT_TASKS} == CONTRACT_TASKS
    assert {m.get("name") for m in elements("message")} == {"cancel"}
    cancellable = {b.get("attachedToRef") for b in elements("boundaryEvent")}
    assert cancellable == set(CONTRACT_TASKS), "cancel must be catchable at every wait before the award"
    assert all(lanes[b.get("id")] == "bid_board" for b in elements("boundaryEvent"))


def test_the_shared_contract_check_reports_nothing_but_notes():
    tool = REPO.parent / "shared" / "tools" / "contract_check.py"
    if not tool.exists():
        pytest.skip("the shared contract check is not beside the project")
    result = subprocess.run([sys.executable, str(tool), "bid_adjudication"], cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 0 and all(": note:" in line for line in result.stdout.splitlines()), result.stdout


def _ui_paths(schema, ui, prefix=""):
    for name, prop in schema.get("properties", {}).items():
        entry = ui.get(name, {})
        yield f"{prefix}{name}", prop, entry
        if "object" in (prop.get("type") if isinstance(prop.get("type"), list) else [prop.get("type")]):
            yield from _ui_paths(prop, entry, f"{prefix}{name}.")
        if prop.get("type") == "array" and prop["items"].get("type") == "object":
            yield from _ui_paths(prop["items"], entry.get("items", {}), f"{prefix}{name}[].")


@pytest.mark.parametrize("task", [*CONTRACT_TASKS, "start"])
def test_every_form_field_has_a_spanish_label_and_every_choice_a_display_name(task):
    schema = json.loads((FORMS / f"{task}.schema.json").read_text(encoding="utf-8"))
    ui = json.loads((FORMS / f"{task}.ui.json").read_text(encoding="utf-8"))
    assert check_schema(json.dumps(schema)) is None
    assert set(ui["ui:order"]) == set(schema["properties"])
    for path, prop, entry in _ui_paths(schema, ui):
        if path == "surplus_item":
            continue
        assert entry.get("ui:title"), f"{task}: {path} has no label"
        if "enum" in prop:
            assert len(entry.get("ui:enumNames", [])) == len(prop["enum"]), f"{task}: {path}"


def test_the_offer_tables_take_many_rows():
    for task, field in (("record_opening", "offers"), ("evaluate_offers", "evaluations")):
        schema = json.loads((FORMS / f"{task}.schema.json").read_text(encoding="utf-8"))
        assert schema["properties"][field]["type"] == "array" and schema["properties"][field]["maxItems"] >= 20
    assert check_schema((FORMS / "cancel.message.schema.json").read_text(encoding="utf-8")) is None


def test_the_procedure_readme_cites_the_rules_of_every_element():
    readme = (REPO / "processes" / "bid_adjudication" / "README.md").read_text(encoding="utf-8")
    ids = [n.get("id") for tag in NODE_TAGS if tag != "boundaryEvent" for n in elements(tag)]
    missing = [i for i in ids if f"`{i}`" not in readme]
    assert not missing, f"elements the README does not explain: {missing}"
