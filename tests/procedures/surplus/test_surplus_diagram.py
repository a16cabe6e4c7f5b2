"""The surplus files process owners will edit: the diagram draws completely in bpmn-js, keeps the
contract's ids, lanes and messages, and every form has Spanish labels for what it asks."""
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
DIAGRAM = REPO / "processes" / "surplus_disposition" / "surplus_disposition.bpmn"
FORMS = REPO / "forms" / "surplus_disposition"
NODE_TAGS = ("startEvent", "endEvent", "userTask", "scriptTask", "exclusiveGateway", "parallelGateway",
             "eventBasedGateway", "intermediateCatchEvent", "intermediateThrowEvent", "boundaryEvent", "subProcess",
             "dataObjectReference")
CONTRACT_TASKS = {"select_transferee": "surplus_officer", "set_vehicle_order": "transport_chief",
                  "approve_vehicle_order": "commissioner", "draw_lottery": "surplus_officer",
                  "set_price": "surplus_officer", "record_payment": "collector", "deliver_item": "custodian",
                  "decide_return": "commissioner"}
ROOT = ET.parse(DIAGRAM).getroot()


def elements(tag):
    return list(ROOT.iter(f"{{{NS['bpmn']}}}{tag}"))


def test_every_element_has_its_shape_and_every_flow_its_orthogonal_edge():
    shapes = {s.get("bpmnElement") for s in ROOT.iter(f"{{{NS['bpmndi']}}}BPMNShape")}
    edges = {e.get("bpmnElement"): e.findall("di:waypoint", NS) for e in ROOT.iter(f"{{{NS['bpmndi']}}}BPMNEdge")}
    for element in [n for tag in NODE_TAGS for n in elements(tag)] + elements("lane") + elements("participant"):
        assert element.get("id") in shapes, element.get("id")
    for flow in elements("sequenceFlow") + elements("dataInputAssociation") + elements("dataOutputAssociation"):
        points = [(float(w.get("x")), float(w.get("y"))) for w in edges.get(flow.get("id"), [])]
        assert len(points) >= 2, flow.get("id")
        for (x1, y1), (x2, y2) in zip(points, points[1:]):
            assert x1 == x2 or y1 == y2, f"{flow.get('id')} is not drawn orthogonally"


def test_contract_ids_lanes_messages_and_the_per_unit_multi_instance():
    lanes = {ref.text: lane.get("name") for lane in elements("lane") for ref in lane.findall("bpmn:flowNodeRef", NS)}
    assert {task: lanes.get(task) for task in CONTRACT_TASKS} == CONTRACT_TASKS
    assert {m.get("name") for m in elements("message")} == {"request", "audit_report_filed"}
    sale = elements("subProcess")[0]
    loop = sale.find("bpmn:multiInstanceLoopCharacteristics", NS)
    assert loop is not None and loop.find("bpmn:loopDataInputRef", NS).text == "lots"
    # The sub-process has no lane of its own, so its steps keep theirs (SpiffWorkflow gives a
    # sub-process's lane to everything inside it).
    assert sale.get("id") not in lanes
    inside = {t.get("id") for t in sale.iter(f"{{{NS['bpmn']}}}userTask")}
    assert {"draw_lottery", "set_price", "record_payment", "deliver_item"} <= inside


def test_the_shared_contract_check_reports_nothing_but_notes():
    tool = REPO.parent / "shared" / "tools" / "contract_check.py"
    if not tool.exists():
        pytest.skip("the shared contract check is not beside the project")
    result = subprocess.run([sys.executable, str(tool), "surplus_disposition"], cwd=REPO, capture_output=True,
                            text=True)
    assert result.returncode == 0 and all(": note:" in line for line in result.stdout.splitlines()), result.stdout


def _ui_paths(schema, ui, prefix=""):
    for name, prop in schema.get("properties", {}).items():
        entry = ui.get(name, {})
        yield f"{prefix}{name}", prop, entry
        kinds = prop.get("type") if isinstance(prop.get("type"), list) else [prop.get("type")]
        if "object" in kinds and prop.get("properties"):
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
        assert entry.get("ui:title"), f"{task}: {path} has no label"
        if "enum" in prop:
            assert len(entry.get("ui:enumNames", [])) == len(prop["enum"]), f"{task}: {path}"


def test_the_procedure_readme_cites_the_rules_of_every_element():
    readme = (REPO / "processes" / "surplus_disposition" / "README.md").read_text(encoding="utf-8")
    ids = [n.get("id") for tag in NODE_TAGS if tag not in ("dataObjectReference",) for n in elements(tag)]
    missing = [i for i in ids if f"`{i}`" not in readme]
    assert not missing, f"elements the README does not explain: {missing}"
