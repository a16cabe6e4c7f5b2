"""Oversized, deeply nested and unrepresentable JSON is refused with 400 or 413, never 500, on every
kind of endpoint that takes JSON: start, complete, message, and the admin's writes."""
from __future__ import annotations

import io
import time

import pytest

from api.app import MAX_REQUEST_BYTES
from api.hostile_input import MAX_JSON_DEPTH
from tests.support import bpmn as b
from tests.support.diagrams import message_flow, script_flow

from .test_xml_uploads import HugeUpload


@pytest.fixture
def cases(api):
    """A case waiting at its clerk task and one waiting for a message: (start path, complete path,
    message path)."""
    api.deploy("test_script", script_flow("y = 1"))
    api.deploy("test_message", message_flow())
    task = api.open_task(api.post("/api/v1/processes/test_script/instances", "clerk", {"variables": {}}, expect=201),
                         "intake")
    waiting = api.post("/api/v1/processes/test_message/instances", "clerk", {"variables": {}}, expect=201)
    return {"start": "/api/v1/processes/test_script/instances",
            "complete": f"/api/v1/tasks/{task['id']}/complete",
            "message": f"/api/v1/instances/{waiting['id']}/messages/documents_received",
            "user": "/api/v1/users"}


def send(api, path: str, body: str | bytes, as_user: str):
    started = time.perf_counter()
    response = api.call("POST", path, as_user, data=body, content_type="application/json")
    assert response.status_code < 500, response.get_data(as_text=True)[:500]
    assert time.perf_counter() - started < 10
    return response


def wrap(where: str, value: str) -> str:
    field = {"start": "variables", "complete": "data", "message": "payload"}.get(where)
    if field is None:  # a new user: the value goes into the full name
        return f'{{"username": "u1", "password": "secreto-123", "roles": [], "full_name": {value}}}'
    return f'{{"{field}": {{"documents": ["a"], "v": {value}}}}}'


def nested(depth: int) -> str:
    return '{"a": ' * (depth - 1) + "[1]" + "}" * (depth - 1)


WHERE = ["start", "complete", "message", "user"]
WHO = {"start": "clerk", "complete": "clerk", "message": "clerk", "user": "admin"}


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 1_000, 100_000])
def test_deeply_nested_json_is_refused(api, cases, where, depth):
    # The body adds two levels of its own around the value.
    refused = send(api, cases[where], wrap(where, nested(depth)), WHO[where])
    assert refused.status_code == 400
    assert refused.get_json()["errors"] == {"json": ["TOO_DEEP"]}


def test_nesting_up_to_the_limit_is_accepted(api, cases):
    case = send(api, cases["start"], wrap("start", nested(MAX_JSON_DEPTH - 2)), "clerk")
    assert case.status_code == 201
    assert api.get(f"/api/v1/instances/{case.get_json()['id']}", "clerk")["status"] == "active"


def test_brackets_inside_strings_do_not_count_as_nesting(api, cases):
    text = '"' + "[{" * 5_000 + '\\"' + "]}" * 10 + '"'
    assert send(api, cases["start"], wrap("start", text), "clerk").status_code == 201


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("value, code", [
    ("NaN", "INVALID_JSON"), ("Infinity", "INVALID_JSON"), ("-Infinity", "INVALID_JSON"),
    ("1e999", "INVALID_JSON"), ("1" * 5_000, "INVALID_JSON"), ('"a\\u0000b"', "NUL_CHARACTER"),
    ('"\\ud800"', "LONE_SURROGATE"), ('"\\udfff\\ud800"', "LONE_SURROGATE"), ('{"a": 1', "INVALID_JSON"),
])
def test_json_no_database_can_store_is_refused(api, cases, where, value, code):
    refused = send(api, cases[where], wrap(where, value), WHO[where])
    assert refused.status_code == 400
    assert refused.get_json()["errors"] == {"json": [code]}


def test_an_escaped_backslash_before_u0000_is_text_not_a_nul(api, cases):
    case = send(api, cases["start"], wrap("start", '"C:\\\\u0000 and \\ud83d\\ude00"'), "clerk")
    assert case.status_code == 201
    assert case.get_json()["variables"]["v"] == "C:\\u0000 and \U0001F600"


def test_json_over_the_request_limit_is_refused_before_it_is_read(api, cases):
    body = HugeUpload(MAX_REQUEST_BYTES + 5 * 1024 * 1024)
    response = api.call("POST", cases["start"], "clerk", input_stream=body, content_length=body.size,
                        content_type="application/json")
    assert response.status_code == 413 and response.get_json()["code"] == 413
    assert body.served < 1024 * 1024


def test_a_large_body_within_the_limit_gets_an_ordinary_answer(api, cases):
    # Two megabytes of fields the form does not know: 422 per field, in bounded time.
    fields = ", ".join(f'"f{i}": "{"x" * 100}"' for i in range(20_000))
    refused = send(api, cases["complete"], f'{{"data": {{{fields}}}}}', "clerk")
    assert refused.status_code == 422


@pytest.mark.parametrize("path", [
    "/api/v1/instances?q=%00", "/api/v1/tasks?element_id=a%00", "/api/v1/registries/farmers/a%00b",
    "/api/v1/registries/beneficiaries?q=%00", "/api/v1/processes/a%00/versions/1",
])
def test_nul_characters_in_the_url_are_refused(api, path):
    response = api.call("GET", path, "admin")
    assert response.status_code == 400, response.get_data(as_text=True)[:300]
    assert list(response.get_json()["errors"].values()) == [["NUL_CHARACTER"]]


@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 100_000])
@pytest.mark.parametrize("name", ["intake.schema.json", "intake.ui.json"])
def test_deeply_nested_form_files_are_refused_at_deploy(api, name, depth):
    xml = b.diagram("test_deep", lanes={"test_clerk": ["start", "intake", "end"]},
                    nodes=[b.start(), b.user("intake"), b.end()], flows=b.chain("start", "intake", "end"))
    files = {"deep.bpmn": xml, "intake.schema.json": b.form({}),
             name: '{"type": "object", "properties": {"a": ' + '{"items": ' * depth + "{}" + "}" * depth + "}}"}
    data = {"files": [(io.BytesIO(c.encode()), n) for n, c in files.items()]}
    refused = api.call("POST", "/api/v1/processes/test_deep/versions", "owner", data=data,
                       content_type="multipart/form-data")
    assert refused.status_code == 400, refused.get_data(as_text=True)[:300]
    assert refused.get_json()["errors"] == {name: ["TOO_DEEP"]}


def test_a_method_the_route_does_not_take_answers_405_with_allow(api):
    response = api.call("DELETE", "/api/v1/processes", "admin")
    assert response.status_code == 405 and "GET" in response.headers["Allow"]
    assert response.get_json()["code"] == 405
