"""Scenarios of structure and data: transactions and cancel, compensation, link events, data objects
and data stores, task kinds, end events, script errors, and the diagrams Tramite refuses at deploy."""
from __future__ import annotations

from tests.conformance import builder as b
from tests.conformance.builder import REVIEWER
from tests.conformance.scenario import Scenario, complete


def _transaction(d):
    p = d.process()
    p.start()

    def inner(s):
        s.start("t_start")
        s.script("t_reserve", "reserved = True")
        s.user("t_pay", {"paid": "bool"})
        s.gateway("t_route", default="Flow_t_route_t_cancel")
        s.seq("t_start", "t_reserve", "t_pay", "t_route")
        s.flow("t_route", "t_end", "paid")
        s.flow("t_route", "t_cancel")
        s.end("t_end")
        s.end("t_cancel", body=b.cancel())
    p.sub("tx", inner, kind="transaction")
    p.script("confirm", "status = 'CONFIRMED'")
    p.seq("start", "tx", "confirm", "end")
    p.boundary("cancelled", "tx", b.cancel())
    p.script("undo", "status = 'CANCELLED'")
    p.seq("cancelled", "undo", "end_cancelled")
    p.end()
    p.end("end_cancelled")


def _compensation(d):
    p = d.process()
    p.start()
    p.script("book", "booked = True")
    p.boundary("on_undo", "book", b.compensate())
    p.script("unbook", "booked = False", attrs=' isForCompensation="true"')
    p.artifact('<bpmn:association id="Assoc_undo" associationDirection="One" sourceRef="on_undo" targetRef="unbook"/>')
    p.user("decide", {"cancel": "bool"})
    p.gateway("route", default="Flow_route_end")
    p.seq("start", "book", "decide", "route")
    p.flow("route", "undo_all", "cancel")
    p.flow("route", "end")
    p.throw("undo_all", b.compensate())
    p.seq("undo_all", "end_undone")
    p.end()
    p.end("end_undone")


def _compensation_throw(d):
    p = d.process()
    p.start()
    p.script("book", "booked = True")
    p.throw("undo_all", b.compensate())
    p.seq("start", "book", "undo_all", "end")
    p.end()


def _links(two: bool):
    def build(d):
        p = d.process()
        p.start()
        p.script("before", "hops = 1")
        p.throw("jump", b.link("L1"))
        p.seq("start", "before", "jump")
        p.catch("land", b.link("L1"))
        p.script("after", "hops = hops + 1")
        if two:
            p.throw("jump2", b.link("L2"))
            p.catch("land2", b.link("L2"))
            p.seq("land", "after", "jump2")
            p.seq("land2", "end")
        else:
            p.seq("land", "after", "end")
        p.end()
    return build


def _data_object(parallel: bool):
    def build(d):
        p = d.process()
        p.raw('<bpmn:dataObject id="ledger"/>')
        p.raw('<bpmn:dataObjectReference id="ledger_w" dataObjectRef="ledger"/>')
        p.raw('<bpmn:dataObjectReference id="ledger_r" dataObjectRef="ledger"/>')
        p.start()
        p.script("write", "ledger = ['opened']", body=b.data_out("ledger_w", "write"))
        p.script("read", "entries = len(ledger)", body=b.data_in("ledger_r", "read"))
        if parallel:
            p.gateway("split", "parallel")
            p.gateway("join", "parallel")
            p.user("side", {"note": "str"}, lane=REVIEWER)
            p.seq("start", "split", "write", "join")
            p.seq("split", "side", "join")
            p.seq("join", "read", "end")
        else:
            p.user("look", {"note": "str"})
            p.seq("start", "write", "look", "read", "end")
        p.end()
    return build


def _data_store(d):
    d.roots.append('<bpmn:dataStore id="archive" name="archive"/>')
    p = d.process()
    p.raw('<bpmn:dataStoreReference id="archive_ref" dataStoreRef="archive"/>')
    p.start()
    p.script("file", "archive = {'filed': True}", body=b.data_out("archive_ref", "file"))
    p.seq("start", "file", "end")
    p.end()


def _task_kinds(kind):
    def build(d):
        p = d.process()
        p.start()
        p.task("act", kind)
        p.script("after", "acted = True")
        p.seq("start", "act", "after", "end")
        p.end()
    return build


def _pre_post(d):
    p = d.process()
    p.start()
    ext = ("<bpmn:extensionElements><spiffworkflow:preScript>shown = base * 2</spiffworkflow:preScript>"
           "<spiffworkflow:postScript>kept = shown + extra</spiffworkflow:postScript></bpmn:extensionElements>")
    p.script("init", "base = 4")
    p.user("fill", {"extra": "int"}, loop=ext)
    p.seq("start", "init", "fill", "end")
    p.end()


def _terminate(d):
    p = d.process()
    p.start()
    p.gateway("split", "parallel")
    p.user("slow", {})
    p.user("fast", {"stop": "bool"})
    p.gateway("route", default="Flow_route_end_fast")
    p.seq("start", "split", "slow", "end_slow")
    p.seq("split", "fast", "route")
    p.flow("route", "kill", "stop")
    p.flow("route", "end_fast")
    p.end("kill", body="<bpmn:terminateEventDefinition/>")
    p.end("end_slow")
    p.end("end_fast")


def _script_error(d):
    p = d.process()
    p.start()
    p.user("enter", {"divisor": "int"})
    p.script("divide", "share = 100 // divisor")
    p.seq("start", "enter", "divide", "end")
    p.end()


def _uncaught_error(d):
    p = d.process()
    p.start()
    p.script("prepare", "prepared = True")
    p.end("fail", body=b.error(d.error("Broken", "E_BROKEN")))
    p.seq("start", "prepare", "fail")


def _script_body(code, fmt=None):
    def build(d):
        p = d.process()
        p.start()
        attrs = f' scriptFormat="{fmt}"' if fmt else ""
        p.parts.append(f'<bpmn:scriptTask id="run" name="run"{attrs}><bpmn:script>{code}</bpmn:script></bpmn:scriptTask>')
        p.lanes.setdefault(b.CLERK, []).append("run")
        p.seq("start", "run", "end")
        p.end()
    return build


def _unknown_call(d):
    p = d.process()
    p.start()
    p.script("run", "x = mystery(1)")
    p.seq("start", "run", "end")
    p.end()


def _no_form(d):
    _task_kinds("userTask")(d)  # a userTask written as a plain element: no form registered for it


def _bad_lane(d):
    p = d.process()
    p.start(lane="no_such_role")
    p.script("run", "x = 1", lane="no_such_role")
    p.seq("start", "run", "end")
    p.end(lane="no_such_role")


def _lane_on_sub_only(d):
    p = d.process()
    p.start()

    def inner(s):
        s.start("s_start", lane=False)
        s.user("s_check", {"ok": "bool"}, lane=False)
        s.seq("s_start", "s_check", "s_end")
        s.end("s_end", lane=False)
    p.sub("sub", inner)
    p.seq("start", "sub", "end")
    p.end()


def scenarios() -> list[Scenario]:
    return [
        Scenario("cf_transaction_done", "transaction sub-process", _transaction, [complete("t_pay", {"paid": True})]),
        Scenario("cf_transaction_cancel", "transaction sub-process with cancel", _transaction,
                 [complete("t_pay", {"paid": False})]),
        Scenario("cf_compensation", "compensation boundary event", _compensation,
                 [complete("decide", {"cancel": True})], refused="COMPENSATION_UNSUPPORTED"),
        Scenario("cf_compensation_throw", "compensation throw event", _compensation_throw,
                 refused="COMPENSATION_UNSUPPORTED"),
        Scenario("cf_link_events", "link events", _links(False), refused="LINK_EVENT_UNSUPPORTED"),
        Scenario("cf_link_events_two", "link events", _links(True), refused="LINK_EVENT_UNSUPPORTED"),
        Scenario("cf_data_object", "data objects", _data_object(False), [complete("look", {"note": "n"})]),
        Scenario("cf_data_object_parallel", "data objects shared by parallel branches", _data_object(True),
                 [complete("side", {"note": "n"})]),
        Scenario("cf_data_store", "data stores", _data_store, refused="DATA_STORE_UNSUPPORTED"),
        Scenario("cf_manual_task", "manual task", _task_kinds("manualTask"), [complete("act")]),
        Scenario("cf_plain_task", "task (no type)", _task_kinds("task"), [complete("act")]),
        Scenario("cf_pre_post_scripts", "user task pre- and post-scripts", _pre_post, [complete("fill", {"extra": 1})]),
        Scenario("cf_terminate_end", "terminate end event", _terminate, [complete("fast", {"stop": True})]),
        Scenario("cf_terminate_not_reached", "terminate end event", _terminate,
                 [complete("fast", {"stop": False}), complete("slow")]),
        Scenario("cf_script_error", "script raising an error (case in error)", _script_error,
                 [complete("enter", {"divisor": 0})]),
        Scenario("cf_uncaught_error_end", "error end event with no catch", _uncaught_error),
        Scenario("cf_empty_script", "script task with no body", _script_body(""), refused="SCRIPT_EMPTY"),
        Scenario("cf_script_not_python", "script task in another language", _script_body("x = 1", "javascript"),
                 refused="SCRIPT_NOT_PYTHON"),
        Scenario("cf_unknown_function", "script calling an unknown function", _unknown_call, refused="UNKNOWN_FUNCTION"),
        Scenario("cf_user_task_without_form", "user task without a form", _no_form, refused="USER_TASK_WITHOUT_FORM"),
        Scenario("cf_lane_not_a_role", "lane that is not a role", _bad_lane, refused="LANE_NOT_A_ROLE"),
        Scenario("cf_lane_from_sub_process", "user task inheriting its sub-process's lane", _lane_on_sub_only,
                 [complete("s_check", {"ok": True})]),
    ]
