"""What the hot commands send to the database (issue 21: the engine's own cost per case).

On PostgreSQL every statement is a round trip and a wait on a shared machine, so start, complete and
a timer firing are held to the statements they need: the case number drawn and the case row
inserted in one statement, the workflow's task rows written in one, a completion's drafts deleted
only when it has some, a firing reading its timer and case in one and writing its timer once.
"""
import json

from sqlalchemy import event, text

from engine.commands import drafts
from engine.commands.timers import fire_timer
from engine.config.clock import parse_instant
from engine.identity.actor import SYSTEM, Actor
from engine.runtime import case_numbers
from tests.conftest import USERS
from tests.support.diagrams import deadline_flow, rules_flow


class Sent:
    """The statements the engine's write pool sends while in a `with` block."""

    def __init__(self, db):
        self.engine, self.statements = db.write_engine, []

    def _record(self, _conn, _cursor, statement, *_args):
        self.statements.append(" ".join(statement.split()))

    def __enter__(self):
        event.listen(self.engine, "before_cursor_execute", self._record)
        return self

    def __exit__(self, *exc):
        event.remove(self.engine, "before_cursor_execute", self._record)

    def count(self, fragment: str) -> int:
        return sum(fragment in s for s in self.statements)


def _is_pg(db) -> bool:
    return not db.is_sqlite


def _rules_case(api):
    api.deploy("test_rules", rules_flow())
    return api.post("/api/v1/processes/test_rules/instances", "clerk", {"variables": {}}, expect=201)


AFTER_THE_DEADLINE = "2024-06-01T00:00:00-04:00"
INTAKE = {"gross_annual_income": "40000.00", "activity_income": 20000}


def test_case_numbers_keep_every_digit_past_999999(api, app):
    db = app.extensions["tramite"].db
    first = _rules_case(api)
    prefix, year, _ = first["case_number"].rsplit("-", 2)
    with db.writing() as conn:
        case_numbers.continue_after(conn, prefix, int(year), 999998)
    numbers = [api.post("/api/v1/processes/test_rules/instances", "clerk", {"variables": {}}, expect=201)["case_number"]
               for _ in range(2)]
    assert numbers == [f"{prefix}-{year}-999999", f"{prefix}-{year}-1000000"]
    assert api.get(f"/api/v1/instances/{first['id']}", "clerk")["case_number"] == f"{prefix}-{year}-000001"


def test_a_start_draws_its_number_in_the_insert_of_its_row_and_writes_its_task_rows_in_one_statement(api, app):
    db = app.extensions["tramite"].db
    api.deploy("test_rules", rules_flow())
    with Sent(db) as sent:
        case = api.post("/api/v1/processes/test_rules/instances", "clerk", {"variables": {}}, expect=201)
    assert case["case_number"] and case["open_tasks"]
    assert sent.count("INSERT INTO process_instance") == 1
    assert sent.count("INSERT INTO workflow_task_state") == 1
    if _is_pg(db):
        # The number is drawn in the statement that inserts the row.
        assert [s for s in sent.statements if "tramite_draw_case_number" in s] == \
            [s for s in sent.statements if "INSERT INTO process_instance" in s]
        # The version's id with the parameters' freshness check; the open task row, the history and
        # the case row's UPDATE in the statement that writes the workflow (issue 21).
        with Sent(db) as warm:  # the second start of a version this process knows already
            again = api.post("/api/v1/processes/test_rules/instances", "clerk", {"variables": {}}, expect=201)
        (read,) = [s for s in warm.statements if "FROM process_definition" in s]
        assert "max(parameter.updated_at)" in read
        (write,) = [s for s in warm.statements if "INSERT INTO workflow_task_state" in s]
        assert "INSERT INTO task " in write and "INSERT INTO audit_event" in write
        assert sent.count("INSERT INTO task ") == sent.count("INSERT INTO audit_event") == 1
        assert len(warm.statements) <= 4, warm.statements  # 7 before issue 21's second round
        opened = again["open_tasks"][0]
        shown = api.get(f"/api/v1/tasks/{opened['id']}", "clerk")
        assert shown["id"] == opened["id"] and shown["element_id"] == opened["element_id"]


def test_a_completion_without_drafts_deletes_none_and_writes_the_workflow_in_one_statement(api, app):
    db = app.extensions["tramite"].db
    case = _rules_case(api)
    intake = api.open_task(case, "intake")
    with Sent(db) as sent:
        api.post(f"/api/v1/tasks/{intake['id']}/complete", "clerk", {"data": INTAKE})
    assert sent.count("DELETE FROM task_draft") == 0
    assert sent.count("INSERT INTO audit_event") == 1  # the completion's events in one statement
    history = api.get(f"/api/v1/instances/{case['id']}/history", "boss")
    completed = [e for e in history if e["type"] == "task_completed"]
    assert len(completed) == 1 and completed[0]["task_id"] == intake["id"]
    assert completed[0]["data"] == {"gross_annual_income": "40000.00", "activity_income": "20000.00"}
    assert completed[0]["actor"] == "clerk" and completed[0]["at"].startswith("2024-")
    if _is_pg(db):
        assert sent.count("workflow_task_state") == 2  # the load, and one write of every change
        # The history rides in the statement that writes the workflow: no statement of its own.
        (logged,) = [s for s in sent.statements if "INSERT INTO audit_event" in s]
        assert "workflow_task_state" in logged
        # So does the completed task's row (engine21d): no UPDATE of its own.
        (written,) = [s for s in sent.statements if "UPDATE task SET" in s]
        assert written is logged
    with db.write_engine.connect() as conn:
        row = conn.execute(text("SELECT state, assignee, completed_by, completed_at IS NOT NULL, data FROM task"
                                " WHERE id = :t"), {"t": intake["id"]}).one()
    assert tuple(row[:4]) == ("completed", "clerk", "clerk", True)
    assert (json.loads(row[4]) if isinstance(row[4], str) else row[4]) == {  # SQLite reads JSON text
        "gross_annual_income": "40000.00", "activity_income": "20000.00"}


def test_a_commands_history_keeps_its_order_and_values_when_written_with_the_workflow(api, app):
    case = _rules_case(api)
    intake = api.open_task(case, "intake")
    api.post(f"/api/v1/tasks/{intake['id']}/complete", "clerk", {"data": INTAKE})
    history = api.get(f"/api/v1/instances/{case['id']}/history", "boss")
    types = [e["type"] for e in history]
    assert types.index("case_started") < types.index("task_completed")
    started = history[types.index("case_started")]
    assert started["actor"] == "clerk" and started["at"].startswith("2024-") and started["data"]["version"] == 1
    assert started["rule_ids"] == [] and started["task_id"] is None


def test_a_completion_with_a_draft_still_drops_it(api, app):
    db = app.extensions["tramite"].db
    case = _rules_case(api)
    intake = api.open_task(case, "intake")
    engine = app.extensions["tramite"]
    clerk = Actor("clerk", frozenset(USERS["clerk"]))
    engine.execute(drafts.save, clerk, intake["id"], {"gross_annual_income": "1"})
    with db.writing() as conn:
        assert conn.execute(text("SELECT count(*) FROM task_draft WHERE task_id = :t"), {"t": intake["id"]}).scalar() == 1
    api.post(f"/api/v1/tasks/{intake['id']}/complete", "clerk", {"data": INTAKE})
    with db.writing() as conn:
        assert conn.execute(text("SELECT count(*) FROM task_draft WHERE task_id = :t"), {"t": intake["id"]}).scalar() == 0


def test_a_timer_firing_reads_its_timer_and_case_once_writes_its_timer_once_and_leaves_no_lease(api, app):
    engine = app.extensions["tramite"]
    api.deploy("test_deadline", deadline_flow())
    case = api.post("/api/v1/processes/test_deadline/instances", "clerk", {"variables": {}}, expect=201)
    with engine.db.writing() as conn:  # leased by a worker, as the worker's lease statement does
        timer_id = conn.execute(text("UPDATE timer SET lock_owner = 'w', lock_expires_at = due_at "
                                     "WHERE instance_id = :i RETURNING id"), {"i": case["id"]}).scalar_one()
    with Sent(engine.db) as sent:
        assert engine.execute(fire_timer, SYSTEM, timer_id, now=parse_instant(AFTER_THE_DEADLINE)) is True
    after = api.get(f"/api/v1/instances/{case['id']}", "boss")
    assert after["status"] == "completed" and after["outcome"] == "TIMED_OUT"
    with engine.db.writing() as conn:
        row = conn.execute(text("SELECT fired_at, cancelled, lock_owner, lock_expires_at FROM timer WHERE id = :t"),
                           {"t": timer_id}).one()
    assert row.fired_at is not None and not row.cancelled and row.lock_owner is None and row.lock_expires_at is None
    reads = [s for s in sent.statements if s.startswith("SELECT") and "FROM timer" in s]
    assert len(reads) == 1 and "JOIN process_instance" in reads[0], reads
    assert sent.count("FROM process_instance WHERE") == 0  # the case row came with the timer
    assert sent.count("UPDATE timer") == 1
    if _is_pg(engine.db):
        assert len(sent.statements) <= 8, sent.statements


def test_a_firing_after_a_second_timer_started_still_reads_the_running_ones(api, app):
    """Only a case whose one running timer is the one firing skips the read of its running timers."""
    engine = app.extensions["tramite"]
    api.deploy("test_deadline", deadline_flow())
    case = api.post("/api/v1/processes/test_deadline/instances", "clerk", {"variables": {}}, expect=201)
    with engine.db.writing() as conn:
        timer_id = conn.execute(text("SELECT id FROM timer WHERE instance_id = :i"), {"i": case["id"]}).scalar_one()
        conn.execute(text("UPDATE process_instance SET workflow_meta = jsonb_set(CAST(workflow_meta AS jsonb), "
                          "'{tramite,timers}', '2') WHERE id = :i") if not engine.db.is_sqlite else
                     text("UPDATE process_instance SET workflow_meta = json_set(workflow_meta, '$.tramite.timers', 2) "
                          "WHERE id = :i"), {"i": case["id"]})
    with Sent(engine.db) as sent:
        assert engine.execute(fire_timer, SYSTEM, timer_id, now=parse_instant(AFTER_THE_DEADLINE)) is True
    assert sum(s.startswith("SELECT") and "FROM timer" in s for s in sent.statements) == 2
    assert api.get(f"/api/v1/instances/{case['id']}", "boss")["outcome"] == "TIMED_OUT"
