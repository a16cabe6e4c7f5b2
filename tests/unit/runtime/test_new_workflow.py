"""A start makes its workflow before the case number is drawn (the counter's row lock is held from
the draw to the commit, issue 21). A script right after the start event still sees the case's
number and runs in the case's sandbox, and a workflow that no case has begun yet runs no script."""
import pytest
from sqlalchemy import select

from engine.definitions import repository
from engine.identity.actor import SYSTEM
from engine.persistence.models import ProcessDefinition
from engine.runtime.case import Case
from tests.support import bpmn as b


def first_step_script(code: str) -> dict[str, str]:
    xml = b.diagram("test_first_script", lanes={"test_clerk": ["start", "run", "after", "end"]},
                    nodes=[b.start(), b.script("run", code), b.user("after"), b.end()],
                    flows=b.chain("start", "run", "after", "end"))
    return {"first.bpmn": xml, "after.schema.json": b.form({})}


def test_a_script_right_after_the_start_sees_the_case_number(api):
    api.deploy("test_first_script", first_step_script("seen = 'número ' + case_number"))
    case = api.post("/api/v1/processes/test_first_script/instances", "clerk", {"variables": {}}, expect=201)
    assert case["status"] == "active"
    assert case["variables"]["seen"] == f"número {case['case_number']}"


def test_a_script_right_after_the_start_runs_in_the_sandbox(api):
    # The sandbox's size guard refuses a 100 MB string; the library's own engine would make it.
    api.deploy("test_first_script", first_step_script("seen = 'x' * (10 ** 8)"))
    case = api.post("/api/v1/processes/test_first_script/instances", "clerk", {"variables": {}}, expect=201)
    assert case["status"] == "error" and case["error"]["element_id"] == "run", case["error"]


def test_a_workflow_no_case_has_begun_runs_no_script(api, app):
    api.deploy("test_first_script", first_step_script("x = 1"))
    engine = app.extensions["tramite"]

    def made(ctx):
        definition_id = ctx.conn.execute(select(ProcessDefinition.id)).scalar_one()
        return Case.new_workflow(ctx, repository.info(ctx.versions, ctx.conn, definition_id))

    workflow = engine.execute(made, SYSTEM)
    with pytest.raises(RuntimeError, match="no script engine yet"):
        workflow.script_engine.execute(None, "x = 1")
