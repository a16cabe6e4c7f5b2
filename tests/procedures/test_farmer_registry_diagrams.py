"""The farmer-registry files process owners will edit: the diagrams draw completely in bpmn-js, keep
the contract's ids, lanes and messages, and every form has Spanish labels for what it asks."""
import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from engine.forms import check_schema
from tests.procedures.conftest import REPO

NS = {"bpmn": "http://www.omg.org/spec/BPMN/20100524/MODEL",
      "bpmndi": "http://www.omg.org/spec/BPMN/20100524/DI",
      "dc": "http://www.omg.org/spec/DD/20100524/DC", "di": "http://www.omg.org/spec/DD/20100524/DI"}
DIAGRAMS = sorted((REPO / "processes" / "farmer_registry").glob("*.bpmn"))
FORMS = REPO / "forms" / "farmer_registry"
NODE_TAGS = ("startEvent", "endEvent", "userTask", "scriptTask", "receiveTask", "exclusiveGateway",
             "eventBasedGateway", "intermediateCatchEvent", "boundaryEvent")
CONTRACT_TASKS = {"evaluate_application": "registry_evaluator", "order_admission": "commissioner",
                  "notify_denial": "registry_clerk", "review_hearing": "review_board",
                  "review_decision": "commissioner", "decide_withdrawal": "commissioner"}
MESSAGES = {"documents_received", "review_requested", "renewal_filed", "status_lost"}


def bounds(shape):
    b = shape.find("dc:Bounds", NS)
    return tuple(float(b.get(k)) for k in ("x", "y", "width", "height"))


@pytest.mark.parametrize("path", DIAGRAMS, ids=lambda p: p.name)
def test_every_element_has_its_shape_and_every_flow_its_edge(path):
    root = ET.parse(path).getroot()
    shapes = {s.get("bpmnElement"): bounds(s) for s in root.iter(f"{{{NS['bpmndi']}}}BPMNShape")}
    edges = {e.get("bpmnElement"): e.findall("di:waypoint", NS) for e in root.iter(f"{{{NS['bpmndi']}}}BPMNEdge")}
    nodes = [n for tag in NODE_TAGS for n in root.iter(f"{{{NS['bpmn']}}}{tag}")]
    for element in [*nodes, *root.iter(f"{{{NS['bpmn']}}}lane"), *root.iter(f"{{{NS['bpmn']}}}participant")]:
        assert element.get("id") in shapes, element.get("id")
    for flow in root.iter(f"{{{NS['bpmn']}}}sequenceFlow"):
        points = [(float(w.get("x")), float(w.get("y"))) for w in edges.get(flow.get("id"), [])]
        assert len(points) >= 2, flow.get("id")
        for (x1, y1), (x2, y2) in zip(points, points[1:]):
            assert x1 == x2 or y1 == y2, f"{flow.get('id')} is not drawn orthogonally"
    # Each node sits inside the lane that holds it, and left-to-right order puts the start first.
    for lane in root.iter(f"{{{NS['bpmn']}}}lane"):
        lx, ly, lw, lh = shapes[lane.get("id")]
        for ref in lane.findall("bpmn:flowNodeRef", NS):
            x, y, w, h = shapes[ref.text]
            assert lx <= x and x + w <= lx + lw and ly <= y + h / 2 <= ly + lh, ref.text
    start = next(root.iter(f"{{{NS['bpmn']}}}startEvent")).get("id")
    assert shapes[start][0] == min(shapes[n.get("id")][0] for n in nodes)


def test_the_contract_ids_lanes_and_messages_are_in_the_diagrams():
    lanes, messages, catchers = {}, set(), []
    for path in DIAGRAMS:
        root = ET.parse(path).getroot()
        for lane in root.iter(f"{{{NS['bpmn']}}}lane"):
            for ref in lane.findall("bpmn:flowNodeRef", NS):
                lanes[ref.text] = lane.get("name")
        messages |= {m.get("name") for m in root.iter(f"{{{NS['bpmn']}}}message")}
        catchers += [e.find(".//{http://spiffworkflow.org/bpmn/schema/1.0/core}messageVariable") is not None
                     for e in root.iter() if e.tag.endswith(("}receiveTask", "}messageEventDefinition"))]
    assert {task: lanes.get(task) for task in CONTRACT_TASKS} == CONTRACT_TASKS
    assert messages == MESSAGES
    assert len(catchers) == 6 and all(catchers)  # every catch names the variable its payload lands in


def test_the_shared_contract_check_reports_nothing_but_notes():
    tool = REPO.parent / "shared" / "tools" / "contract_check.py"
    if not tool.exists():
        pytest.skip("the shared contract check is not beside the project")
    result = subprocess.run([sys.executable, str(tool), "farmer_registry"], cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 0 and all(": note:" in line for line in result.stdout.splitlines()), result.stdout


def _ui_paths(schema, ui, prefix=""):
    """(path, property schema, ui entry) for every property of a form, nested objects included."""
    for name, prop in schema.get("properties", {}).items():
        entry = ui.get(name, {})
        yield f"{prefix}{name}", prop, entry
        if prop.get("type") == "object":
            yield from _ui_paths(prop, entry, f"{prefix}{name}.")


@pytest.mark.parametrize("task", [*CONTRACT_TASKS, "start"])
def test_every_form_field_has_a_spanish_label_and_every_choice_a_display_name(task):
    schema = json.loads((FORMS / f"{task}.schema.json").read_text(encoding="utf-8"))
    ui = json.loads((FORMS / f"{task}.ui.json").read_text(encoding="utf-8"))
    assert check_schema(json.dumps(schema)) is None
    assert set(ui["ui:order"]) - {"*"} == set(schema["properties"])
    for path, prop, entry in _ui_paths(schema, ui):
        assert entry.get("ui:title"), f"{task}: {path} has no label"
        if "enum" in prop:
            assert len(entry.get("ui:enumNames", [])) == len(prop["enum"]), f"{task}: {path}"
    assert not any("date" in name or "fecha" in name for name in schema["properties"]), \
        "the date of an action is the clock's, never asked"


def test_every_message_payload_has_a_schema():
    for name in MESSAGES:
        content = (FORMS / f"{name}.message.schema.json").read_text(encoding="utf-8")
        assert check_schema(content) is None, name


def test_the_procedure_readme_cites_the_rules_of_every_element():
    readme = (REPO / "processes" / "farmer_registry" / "README.md").read_text(encoding="utf-8")
    ids = [n.get("id") for path in DIAGRAMS for tag in NODE_TAGS
           for n in ET.parse(path).getroot().iter(f"{{{NS['bpmn']}}}{tag}")]
    missing = [i for i in ids if f"`{i}`" not in readme]
    assert not missing, f"elements the README does not explain: {missing}"
