"""Deploy refuses what cannot run, naming the element at fault (400); nothing is stored."""

import pytest

from tests.support.diagrams import rules_flow, script_flow


def versions(api):
    return api.get("/api/v1/processes", "owner")


def test_malformed_xml_is_refused_with_the_file_and_line(api):
    files = rules_flow()
    files["rules.bpmn"] = files["rules.bpmn"].replace("</bpmn:process>", "</bpmn:proces>")
    refused = api.deploy("test_rules", files, expect=400)
    assert "rules.bpmn" in refused["errors"]
    assert "MALFORMED_XML" in refused["errors"]["rules.bpmn"][0]
    assert versions(api) == []


def test_a_user_task_without_a_form_is_refused(api):
    files = rules_flow()
    del files["approve.schema.json"]
    refused = api.deploy("test_rules", files, expect=400)
    assert refused["errors"]["approve"] == ["USER_TASK_WITHOUT_FORM: upload approve.schema.json"]


def test_a_lane_that_is_not_a_role_is_refused(api):
    files = rules_flow()
    files["rules.bpmn"] = files["rules.bpmn"].replace('name="test_reviewer"', 'name="jefe_supremo"')
    refused = api.deploy("test_rules", files, expect=400)
    assert "LANE_NOT_A_ROLE" in refused["errors"]["Lane_test_reviewer"][0]


def test_a_form_that_is_not_json_schema_is_refused(api):
    files = rules_flow()
    files["approve.schema.json"] = '{"type": "objeto"}'
    refused = api.deploy("test_rules", files, expect=400)
    assert "INVALID_FORM" in refused["errors"]["approve.schema.json"][0]


@pytest.mark.parametrize("code, expected", [
    ("import os", "SCRIPT_INVALID"),
    ("x = open('/etc/passwd').read()", "UNKNOWN_FUNCTION"),
    ("m = __import__('os')", "SCRIPT_INVALID"),
    ("x = eval('1+1')", "UNKNOWN_FUNCTION"),
    ("x = ().__class__.__base__.__subclasses__()", "SCRIPT_INVALID"),
    ("x = os_system('ls')", "UNKNOWN_FUNCTION"),
    ("x = (", "SCRIPT_INVALID"),
])
def test_scripts_outside_the_sandbox_are_refused_at_deploy(api, code, expected):
    refused = api.deploy("test_script", script_flow(code), expect=400)
    assert any(expected in message for message in refused["errors"]["run"]), refused


def test_a_gateway_condition_calling_an_unknown_function_is_refused(api):
    files = rules_flow()
    files["rules.bpmn"] = files["rules.bpmn"].replace("eligibility['outcome'] == True", "leak(eligibility)")
    refused = api.deploy("test_rules", files, expect=400)
    assert "UNKNOWN_FUNCTION (condition): leak()" in refused["errors"]["f_ok"][0]


def test_xml_entities_and_doctypes_are_refused(api):
    bomb = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>'
            '<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL">&lol2;</bpmn:definitions>')
    refused = api.deploy("test_rules", {"bomb.bpmn": bomb}, expect=400)
    assert refused["errors"]["bomb.bpmn"] == ["DOCTYPE_NOT_ALLOWED"]
    external = ('<?xml version="1.0"?><!DOCTYPE x SYSTEM "http://127.0.0.1:9/evil.dtd">'
                '<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"/>')
    api.deploy("test_rules", {"x.bpmn": external}, expect=400)


def test_an_unknown_process_key_and_foreign_files_are_refused(api):
    refused = api.deploy("no_such_key", rules_flow(), expect=400)
    assert "PROCESS_NOT_FOUND" in refused["errors"]["no_such_key"][0]
    files = {**rules_flow(), "notes.txt": "hola"}
    refused = api.deploy("test_rules", files, expect=400)
    assert "UNSUPPORTED_FILE" in refused["errors"]["notes.txt"][0]


def test_only_process_owners_deploy_and_an_empty_upload_is_refused(api):
    api.deploy("test_rules", rules_flow(), as_user="clerk", expect=403)
    r = api.call("POST", "/api/v1/processes/test_rules/versions", "owner", 422,
                 data={}, content_type="multipart/form-data")
    assert r.get_json()["errors"]["files"]


def test_the_stored_version_gives_back_its_bpmn_and_forms(api):
    files = rules_flow()
    api.deploy("test_rules", files)
    version = api.get("/api/v1/processes/test_rules/versions/1", "owner")
    assert version["starter_lane"] == "test_clerk"
    assert {e["id"] for e in version["elements"]} >= {"intake", "approve", "decide", "route"}
    assert version["forms"]["approve.schema.json"]["properties"]["approved"] == {"type": "boolean"}
    xml = api.call("GET", "/api/v1/processes/test_rules/versions/1/bpmn", "owner", 200)
    assert xml.mimetype == "application/xml" and xml.get_data(as_text=True) == files["rules.bpmn"]
    api.get("/api/v1/processes/test_rules/versions/9", "owner", expect=404)


def test_a_ui_schema_is_checked_as_json_not_as_json_schema(api):
    files = rules_flow()
    files["approve.ui.json"] = '{"items": {"ui:widget": "table"}, "type": {"ui:help": "x"}}'
    api.deploy("test_rules", files)
    files["approve.ui.json"] = '{"items": '
    refused = api.deploy("test_rules", files, expect=400)
    assert "INVALID_FORM" in refused["errors"]["approve.ui.json"][0]
