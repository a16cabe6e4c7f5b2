"""The small diagrams the engine tests deploy, each with its forms."""
from __future__ import annotations

from . import bpmn as b

MONEY = {"type": ["string", "number"], "pattern": r"^\d+(\.\d{1,2})?$"}


def rules_flow() -> dict[str, str]:
    """intake (clerk) → FAR-04 rule in a script → gateway → approve (reviewer) or denial."""
    xml = b.diagram(
        "test_rules",
        lanes={"test_clerk": ["start", "intake", "decide", "route", "set_denied", "end_denied"],
               "test_reviewer": ["approve", "set_ok", "end_ok"]},
        nodes=[b.start(), b.user("intake", "Recibir solicitud"),
               b.script("decide", "eligibility = income_share_qualifies(gross_annual_income, activity_income, "
                                  "param('farmer.minIncomeSharePct'))\nstage = 'EVALUATED'"),
               b.xor("route", default="f_denied"), b.user("approve", "Aprobar"),
               b.script("set_ok", "outcome = 'APPROVED'"), b.script("set_denied", "outcome = 'DENIED'"),
               b.end("end_ok"), b.end("end_denied")],
        flows=[*b.chain("start", "intake", "decide", "route"),
               b.flow("f_ok", "route", "approve", "eligibility['outcome'] == True"),
               b.flow("f_denied", "route", "set_denied"),
               *b.chain("approve", "set_ok", "end_ok"), *b.chain("set_denied", "end_denied")])
    return {"rules.bpmn": xml,
            "intake.schema.json": b.form({"gross_annual_income": MONEY, "activity_income": MONEY}),
            "approve.schema.json": b.form({"approved": {"type": "boolean"}}, {"note": {"type": "string"}})}


def deadline_flow() -> dict[str, str]:
    """review (reviewer) with a 20-day legal deadline as an interrupting boundary timer."""
    xml = b.diagram(
        "test_deadline",
        lanes={"test_clerk": ["start", "compute", "set_late", "end_late"],
               "test_reviewer": ["review", "timeout", "set_done", "end"]},
        nodes=[b.start(), b.script("compute", "review_last_day = last_timely_day(20)\n"
                                              "review_timer = deadline_timer(review_last_day)"),
               b.user("review", "Revisar"), b.timer_boundary("timeout", "review", "review_timer"),
               b.script("set_late", "outcome = 'TIMED_OUT'"), b.script("set_done", "outcome = 'REVIEWED'"),
               b.end("end"), b.end("end_late")],
        flows=[*b.chain("start", "compute", "review", "set_done", "end"), *b.chain("timeout", "set_late", "end_late")])
    return {"deadline.bpmn": xml, "review.schema.json": b.form({}, {"note": {"type": "string"}})}


def message_flow() -> dict[str, str]:
    """Waits for `documents_received` (sent by the clerk's lane), then a reviewer task."""
    xml = b.diagram(
        "test_message",
        lanes={"test_clerk": ["start", "wait_docs", "count"], "test_reviewer": ["review", "end"]},
        nodes=[b.start(), b.message_catch("wait_docs", "msg_docs", "received"),
               b.script("count", "docs = len(received['documents'])"), b.user("review"), b.end()],
        flows=b.chain("start", "wait_docs", "count", "review", "end"),
        messages={"msg_docs": "documents_received"})
    payload = {"type": "object", "required": ["documents"], "additionalProperties": False,
               "properties": {"documents": {"type": "array", "minItems": 1, "items": {"type": "string"}}}}
    import json
    return {"message.bpmn": xml, "review.schema.json": b.form({}),
            "documents_received.message.schema.json": json.dumps(payload)}


def parallel_flow() -> dict[str, str]:
    xml = b.diagram(
        "test_parallel",
        lanes={"test_clerk": ["start", "split", "check_a", "join", "after", "end"], "test_reviewer": ["check_b"]},
        nodes=[b.start(), b.parallel("split"), b.user("check_a"), b.user("check_b"), b.parallel("join"),
               b.user("after"), b.end()],
        flows=[*b.chain("start", "split", "check_a", "join", "after", "end"),
               b.flow("f_split_b", "split", "check_b"), b.flow("f_b_join", "check_b", "join")])
    return {"parallel.bpmn": xml, **{f"{t}.schema.json": b.form({}) for t in ("check_a", "check_b", "after")}}


def child_flow() -> dict[str, str]:
    xml = b.diagram(
        "test_child", lanes={"test_clerk": ["start", "prepare", "child_task", "end"]},
        nodes=[b.start(), b.script("prepare", "child_result = 'hecho por ' + requester"),
               b.user("child_task"), b.end()],
        flows=b.chain("start", "prepare", "child_task", "end"))
    return {"child.bpmn": xml, "child_task.schema.json": b.form({"ok": {"type": "boolean"}})}


def parent_flow() -> dict[str, str]:
    xml = b.diagram(
        "test_parent", lanes={"test_clerk": ["start", "call_child", "check", "end"]},
        nodes=[b.start(), b.call("call_child", "test_child"), b.user("check"), b.end()],
        flows=b.chain("start", "call_child", "check", "end"))
    return {"parent.bpmn": xml, "check.schema.json": b.form({})}


def script_flow(code: str, key: str = "test_script") -> dict[str, str]:
    xml = b.diagram(
        key, lanes={"test_clerk": ["start", "intake", "run", "after", "end"]},
        nodes=[b.start(), b.user("intake"), b.script("run", code), b.user("after"), b.end()],
        flows=b.chain("start", "intake", "run", "after", "end"))
    return {"script.bpmn": xml, "intake.schema.json": b.form({}), "after.schema.json": b.form({})}


def loop_flow() -> dict[str, str]:
    from pathlib import Path
    xml = (Path(__file__).parent.parent / "diagrams" / "loop.bpmn").read_text()
    return {"loop.bpmn": xml, "work.schema.json": b.form({"done": {"type": "boolean"}})}


def scoped_flow() -> dict[str, str]:
    """Sets the case's office and inbox priority from the start variables, then one clerk task."""
    xml = b.diagram(
        "test_scoped", lanes={"test_clerk": ["start", "scope", "handle", "end"]},
        nodes=[b.start(), b.script("scope", "office = requested_office\n"
                                            "task_priority = 10 if urgent else 0"),
               b.user("handle"), b.end()],
        flows=b.chain("start", "scope", "handle", "end"))
    return {"scoped.bpmn": xml, "handle.schema.json": b.form({})}


def event_gateway_flow() -> dict[str, str]:
    """Waits on an event-based gateway for `documents_received` or a 10-day deadline."""
    xml = b.diagram(
        "test_race", lanes={"test_clerk": ["start", "compute", "wait", "docs", "expired", "set_ok",
                                           "set_late", "end_ok", "end_late"]},
        nodes=[b.start(), b.script("compute", "docs_timer = deadline_timer(last_timely_day(10))"),
               b.event_gateway("wait"), b.message_catch("docs", "msg_docs", "received"),
               b.timer_catch("expired", "docs_timer"), b.script("set_ok", "outcome = 'RECEIVED'"),
               b.script("set_late", "outcome = 'EXPIRED'"), b.end("end_ok"), b.end("end_late")],
        flows=[*b.chain("start", "compute", "wait"), b.flow("f_docs", "wait", "docs"),
               b.flow("f_exp", "wait", "expired"), *b.chain("docs", "set_ok", "end_ok"),
               *b.chain("expired", "set_late", "end_late")],
        messages={"msg_docs": "documents_received"})
    return {"race.bpmn": xml}


def reminder_flow() -> dict[str, str]:
    """review with a 20-day non-interrupting reminder: past its due date the task stays open, overdue."""
    xml = b.diagram(
        "test_reminder",
        lanes={"test_clerk": ["start", "compute", "remind", "reminded", "end_reminder"],
               "test_reviewer": ["review", "end"]},
        nodes=[b.start(), b.script("compute", "review_timer = deadline_timer(last_timely_day(20))"),
               b.user("review", "Revisar"), b.timer_boundary("remind", "review", "review_timer", interrupting=False),
               b.script("reminded", "reminder_sent = True"), b.end("end"), b.end("end_reminder")],
        flows=[*b.chain("start", "compute", "review", "end"), *b.chain("remind", "reminded", "end_reminder")])
    return {"reminder.bpmn": xml, "review.schema.json": b.form({}, {"note": {"type": "string"}})}
