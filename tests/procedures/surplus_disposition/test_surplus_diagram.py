"""The surplus files process owners will edit: the diagram draws completely in bpmn-js, keeps the
contract's ids, lanes and messages, and every form has Spanish labels for what it asks."""

import pytest

from tests.procedures import diagram_checks as dc

from .conftest import REPO

DIAGRAM = REPO / "processes" / "surplus_disposition" / "surplus_disposition.bpmn"
FORMS = REPO / "forms" / "surplus_disposition"
NODE_TAGS = ("startEvent", "endEvent", "userTask", "scriptTask", "exclusiveGateway", "parallelGateway",
             "eventBasedGateway", "intermediateCatchEvent", "intermediateThrowEvent", "boundaryEvent", "subProcess")
CONTRACT_TASKS = {"select_transferee": "surplus_officer", "set_vehicle_order": "transport_chief",
                  "approve_vehicle_order": "commissioner", "draw_lottery": "surplus_officer",
                  "set_price": "surplus_officer", "record_payment": "collector", "deliver_item": "custodian",
                  "decide_return": "commissioner"}
ROOT = dc.root_of(DIAGRAM)


def test_every_element_has_its_shape_and_every_flow_its_orthogonal_edge():
    dc.assert_drawn(ROOT, NODE_TAGS + ("dataObjectReference",),
                    ("sequenceFlow", "dataInputAssociation", "dataOutputAssociation"))


def test_contract_ids_lanes_messages_and_the_per_unit_multi_instance():
    lanes = dc.lanes_of([ROOT])
    assert {task: lanes.get(task) for task in CONTRACT_TASKS} == CONTRACT_TASKS
    assert {m.get("name") for m in dc.elements(ROOT, "message")} == {"request", "audit_report_filed"}
    sale = dc.elements(ROOT, "subProcess")[0]
    loop = sale.find("bpmn:multiInstanceLoopCharacteristics", dc.NS)
    assert loop is not None and loop.find("bpmn:loopDataInputRef", dc.NS).text == "lots"
    # The sub-process has no lane of its own, so its steps keep theirs (SpiffWorkflow gives a
    # sub-process's lane to everything inside it).
    assert sale.get("id") not in lanes
    inside = {t.get("id") for t in sale.iter(f"{{{dc.NS['bpmn']}}}userTask")}
    assert {"draw_lottery", "set_price", "record_payment", "deliver_item"} <= inside


@pytest.mark.parametrize("task", [*CONTRACT_TASKS, "start"])
def test_every_form_field_has_a_spanish_label_and_every_choice_a_display_name(task):
    dc.check_form_labels(FORMS, task)


def test_the_procedure_readme_cites_the_rules_of_every_element():
    readme = (REPO / "processes" / "surplus_disposition" / "README.md").read_text(encoding="utf-8")
    assert dc.unexplained([ROOT], readme, NODE_TAGS) == []
