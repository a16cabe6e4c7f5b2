"""The farmer-registry files process owners will edit: the diagrams draw completely in bpmn-js, keep
the contract's ids, lanes and messages, and every form has Spanish labels for what it asks."""
import json

import pytest

from engine.definitions.forms import check_schema
from tests.procedures import diagram_checks as dc
from tests.procedures.farmer_registry.conftest import REPO

DIAGRAMS = sorted((REPO / "processes" / "farmer_registry").glob("*.bpmn"))
FORMS = REPO / "forms" / "farmer_registry"
NODE_TAGS = ("startEvent", "endEvent", "userTask", "scriptTask", "receiveTask", "exclusiveGateway",
             "eventBasedGateway", "intermediateCatchEvent", "boundaryEvent")
CONTRACT_TASKS = {"evaluate_application": "registry_evaluator", "order_admission": "commissioner",
                  "notify_denial": "registry_clerk", "review_hearing": "review_board",
                  "review_decision": "commissioner", "decide_withdrawal": "commissioner"}
MESSAGES = {"documents_received", "review_requested", "renewal_filed", "status_lost"}
ROOTS = [dc.root_of(path) for path in DIAGRAMS]


@pytest.mark.parametrize("root", ROOTS, ids=[p.name for p in DIAGRAMS])
def test_every_element_has_its_shape_and_every_flow_its_edge(root):
    dc.assert_drawn(root, NODE_TAGS)
    # Each node sits inside the lane that holds it, and left-to-right order puts the start first.
    dc.assert_inside_lanes(root)
    shapes = dc.shapes(root)
    nodes = [n for tag in NODE_TAGS for n in dc.elements(root, tag)]
    start = dc.elements(root, "startEvent")[0].get("id")
    assert shapes[start][0] == min(shapes[n.get("id")][0] for n in nodes)


def test_the_contract_ids_lanes_and_messages_are_in_the_diagrams():
    lanes = dc.lanes_of(ROOTS)
    messages = {m.get("name") for root in ROOTS for m in dc.elements(root, "message")}
    catchers = [e.find(".//{http://spiffworkflow.org/bpmn/schema/1.0/core}messageVariable") is not None
                for root in ROOTS for e in root.iter() if e.tag.endswith(("}receiveTask", "}messageEventDefinition"))]
    assert {task: lanes.get(task) for task in CONTRACT_TASKS} == CONTRACT_TASKS
    assert messages == MESSAGES
    assert len(catchers) == 6 and all(catchers)  # every catch names the variable its payload lands in


@pytest.mark.parametrize("task", [*CONTRACT_TASKS, "start"])
def test_every_form_field_has_a_spanish_label_and_every_choice_a_display_name(task):
    schema = json.loads((FORMS / f"{task}.schema.json").read_text(encoding="utf-8"))
    ui = json.loads((FORMS / f"{task}.ui.json").read_text(encoding="utf-8"))
    assert check_schema(json.dumps(schema)) is None
    assert set(ui["ui:order"]) - {"*"} == set(schema["properties"])
    assert dc.unlabelled(schema, ui) == [], task
    assert not any("date" in name or "fecha" in name for name in schema["properties"]), \
        "the date of an action is the clock's, never asked"


def test_every_message_payload_has_a_schema():
    for name in MESSAGES:
        content = (FORMS / f"{name}.message.schema.json").read_text(encoding="utf-8")
        assert check_schema(content) is None, name


def test_the_procedure_readme_cites_the_rules_of_every_element():
    readme = (REPO / "processes" / "farmer_registry" / "README.md").read_text(encoding="utf-8")
    missing = dc.unexplained(ROOTS, readme, NODE_TAGS)
    assert not missing, f"elements the README does not explain: {missing}"
