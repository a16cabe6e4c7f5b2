"""Unit tests for engine.definitions.form_files: the one place that names a version's form files."""
from __future__ import annotations

import json

import pytest

from engine.definitions import form_files

SCHEMA = {"type": "object", "properties": {"name": {"type": "string"}}}
UI = {"name": {"ui:widget": "textarea"}}


def pair(form) -> tuple:
    """What a form holds, read now (a Form reads each file when first asked)."""
    return form.schema, form.ui


def files(**named) -> dict[str, str]:
    return {name: json.dumps(content) for name, content in named.items()}


def test_the_names_of_each_kind_of_form():
    assert form_files.task_names("review") == ("review.schema.json", "review.ui.json")
    assert form_files.start_names() == ("start.schema.json", "start.ui.json")
    assert form_files.message_names("documents_arrived") == ("documents_arrived.message.schema.json",
                                                             "documents_arrived.message.ui.json")


def test_task_form_reads_schema_and_ui():
    version = {"review.schema.json": json.dumps(SCHEMA), "review.ui.json": json.dumps(UI), "p.bpmn": "<xml/>"}
    assert pair(form_files.task_form(version, "review")) == (SCHEMA, UI)
    schema, ui = form_files.task_form(version, "review")
    assert (schema, ui) == (SCHEMA, UI)


def test_a_missing_file_is_none():
    version = {"review.schema.json": json.dumps(SCHEMA)}
    assert pair(form_files.task_form(version, "review")) == (SCHEMA, None)
    assert pair(form_files.task_form(version, "other")) == (None, None)
    assert pair(form_files.start_form(version)) == (None, None)
    assert pair(form_files.message_form(version, "review")) == (None, None)


def test_start_and_message_forms():
    version = {"start.schema.json": json.dumps(SCHEMA), "start.ui.json": json.dumps(UI),
               "late.message.schema.json": json.dumps(SCHEMA)}
    assert pair(form_files.start_form(version)) == (SCHEMA, UI)
    assert pair(form_files.message_form(version, "late")) == (SCHEMA, None)
    # A message form is not the task form of an element named like the message.
    assert pair(form_files.task_form(version, "late")) == (None, None)


def test_find_matches_the_base_name_whatever_the_folder():
    version = {"forms/review.schema.json": json.dumps(SCHEMA)}
    assert form_files.find(version, "review.schema.json") == SCHEMA
    assert form_files.task_form(version, "review").schema == SCHEMA
    assert form_files.find(version, "forms/review.schema.json") is None


def test_has_task_form_goes_by_name_so_a_broken_file_still_counts():
    assert form_files.has_task_form({"review.schema.json": "{not json"}, "review")
    assert form_files.has_task_form({"sub/review.schema.json": "{}"}, "review")
    assert not form_files.has_task_form({"review.ui.json": "{}"}, "review")
    assert not form_files.has_task_form({}, "review")


@pytest.mark.parametrize(("name", "form", "schema", "ui"), [
    ("review.schema.json", True, True, False),
    ("review.ui.json", True, False, True),
    ("start.schema.json", True, True, False),
    ("late.message.ui.json", True, False, True),
    ("parameters.json", False, False, False),
    ("process.bpmn", False, False, False),
    ("review.schema.json.bak", False, False, False),
])
def test_kinds_of_file(name, form, schema, ui):
    assert form_files.is_form_file(name) is form
    assert form_files.is_schema_file(name) is schema
    assert form_files.is_ui_file(name) is ui


@pytest.mark.parametrize(("name", "owner"), [
    ("review.schema.json", ("task", "review")),
    ("review.ui.json", ("task", "review")),
    ("start.schema.json", ("start", None)),
    ("start.ui.json", ("start", None)),
    ("late.message.schema.json", ("message", "late")),
    ("late.message.ui.json", ("message", "late")),
    ("forms/late.message.ui.json", ("message", "late")),
    ("restart.schema.json", ("task", "restart")),
    ("parameters.json", None),
    ("process.bpmn", None),
])
def test_form_owner(name, owner):
    assert form_files.form_owner(name) == owner


def test_each_name_maps_back_to_its_owner():
    assert {form_files.form_owner(n) for n in form_files.task_names("t1")} == {("task", "t1")}
    assert {form_files.form_owner(n) for n in form_files.start_names()} == {("start", None)}
    assert {form_files.form_owner(n) for n in form_files.message_names("m")} == {("message", "m")}


def test_ui_beside_a_schema():
    assert form_files.ui_beside("review.schema.json") == "review.ui.json"
    assert form_files.ui_beside("late.message.schema.json") == "late.message.ui.json"
    with pytest.raises(ValueError):
        form_files.ui_beside("review.ui.json")
