"""Hostile forms: a backtracking `pattern`, a `$ref` that never ends, forms and submissions too big
to draw. Each is refused at deploy (400 naming the file and the field) or on submit (413/422), and
the form preview never draws what could not end."""
from __future__ import annotations

import json
import time

import pytest

from engine.definitions.form_limits import max_rows
from tests.support import bpmn as b
from tests.web.conftest import WebClient

EVIL_PATTERN = r"^(a+)+$"  # backtracking `re` doubles its time per extra "a"


def one_task_flow(schema: dict) -> dict[str, str]:
    xml = b.diagram("test_forms", lanes={"test_clerk": ["start", "fill", "end"]},
                    nodes=[b.start(), b.user("fill"), b.end()], flows=b.chain("start", "fill", "end"))
    return {"forms.bpmn": xml, "fill.schema.json": json.dumps(schema)}


def fields(**props) -> dict:
    return {"type": "object", "properties": props}


def open_fill_task(api, schema: dict) -> dict:
    api.deploy("test_forms", one_task_flow(schema))
    case = api.post("/api/v1/processes/test_forms/instances", "clerk", {"variables": {}}, expect=201)
    return api.open_task(case, "fill")


def test_a_backtracking_pattern_is_matched_in_linear_time(api):
    task = open_fill_task(api, fields(code={"type": "string", "pattern": EVIL_PATTERN}))
    started = time.monotonic()
    done = api.call("POST", f"/api/v1/tasks/{task['id']}/complete", "clerk",
                    json={"data": {"code": "a" * 32 + "!"}})
    # Python's `re` needs minutes for this input; RE2 microseconds. A generous "does not hang" bound.
    assert time.monotonic() - started < 5
    assert done.status_code == 422 and "code" in done.get_json()["errors"], done.get_json()
    ok = api.call("POST", f"/api/v1/tasks/{task['id']}/complete", "clerk", json={"data": {"code": "aaa"}})
    assert ok.status_code == 200, ok.get_json()


def test_pattern_properties_are_matched_in_linear_time_too(api):
    schema = {"type": "object", "properties": {"bag": {
        "type": "object", "patternProperties": {EVIL_PATTERN: {"type": "integer"}},
        "additionalProperties": False}}}
    task = open_fill_task(api, schema)
    started = time.monotonic()
    done = api.call("POST", f"/api/v1/tasks/{task['id']}/complete", "clerk",
                    json={"data": {"bag": {"a" * 32 + "!": 1, "aaaa": "not a number"}}})
    assert time.monotonic() - started < 5
    assert done.status_code == 422, done.get_json()
    assert set(done.get_json()["errors"]) == {"bag", "bag.aaaa"}, done.get_json()


@pytest.mark.parametrize("pattern", [r"^(a)\1$", r"^(?!0+$)\d+$", r"(?<=x)y"])
def test_a_pattern_re2_cannot_run_is_refused_at_deploy_naming_the_field(api, pattern):
    refused = api.deploy("test_forms", one_task_flow(fields(code={"type": "string", "pattern": pattern})),
                         expect=400)
    [message] = refused["errors"]["fill.schema.json"]
    assert "/properties/code" in message and "pattern" in message, message


def test_a_bad_pattern_property_is_refused_at_deploy(api):
    schema = fields(bag={"type": "object", "patternProperties": {r"(x)\1": {"type": "string"}}})
    refused = api.deploy("test_forms", one_task_flow(schema), expect=400)
    assert "/properties/bag" in refused["errors"]["fill.schema.json"][0]


RECURSIVE = {
    "itself": {"$ref": "#"},
    "through-defs": {"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"},
    "tree": {"$defs": {"node": {"type": "object", "properties": {
        "name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}},
        "type": "object", "properties": {"root": {"$ref": "#/$defs/node"}}},
    "into-own-property": {"type": "object", "properties": {"a": {"type": "object", "properties": {
        "b": {"$ref": "#/properties/a"}}}}},
}


@pytest.mark.parametrize("name", sorted(RECURSIVE))
def test_a_recursive_ref_is_refused_at_deploy(api, name):
    refused = api.deploy("test_forms", one_task_flow(RECURSIVE[name]), expect=400)
    [message] = refused["errors"]["fill.schema.json"]
    assert "refers to itself" in message, message


@pytest.mark.parametrize("name", sorted(RECURSIVE))
def test_the_preview_of_a_recursive_form_shows_the_problem_and_draws_nothing(app, name):
    owner = WebClient(app).login("owner")
    response = owner.post_json("/web/forms/preview", {"schema": json.dumps(RECURSIVE[name]), "ui": "{}"})
    html = response.get_data(as_text=True)
    assert "refers to itself" in html and "data-preview" not in html


TOO_BIG = {
    "min-items": (fields(rows={"type": "array", "minItems": 150_000, "items": {"type": "string"}}), "minItems"),
    "huge-enum": (fields(choice={"enum": [f"o{i}" for i in range(5_000)]}), "choices"),
    "fan-out": ({"$defs": {f"d{i}": fields(a={"$ref": f"#/$defs/d{i + 1}"}, b={"$ref": f"#/$defs/d{i + 1}"})
                           for i in range(30)} | {"d30": {"type": "string"}}, "$ref": "#/$defs/d0"}, "too complex"),
    "many-fields": (fields(rows={"type": "array", "minItems": 400, "items": fields(
        **{f"f{i}": {"type": "string"} for i in range(10)})}), "fields"),
    "deep": (json.loads('{"type":"object","properties":{"x":' * 14 + '{"type":"string"}' + "}}" * 14), "deep"),
}


@pytest.mark.parametrize("name", sorted(TOO_BIG))
def test_a_form_too_big_to_draw_is_refused_at_deploy(api, name):
    schema, words = TOO_BIG[name]
    refused = api.deploy("test_forms", one_task_flow(schema), expect=400)
    [message] = refused["errors"]["fill.schema.json"]
    assert message.startswith("INVALID_FORM") and words in message, message


def test_the_preview_refuses_to_draw_150000_rows(app):
    owner = WebClient(app).login("owner")
    schema, _ = TOO_BIG["min-items"]
    html = owner.post_json("/web/forms/preview", {"schema": json.dumps(schema), "ui": "{}"}).get_data(as_text=True)
    assert "minItems 150000" in html and len(html) < 50_000


def test_rows_drawn_for_an_empty_list_stop_at_max_items():
    from api.web import formkit
    tree = formkit.build(fields(rows={"type": "array", "minItems": 400, "maxItems": 3, "items": {"type": "string"}}))
    assert len(tree.children[0].children) == 3


def test_a_submission_with_more_rows_than_any_form_holds_is_refused(api):
    task = open_fill_task(api, fields(rows={"type": "array", "items": {"type": "integer"}}))
    done = api.call("POST", f"/api/v1/tasks/{task['id']}/complete", "clerk",
                    json={"data": {"rows": list(range(max_rows() + 1))}})
    assert done.status_code == 422 and "rows" in done.get_json()["errors"], done.get_json()
    assert api.get(f"/api/v1/tasks/{task['id']}", "clerk")["state"] == "open"


def test_a_web_post_with_too_many_rows_gets_413_not_a_page_of_them_all(api, app):
    task = open_fill_task(api, fields(rows={"type": "array", "items": {"type": "string"}}))
    clerk = WebClient(app).login("clerk")
    count = max_rows() + 1
    form = {f"rows.{i}.__row": "1" for i in range(count)} | {f"rows.{i}": "x" for i in range(count)}
    response = clerk.client.post(f"/web/tasks/{task['id']}", data={"_csrf": clerk.csrf(), **form})
    assert response.status_code == 413, response.status_code
    assert len(response.get_data()) < 50_000


@pytest.mark.parametrize("name", sorted(RECURSIVE))
def test_a_recursive_form_deployed_before_the_check_still_draws_a_page_and_validates_to_422(name):
    # Such versions may already be stored: their pages and completions answer, never a RecursionError.
    from werkzeug.datastructures import MultiDict

    from api.web import formkit
    from engine.definitions import forms
    from engine.errors import ValidationFailed
    schema = RECURSIVE[name]
    tree = formkit.build(schema)
    assert tree.kind and isinstance(formkit.parse(schema, {}, MultiDict({"root.name": "x"})), dict)
    try:
        forms.validate(schema, {"a": {"b": {"b": {}}}})
    except ValidationFailed as refused:
        assert refused.errors
