"""A script that leaves a value a case cannot save fails at that script, never as a 500 at save."""
import pytest

from tests.api.test_script_errors import run_to_script


@pytest.mark.parametrize("code, variable, kind", [
    ("t = now().tzinfo", "t", "tzinfo"),
    ("r = range(3)", "r", "range"),
    ("x = {'a': [1, b'raw']}", "x['a'][1]", "bytes"),
    ("z = 1j", "z", "complex"),
    ("c = now().time()", "c", "time"),
    ("k = {(1, 2): 3}", "k", "key of type tuple"),
    ("n = float('nan')", "n", "nan"),
    ("loop = []\nloop.append(loop)", "loop", "contains itself"),
])
def test_a_non_json_value_puts_the_script_in_error_naming_the_variable(api, code, variable, kind):
    case = run_to_script(api, code)
    assert case["status"] == "error"
    assert case["error"]["element_id"] == "run"
    message = case["error"]["message"]
    # A list holding itself is already stopped by the sandbox's size walk ("script refused: …").
    assert f"NON_JSON_VALUE: variable {variable}" in message and kind in message, message
    again = api.get(f"/api/v1/instances/{case['id']}", "boss")
    assert again["status"] == "error" and again["error"]["element_id"] == "run"
    assert api.post(f"/api/v1/instances/{case['id']}/retry", "boss")["status"] == "error"


def test_values_a_case_can_keep_still_pass(api):
    case = run_to_script(api, "s = {1}\nd = {1: today(), 'when': now(), 'money': Decimal('1.50')}\n"
                              "span = timedelta(days=2)\nf = 1.5")
    assert case["status"] == "active", case["error"]
    assert case["variables"]["d"]["money"] == "1.50" and case["variables"]["s"] == [1]
    assert case["variables"]["span"] == "P2D"


DMN = ('<?xml version="1.0" encoding="UTF-8"?>'
       '<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="defs_zone" name="zone" '
       'namespace="http://tramite.test/dmn"><decision id="pick_zone" name="pick_zone">'
       '<decisionTable id="table" hitPolicy="UNIQUE">'
       '<input id="in1" label="one"><inputExpression id="ie1" typeRef="integer"><text>1</text></inputExpression></input>'
       '<output id="out1" name="zone" typeRef="string"/>'
       '<rule id="r1"><inputEntry id="e1"><text>1</text></inputEntry>'
       '<outputEntry id="o1"><text>now().tzinfo</text></outputEntry></rule>'
       '</decisionTable></decision></definitions>')


def test_a_decision_table_result_a_case_cannot_keep_puts_that_step_in_error(api):
    from tests.support import bpmn as b
    decide = ('<bpmn:businessRuleTask id="decide" name="decide"><bpmn:extensionElements>'
              '<spiffworkflow:calledDecisionId>pick_zone</spiffworkflow:calledDecisionId>'
              '</bpmn:extensionElements></bpmn:businessRuleTask>')
    xml = b.diagram("zone", lanes={"test_clerk": ["start", "intake", "decide", "after", "end"]},
                    nodes=[b.start(), b.user("intake"), decide, b.user("after"), b.end()],
                    flows=b.chain("start", "intake", "decide", "after", "end"))
    api.deploy("zone", {"zone.bpmn": xml, "zone.dmn": DMN, "intake.schema.json": b.form({}),
                        "after.schema.json": b.form({})})
    case = api.post("/api/v1/processes/zone/instances", "clerk", {"variables": {}}, expect=201)
    task = api.open_task(case, "intake")
    after = api.post(f"/api/v1/tasks/{task['id']}/complete", "clerk", {"data": {}})["instance"]
    assert after["status"] == "error" and after["error"]["element_id"] == "decide"
    assert after["error"]["message"].startswith("NON_JSON_VALUE: variable zone holds a tzinfo")
    assert "zone" not in after["variables"]
