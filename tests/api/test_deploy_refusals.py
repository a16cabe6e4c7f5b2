"""Deploy refuses what Tramite cannot run as BPMN says: a 400 keyed by the element at fault, with a
code and a message, and nothing stored (issue 14, issue 15 §2–3)."""
from __future__ import annotations

import pytest

from engine.config import deploy_limits
from tests.support import bpmn as b
from tests.support.small_diagrams import around, signal_catch, timer_catch


def refused(api, key, files):
    answer = api.deploy(key, files, expect=400)
    assert api.get("/api/v1/processes", "owner") == [], "a refused deploy stores nothing"
    return answer["errors"]


def test_a_call_activity_calling_its_own_process_is_refused(api):
    xml = around("test_self", b.call("again", "test_self"), ids=["again"])
    errors = refused(api, "test_self", {"self.bpmn": xml})
    assert errors["again"] == ["CALL_CYCLE: test_self → test_self: no process of the chain can end "
                               "without calling the next again, so the calls never stop"]


def test_a_chain_of_uploaded_processes_back_to_the_first_is_refused(api):
    a = around("test_a", b.call("call_b", "test_b"), ids=["call_b"])
    b_xml = around("test_b", b.call("call_a", "test_a"), ids=["call_a"])
    errors = refused(api, "test_a", {"a.bpmn": a, "b.bpmn": b_xml})
    assert "CALL_CYCLE: test_a → test_b → test_a" in errors["call_b"][0]
    assert "CALL_CYCLE: test_b → test_a → test_b" in errors["call_a"][0]


def test_a_chain_through_deployed_processes_back_to_the_upload_is_refused(api):
    api.deploy("test_a", {"a.bpmn": around("test_a", b.script("s", "x = 1"), ids=["s"])})
    api.deploy("test_b", {"b.bpmn": around("test_b", b.call("call_c", "test_c"), ids=["call_c"]),
                          "c.bpmn": around("test_c", b.call("call_a", "test_a"), ids=["call_a"])})
    errors = api.deploy("test_a", {"a.bpmn": around("test_a", b.call("call_b", "test_b"), ids=["call_b"])},
                        expect=400)["errors"]
    assert "CALL_CYCLE: test_a → test_b → test_c → test_a" in errors["call_b"][0]
    assert api.get("/api/v1/processes", "owner")[0]["versions"] == [1]


@pytest.mark.parametrize("kind, expression, says", [
    ("timeDuration", "P7D", 'write it quoted, "P7D"'),
    ("timeCycle", "R6/P1D", 'write it quoted, "R6/P1D"'),
    ("timeDate", "2024-05-01T10:00:00-04:00", "not a Python expression"),
    ("timeCycle", '"R/PT0S"', "the period must be positive"),
    ("timeDuration", '"PT0S"', "not a positive duration"),
    ("timeDuration", '"P0D"', "not a positive duration"),
    ("timeDuration", '"-P1D"', "not ISO 8601"),
    ("timeDuration", "'pronto'", "not ISO 8601"),
    ("timeDate", '"P1D"', "use timeDuration"),
    ("timeCycle", '"P1D"', "not ISO 8601 for a timeCycle"),
    ("timeDuration", "7", "gives int"),
])
def test_a_timer_that_cannot_give_a_positive_period_is_refused(api, kind, expression, says):
    xml = around("test_timer", timer_catch("wait", kind, expression), ids=["wait"])
    errors = refused(api, "test_timer", {"timer.bpmn": xml})
    assert errors["wait"][0].startswith(f"TIMER_INVALID ({kind}): "), errors
    assert says in errors["wait"][0]


def test_a_timer_with_no_expression_is_refused(api):
    xml = around("test_timer", '<bpmn:intermediateCatchEvent id="wait"><bpmn:timerEventDefinition/>'
                               '</bpmn:intermediateCatchEvent>', ids=["wait"])
    assert "TIMER_INVALID" in refused(api, "test_timer", {"timer.bpmn": xml})["wait"][0]


def test_a_script_task_with_no_script_is_refused(api):
    xml = around("test_script", '<bpmn:scriptTask id="run"><bpmn:script>  </bpmn:script></bpmn:scriptTask>',
                 ids=["run"])
    assert refused(api, "test_script", {"s.bpmn": xml})["run"] == ["SCRIPT_EMPTY: the script task has no script"]


@pytest.mark.parametrize("script_format", ["javascript", "groovy", "text/javascript", "feel"])
def test_a_script_that_is_not_python_is_refused(api, script_format):
    xml = around("test_script", f'<bpmn:scriptTask id="run" scriptFormat="{script_format}">'
                                '<bpmn:script>x = 1</bpmn:script></bpmn:scriptTask>', ids=["run"])
    errors = refused(api, "test_script", {"s.bpmn": xml})
    assert errors["run"][0].startswith(f"SCRIPT_NOT_PYTHON: scriptFormat '{script_format}'")


@pytest.mark.parametrize("node", ['<bpmn:manualTask id="sign"/>', '<bpmn:task id="sign"/>',
                                  '<bpmn:userTask id="sign"/>'])
def test_a_human_task_outside_every_lane_is_refused(api, node):
    files = {"t.bpmn": around("test_human", node, ids=["sign"], lane=None), "sign.schema.json": b.form({})}
    errors = refused(api, "test_human", files)
    assert errors["sign"][0].startswith("HUMAN_TASK_WITHOUT_LANE: ")


def test_a_service_task_is_refused(api):
    xml = around("test_service", '<bpmn:serviceTask id="call_api"/>', ids=["call_api"])
    assert refused(api, "test_service", {"s.bpmn": xml})["call_api"][0].startswith("SERVICE_TASK_UNSUPPORTED")


def test_a_compensation_throw_is_refused(api):
    xml = around("test_comp", '<bpmn:intermediateThrowEvent id="undo"><bpmn:compensateEventDefinition/>'
                              '</bpmn:intermediateThrowEvent>', ids=["undo"])
    assert refused(api, "test_comp", {"c.bpmn": xml})["undo"][0].startswith("COMPENSATION_UNSUPPORTED")


def test_a_data_store_is_refused_naming_the_store(api):
    store = '<bpmn:dataStore id="Store_HR" name="HR-Tool"/>'
    xml = around("test_store", b.script("s", "x = 1") + '<bpmn:dataStoreReference id="Ref_HR" dataStoreRef="Store_HR"/>',
                 ids=["s"], definitions_extra=store)
    errors = refused(api, "test_store", {"d.bpmn": xml})
    assert errors["Store_HR"][0].startswith("DATA_STORE_UNSUPPORTED: data store 'HR-Tool'")
    assert "Ref_HR" in errors and "definition" not in errors


def test_a_signal_catch_without_a_name_is_refused(api):
    xml = around("test_signal", '<bpmn:intermediateCatchEvent id="wait"><bpmn:signalEventDefinition/>'
                                '</bpmn:intermediateCatchEvent>', ids=["wait"])
    assert refused(api, "test_signal", {"s.bpmn": xml})["wait"][0].startswith("SIGNAL_WITHOUT_NAME")


def test_a_process_marked_not_executable_says_what_to_change(api):
    xml = around("test_off", b.script("s", "x = 1"), ids=["s"], attrs='isExecutable="false"')
    errors = refused(api, "test_off", {"o.bpmn": xml})
    assert errors["test_off"] == ["PROCESS_NOT_EXECUTABLE: the process has isExecutable='false'; "
                                  'set it to "true" or leave the attribute out']


def test_a_gateway_with_more_branches_than_the_cap_is_refused(api):
    n = deploy_limits.MAX_BRANCHES + 1
    body = b.parallel("split") + b.parallel("join") + "".join(b.script(f"s{i}", "x = 1") for i in range(n))
    flows = "".join(b.flow(f"fa{i}", "split", f"s{i}") + b.flow(f"fb{i}", f"s{i}", "join") for i in range(n))
    xml = around("test_fan", body, ids=[], extra="").replace(
        "<bpmn:sequenceFlow id=\"f_start_end\" sourceRef=\"start\" targetRef=\"end\"></bpmn:sequenceFlow>",
        b.flow("f1", "start", "split") + flows + b.flow("f2", "join", "end"))
    errors = refused(api, "test_fan", {"fan.bpmn": xml})
    assert errors["split"] == [f"TOO_MANY_BRANCHES: {n} outgoing sequence flows; the limit is "
                               f"{deploy_limits.MAX_BRANCHES} (use a multi-instance activity over a list)"]


def test_an_upload_with_more_elements_than_the_cap_is_refused(api):
    count = deploy_limits.MAX_ELEMENTS // 2 + 1
    ids = [f"s{i}" for i in range(count)]
    xml = around("test_big", "".join(b.script(i, "x = 1") for i in ids), ids=ids)
    errors = refused(api, "test_big", {"big.bpmn": xml})
    assert errors["test_big"][0].startswith("TOO_MANY_ELEMENTS: the upload has ")


def test_a_form_file_over_the_size_cap_is_refused(api):
    files = {"s.bpmn": around("test_size", b.script("s", "x = 1"), ids=["s"]),
             "start.schema.json": '{"type": "object", "description": "' + "x" * deploy_limits.MAX_FILE_BYTES + '"}'}
    assert refused(api, "test_size", files)["start.schema.json"] == ["FILE_TOO_LARGE: over 5 MB"]


def test_link_events_are_refused_because_the_library_never_runs_the_flow_after_the_catch(api):
    body = (b.script("before", "x = 1")
            + '<bpmn:intermediateThrowEvent id="jump"><bpmn:linkEventDefinition name="to_after"/></bpmn:intermediateThrowEvent>'
            + '<bpmn:intermediateCatchEvent id="land"><bpmn:linkEventDefinition name="to_after"/></bpmn:intermediateCatchEvent>'
            + b.script("after", "x = x + 1"))
    xml = around("test_link", body, ids=["before", "jump"]).replace(
        '<bpmn:sequenceFlow id="f_jump_end" sourceRef="jump" targetRef="end"></bpmn:sequenceFlow>',
        b.flow("f_land_after", "land", "after") + b.flow("f_after_end", "after", "end"))
    errors = refused(api, "test_link", {"link.bpmn": xml})
    assert errors["jump"][0].startswith("LINK_EVENT_UNSUPPORTED") and errors["land"][0].startswith("LINK_EVENT")


def test_a_gateway_with_no_way_out_is_refused(api):
    # bpmn-js's BpmnRules.insert fixture: the start forks to the end and to a dead-end gateway.
    xml = around("test_dead", b.xor("nowhere"), ids=[]).replace(
        "</bpmn:process>", b.flow("f_start_nowhere", "start", "nowhere") + "</bpmn:process>")
    errors = refused(api, "test_dead", {"dead.bpmn": xml})
    assert errors["nowhere"] == ["GATEWAY_WITHOUT_OUTGOING: a gateway needs at least one outgoing sequence flow"]
