"""The shipped document-type catalogues: every procedure's, each letter kind, checklist fields that exist."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.expediente import catalogue

ROOT = Path(__file__).resolve().parents[3]
PROCESSES = ROOT / "processes"
KEYS = ["farmer_registry_admission", "farmer_registry_membership", "materials_aid", "bid_adjudication",
        "surplus_disposition"]
LETTERS = {f"letter.{k}" for k in ("denial", "admission", "ineligibility", "purchase_order", "award", "sale",
                                   "receipt")}


@pytest.mark.parametrize("key", KEYS)
def test_each_process_has_its_catalogue_with_every_letter_kind(key):
    types = catalogue.document_types(key, PROCESSES)
    ids = {t["id"] for t in types}
    assert LETTERS <= ids
    assert all(t["label_es"] and t["label_en"] and t["article"] for t in types)


def test_checklist_fields_name_fields_of_their_task_forms():
    for key in KEYS:
        folder = "farmer_registry" if key.startswith("farmer") else key
        for entry in catalogue.document_types(key, PROCESSES):
            for field in entry["checklist"]:
                task, _, path = field.partition(".")
                schema = json.loads((ROOT / "forms" / folder / f"{task}.schema.json").read_text())
                assert path.split(".")[0] in schema["properties"], field


def test_materials_aid_record_documents_maps_its_boxes():
    boxes = catalogue.checklist_types("materials_aid", "record_documents", PROCESSES)
    assert boxes["photos"]["id"] == "photos_2x2" and boxes["engineer_design"]["id"] == "engineer_design"


def test_the_api_serves_a_shipped_catalogue(api, monkeypatch):
    monkeypatch.setenv("TRAMITE_PROCESSES_DIR", str(PROCESSES))
    types = api.get("/api/v1/processes/materials_aid/document-types", "clerk")
    assert types[0]["id"] == "photos_2x2" and "MAT-09" in types[0]["article"]


def test_a_process_without_a_procedure_folder_takes_the_general_catalogue():
    ids = {t["id"] for t in catalogue.document_types("an_owners_own_process", PROCESSES)}
    assert "other" in ids and LETTERS <= ids
    assert not catalogue.has_own_catalogue("an_owners_own_process", PROCESSES)
