"""The statements a case's life sends keep the shapes the indexes were built for.

SQLite prepares a statement again on every run when a bound value decides whether a partial index
applies; the open-task indexes (migrations 0008, 0009) hold `state = 'open'`, so a task query that
binds the state cost more in preparing than in running (the benchmark found 30-180 us each).
"""
import re
from contextlib import contextmanager

from sqlalchemy import event

from tests.support.diagrams import rules_flow

BOUND_STATE = re.compile(r"task\.state\s*(=|IN)\s*\(?\s*(\?|%\(|:)", re.IGNORECASE)


@contextmanager
def statements_sent(db):
    """Every SQL statement the app's engines send inside the block, in order."""
    sent: list[str] = []

    def record(_conn, _cursor, statement, *_args):
        sent.append(statement)

    engines = {db.read_engine, db.write_engine, db.replica_engine}
    for eng in engines:
        event.listen(eng, "before_cursor_execute", record)
    try:
        yield sent
    finally:
        for eng in engines:
            event.remove(eng, "before_cursor_execute", record)


def test_no_task_query_binds_the_task_state(api, app):
    with statements_sent(app.extensions["tramite"].db) as sent:
        api.deploy("test_rules", rules_flow())
        case = api.post("/api/v1/processes/test_rules/instances", "clerk", {"variables": {}}, expect=201)
        intake = api.open_task(case, "intake")
        api.get(f"/api/v1/tasks?instance={case['id']}", "clerk")
        api.get("/api/v1/tasks", "clerk")
        api.get("/api/v1/tasks?scope=all&state=completed", "boss")
        api.get("/api/v1/instances?overdue=true", "boss")
        api.post(f"/api/v1/tasks/{intake['id']}/complete", "clerk",
                 {"data": {"gross_annual_income": "40000.00", "activity_income": 20000}})
        api.get(f"/api/v1/instances/{case['id']}", "clerk")
        api.get(f"/api/v1/instances/{case['id']}/activity", "boss")

    task_queries = [s for s in sent if "task.state" in s]
    assert task_queries, "the flow sent no task query at all"
    bound = [" ".join(s.split())[:200] for s in task_queries if BOUND_STATE.search(s)]
    assert bound == []


WIDE_COLUMNS = re.compile(r"process_instance\.(variables|workflow_meta|activity|search_text)\b", re.IGNORECASE)


def test_case_lists_read_only_the_columns_they_show(api, app):
    # A list item shows a case's number, status, office, applicant...; the row's JSON (variables,
    # workflow state, activity) would be read, decoded and dropped 50 times a page (issue 21).
    api.deploy("test_rules", rules_flow())
    case = api.post("/api/v1/processes/test_rules/instances", "clerk", {"variables": {}}, expect=201)
    finding_it = ("/api/v1/instances", f"/api/v1/instances?q={case['case_number']}")
    with statements_sent(app.extensions["tramite"].db) as sent:
        for path in (*finding_it, "/api/v1/instances?overdue=true", "/api/v1/instances?q=test",
                     "/api/v1/instances?status=active&page=2"):
            listed = api.get(path, "boss")
            if path in finding_it:
                assert [item["id"] for item in listed] == [case["id"]], path

    case_reads = [s for s in sent if "FROM process_instance" in s]
    assert case_reads, "the lists sent no case query at all"
    assert [" ".join(s.split())[:200] for s in case_reads if WIDE_COLUMNS.search(s)] == []
