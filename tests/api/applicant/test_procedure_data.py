"""Which messages are the applicant's is data of each procedure (processes/<p>/applicant.json), and
each stage the diagrams set has a plain sentence in both languages."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.applicants import procedure_data

REPO = Path(__file__).resolve().parents[3]
CONTRACT = {"farmer_registry_admission": {"documents_received", "review_requested"},
            "farmer_registry_membership": {"renewal_filed"},
            "materials_aid": {"extension_requested", "completion_notified"}}
DIAGRAMS = {"farmer_registry_admission": "farmer_registry/farmer_registry_admission.bpmn",
            "farmer_registry_membership": "farmer_registry/farmer_registry_membership.bpmn",
            "materials_aid": "materials_aid/materials_aid.bpmn"}


@pytest.mark.parametrize("key", sorted(CONTRACT))
def test_the_applicants_messages_are_the_contracts(key):
    assert set(procedure_data.applicant_messages(key)) == CONTRACT[key]
    assert not procedure_data.is_applicant_message(key, "status_lost")


@pytest.mark.parametrize("key", sorted(DIAGRAMS))
def test_every_stage_reads_as_a_sentence_in_both_languages(key):
    stages = set(re.findall(r"stage = '([A-Z_]+)'", (REPO / "processes" / DIAGRAMS[key]).read_text(encoding="utf-8")))
    data = procedure_data.of(key)["stages"]
    assert stages <= set(data)
    for stage in stages:
        assert data[stage]["es"] and data[stage]["en"] and stage not in data[stage]["es"]
        for message in data[stage].get("actions", []):
            assert message in CONTRACT[key]


FORMS = {"farmer_registry_admission": "farmer_registry", "farmer_registry_membership": "farmer_registry",
         "materials_aid": "materials_aid"}


@pytest.mark.parametrize("key", sorted(DIAGRAMS))
def test_a_pending_item_names_a_timer_of_its_diagram(key):
    diagram = (REPO / "processes" / DIAGRAMS[key]).read_text(encoding="utf-8")
    for stage in procedure_data.of(key)["stages"].values():
        items = stage.get("pending")
        for item in [items] if isinstance(items, dict) else items or []:
            if "deadline" in item:
                timer = re.search(rf'id="{item["deadline"]}"[^>]*>.*?</bpmn:(?:boundaryEvent|intermediateCatchEvent)>',
                                  diagram, re.S)
                assert timer and "timerEventDefinition" in timer.group(0), item["deadline"]


@pytest.mark.parametrize("key", sorted(CONTRACT))
def test_the_page_fields_are_the_message_schemas(key):
    import json
    from engine.expediente import catalogue
    for name, spec in procedure_data.applicant_messages(key).items():
        schema = json.loads((REPO / "forms" / FORMS[key] / f"{name}.message.schema.json").read_text(encoding="utf-8"))
        for field in spec.get("fields", []):
            assert field["name"] in schema["properties"] and field["label_es"] and field["label_en"]
            if field["kind"] == "documents":
                enum = schema["properties"][field["name"]]["items"]
                enum = schema["$defs"]["document"]["properties"]["type"]["enum"] if "$ref" in enum else enum
                assert set(field["types"]) == set(enum)
                assert all(catalogue.document_type(key, t) for t in field["types"].values())
        assert set(spec.get("fixed", {})) <= set(schema["properties"])
