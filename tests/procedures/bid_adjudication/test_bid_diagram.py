"""The bid files process owners will edit: the diagram draws completely in bpmn-js, keeps the
contract's ids, lanes and message, and every form has Spanish labels for what it asks."""
import json

import pytest

from engine.definitions.forms import check_schema
from tests.procedures import diagram_checks as dc

from .conftest import REPO

DIAGRAM = REPO / "processes" / "bid_adjudication" / "bid_adjudication.bpmn"
FORMS = REPO / "forms" / "bid_adjudication"
NODE_TAGS = ("startEvent", "endEvent", "userTask", "scriptTask", "exclusiveGateway", "parallelGateway",
             "boundaryEvent")
CONTRACT_TASKS = {"record_opening": "bid_board_secretary", "evaluate_offers": "bid_board",
                  "purchasing_report": "purchasing", "set_sanctions": "bid_board", "assess_single_offer": "bid_board",
                  "break_tie": "bid_board", "award": "bid_board", "follow_up_action": "bid_board",
                  "deserted_action": "bid_board", "legislature_decision": "municipal_legislature",
                  "inform_mayor": "bid_board", "mayor_investigation": "mayor"}
ROOT = dc.root_of(DIAGRAM)


def elements(tag):
    return dc.elements(ROOT, tag)


def test_every_element_has_its_shape_and_every_flow_its_orthogonal_edge():
    dc.assert_drawn(ROOT, NODE_TAGS)
    # Boundary events sit on their task's edge; they belong to the Junta's lane, which sends `cancel`.
    dc.assert_inside_lanes(ROOT, skip={b.get("id") for b in elements("boundaryEvent")})


def test_the_contract_ids_lanes_and_the_cancellation_before_award():
    lanes = dc.lanes_of([ROOT])
    assert {task: lanes.get(task) for task in CONTRACT_TASKS} == CONTRACT_TASKS
    assert {m.get("name") for m in elements("message")} == {"cancel"}
    cancellable = {b.get("attachedToRef") for b in elements("boundaryEvent")}
    assert cancellable == set(CONTRACT_TASKS), "cancel must be catchable at every wait before the award"
    assert all(lanes[b.get("id")] == "bid_board" for b in elements("boundaryEvent"))


@pytest.mark.parametrize("task", [*CONTRACT_TASKS, "start"])
def test_every_form_field_has_a_spanish_label_and_every_choice_a_display_name(task):
    dc.check_form_labels(FORMS, task, skip={"surplus_item"})


def test_the_offer_tables_take_many_rows():
    for task, field in (("record_opening", "offers"), ("evaluate_offers", "evaluations")):
        schema = json.loads((FORMS / f"{task}.schema.json").read_text(encoding="utf-8"))
        assert schema["properties"][field]["type"] == "array" and schema["properties"][field]["maxItems"] >= 20
    assert check_schema((FORMS / "cancel.message.schema.json").read_text(encoding="utf-8")) is None


def test_the_procedure_readme_cites_the_rules_of_every_element():
    readme = (REPO / "processes" / "bid_adjudication" / "README.md").read_text(encoding="utf-8")
    missing = dc.unexplained([ROOT], readme, [t for t in NODE_TAGS if t != "boundaryEvent"])
    assert not missing, f"elements the README does not explain: {missing}"
