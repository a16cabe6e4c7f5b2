"""Issue 15, item 7: a process owner's diagram may not write the admin-only registries.

Every registry and notice helper belongs to the procedures that declare it (`HelperFamily`); a
process deployed under a key of the owner's own gets only the engine's general helpers: a call
to a registry helper is refused at deploy (400, UNKNOWN_FUNCTION naming the script element) and,
where only running can tell (`[helper][0](...)`), at run time (the case in `error` at that
element, the registry untouched). Its notices go only to the staff of its lanes, never to an
address; built-in roles are never lanes; what a script does is recorded on behalf of the people
behind it.
"""
from __future__ import annotations

import io

import pytest

from engine.identity.actor import BUILTIN_ROLES
from engine.procedures import ALL
from tests.procedures.bid_adjudication.conftest import bid_files
from tests.support import bpmn as b
from tests.support.diagrams import script_flow

KEY = "owner_own"  # a key no procedure owns
HELPERS = sorted(ALL.helper_owners)


def deploy(api, files, key=KEY):
    data = {"files": [(io.BytesIO(c.encode()), n) for n, c in files.items()]}
    return api.call("POST", f"/api/v1/processes/{key}/versions", "owner", data=data,
                    content_type="multipart/form-data")


def run(api, code):
    """An owner's diagram running `code` after the clerk's first task; the case afterwards."""
    answer = deploy(api, script_flow(code, key=KEY))
    assert answer.status_code == 201, answer.get_data(as_text=True)[:800]
    case = api.post(f"/api/v1/processes/{KEY}/instances", "clerk", {"variables": {}}, expect=201)
    task = api.open_task(case, "intake")
    return api.post(f"/api/v1/tasks/{task['id']}/complete", "clerk", {"data": {}})["instance"]


def test_the_helper_list_covers_every_registry_of_the_issue():
    assert {"set_farmer_status", "record_bans", "record_beneficiary", "start_sale_bid", "start_membership",
            "notify_producers", "written_notice"} <= set(HELPERS)


@pytest.mark.parametrize("name", HELPERS)
def test_an_owners_diagram_calling_a_registry_helper_is_refused_at_deploy(api, name):
    answer = deploy(api, script_flow(f"result = {name}('F-17', 'REMOVED')", key=KEY))
    assert answer.status_code == 400, answer.get_data(as_text=True)[:500]
    [problem] = answer.get_json()["errors"]["run"]
    assert problem.startswith("UNKNOWN_FUNCTION") and f"{name}()" in problem and KEY in problem


def test_a_helper_reached_without_a_plain_call_is_refused_at_run_time(api):
    case = run(api, "[record_beneficiary][0]({'id': 'B-666', 'name': 'Nadie'}, '2024-01-01', 'USED')")
    assert case["status"] == "error" and case["error"]["element_id"] == "run"
    assert "record_beneficiary" in case["error"]["message"] and "materials_aid" in case["error"]["message"]
    assert api.get("/api/v1/registries/beneficiaries", "admin") == []


def test_an_owners_diagram_may_not_open_a_bid_case(api):
    api.deploy("bid_adjudication", bid_files())
    case = run(api, "bid = [start_sale_bid][0]({'id': 'P-1', 'description': 'sillas', 'estimated_value': '90.00'}, "
                    "'90.00', '2024-05-01T10:00:00-04:00')")
    assert case["status"] == "error" and "start_sale_bid" in case["error"]["message"]
    assert api.get("/api/v1/instances?process=bid_adjudication", "boss") == []


@pytest.mark.parametrize("call", [
    pytest.param("notify('Cualquiera', 'Aviso', 'texto', 'correo', 'victima@example.com')", id="any-address"),
    pytest.param("notify('test_clerk', 'Aviso', 'texto', 'correo', 'victima@example.com')", id="lane-with-address"),
    pytest.param("notify('Departamento de Hacienda', 'Aviso', 'texto')", id="not-a-lane"),
])
def test_an_owners_diagram_notifies_no_address_and_nobody_outside_its_lanes(api, call):
    case = run(api, call)
    assert case["status"] == "error" and case["error"]["element_id"] == "run"
    assert "NOTIFY_" in case["error"]["message"]
    assert api.get(f"/api/v1/instances/{case['id']}/notifications", "boss") == []


def test_an_owners_diagram_may_notify_the_staff_of_its_lanes_on_behalf_of_the_people_behind_it(api):
    case = run(api, "sent = notify('test_clerk', 'Aviso', 'Revise el caso')")
    assert case["status"] == "active"
    [notice] = api.get(f"/api/v1/instances/{case['id']}/notifications", "boss")
    assert (notice["recipient"], notice["address"]) == ("test_clerk", None)
    [event] = [e for e in api.get(f"/api/v1/instances/{case['id']}/history", "boss") if e["type"] == "notification"]
    assert event["actor"] == "engine"
    assert event["data"]["on_behalf_of"] == {"user": "clerk", "starter": "clerk", "deployer": "owner",
                                             "process": KEY, "version": 1}


@pytest.mark.parametrize("role", BUILTIN_ROLES)
def test_a_built_in_role_is_refused_as_a_lane(api, role):
    xml = b.diagram(KEY, lanes={role: ["start", "intake", "end"]},
                    nodes=[b.start(), b.user("intake"), b.end()], flows=b.chain("start", "intake", "end"))
    answer = deploy(api, {"lane.bpmn": xml, "intake.schema.json": b.form({})})
    assert answer.status_code == 400
    [problem] = answer.get_json()["errors"][f"Lane_{role}"]
    assert problem.startswith("LANE_BUILTIN_ROLE") and role in problem


def test_a_shared_helper_does_not_open_the_rest_of_its_procedures_helpers(api, monkeypatch, engine):
    """Surplus disposition may call `start_sale_bid` (and `farmer_status`), never `record_bans` or
    `set_farmer_status`, even after a shared helper of the same procedure was bound in the command."""
    from dataclasses import replace
    from engine.kernel.procedure import Procedures
    from tests.support.procedures import run_with

    def sharing(procedure):  # the owner's key stands in for surplus disposition
        return replace(procedure, helpers=tuple(
            replace(f, shared_with=f.shared_with | {KEY}) if f.shared_with else f for f in procedure.helpers))
    run_with(monkeypatch, engine, base=Procedures(*map(sharing, ALL.all), reserved=ALL.reserved))
    case = run(api, "try:\n    farmer_status('F-17')\nexcept:\n    pass\n"
                    "[set_farmer_status][0]('F-17', 'REMOVED')")
    assert case["status"] == "error" and "set_farmer_status" in case["error"]["message"]
