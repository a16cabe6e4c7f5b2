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
LETTERS = {f"letter.{k}" for k in ("denial", "denial_confirmed", "admission", "ineligibility", "closure",
                                   "purchase_order", "award", "sale", "receipt")}


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


def test_letter_types_are_named_once_in_the_general_catalogue_and_every_kind_has_one():
    from engine.letters import kinds

    for own in PROCESSES.glob("*/document_types.json"):
        assert not [e["id"] for e in json.loads(own.read_text()) if e["id"].startswith("letter.")], own
    general = {e["id"]: e for e in json.loads((PROCESSES / "document_types.json").read_text())}
    for kind in kinds.all_kinds():
        assert kinds.document_type(kind) in general, kind
    for key in KEYS:
        letters = {t["id"]: t for t in catalogue.document_types(key, PROCESSES) if t["generated"]}
        assert set(letters) == {i for i in general if i.startswith("letter.")}
        assert all(letters[i]["label_es"] == general[i]["label_es"] for i in letters)
    # A procedure's own article for its letter; another procedure's letter keeps the general one.
    far = {t["id"]: t for t in catalogue.document_types("farmer_registry_admission", PROCESSES)}
    assert far["letter.denial_confirmed"]["article"].startswith("FAR-12, FAR-13")
    assert far["letter.award"]["article"] == general["letter.award"]["article"]


def test_the_bid_reconsideration_parameters_say_what_the_sources_say():
    """The municipal regulation (text 004) names no reconsideration of an award, no term and no law:
    the catalogue says so beside our reading (10 days, Ley 107-2020), which the admin may change."""
    entries = {e["name"]: e for e in json.loads((PROCESSES / "parameters.json").read_text())}
    days, law = entries["letters.bidReconsiderationDays"], entries["letters.bidReconsiderationLaw"]
    assert days["default"] == 10 and law["default"] == "Ley 107-2020, Código Municipal de Puerto Rico"
    assert "no menciona reconsideración" in days["explanation_es"] and "004" in days["explanation_es"]
    assert "mentions no reconsideration" in days["explanation_en"] and "nuestra lectura" in law["explanation_es"]
    judicial = entries["letters.judicialReviewDays"]
    assert judicial["default"] == 30 and "no fija el término ni el tribunal" in judicial["explanation_es"]
