"""Scenarios of events: event-based gateways, boundary timer/error/escalation/message/signal
(interrupting and not), intermediate catches, timers by duration, date and cycle."""
from __future__ import annotations

from tests.conformance import builder as b
from tests.conformance.scenario import Scenario, complete, message, send_signal, wait


def _event_gateway(second="timer"):
    def build(d):
        p = d.process()
        docs = d.message("docs")
        p.start()
        p.gateway("wait", "eventBased")
        p.seq("start", "wait")
        p.catch("got_docs", b.message(docs, "received"))
        p.script("set_ok", "outcome = 'RECEIVED'\ncount = len(received['items'])")
        p.seq("wait", "got_docs", "set_ok", "end_ok")
        if second == "timer":
            p.catch("expired", b.timer("timeDuration", '"PT2H"'))
        else:
            p.catch("expired", b.message(d.message("withdrawn"), "why"))
        p.script("set_late", "outcome = 'EXPIRED'")
        p.seq("wait", "expired", "set_late", "end_late")
        p.end("end_ok")
        p.end("end_late")
    return build


def _boundary_on_task(body, interrupting=True, name="guard"):
    def build(d):
        p = d.process()
        p.start()
        p.user("review", {"verdict": "str"})
        p.script("done", "outcome = 'REVIEWED:' + verdict")
        p.seq("start", "review", "done", "end")
        p.boundary(name, "review", body(d), interrupting)
        p.script("handled", "handled = True")
        p.seq(name, "handled", "end_handled")
        p.end()
        p.end("end_handled")
    return build


def _boundary_on_sub(inner, body, interrupting=True, handler_lane=None):
    def build(d):
        p = d.process()
        p.start()
        p.script("init", "n = 1")
        p.sub("sub", lambda s: inner(d, s))
        p.script("after", "finished = 'normal'")
        p.seq("start", "init", "sub", "after", "end")
        p.boundary("caught", "sub", body(d), interrupting)
        p.script("handler", "finished = 'handled'", lane=handler_lane)
        p.seq("caught", "handler", "end_caught")
        p.end()
        p.end("end_caught")
    return build


def _inner_error(d, s):
    s.start("s_start")
    s.user("check", {"ok": "bool"})
    s.gateway("s_route", default="Flow_s_route_s_fail")
    s.seq("s_start", "check", "s_route")
    s.flow("s_route", "s_end", "ok")
    s.flow("s_route", "s_fail")
    s.end("s_end")
    s.end("s_fail", body=b.error(d.error("Rejected", "E_REJECTED")))


def _inner_escalation(d, s):
    s.start("s_start")
    s.script("s_before", "n = n + 1")
    s.throw("s_escalate", b.escalation(d.escalation("Late", "X_LATE")))
    s.user("s_work", {"w": "int"})
    s.seq("s_start", "s_before", "s_escalate", "s_work", "s_end")
    s.end("s_end")


def _inner_user(d, s):
    s.start("s_start")
    s.user("s_work", {"w": "int"})
    s.seq("s_start", "s_work", "s_end")
    s.end("s_end")


def _signal_race(interrupting=True):
    def build(d):
        p = d.process()
        stop = d.signal("stop")
        p.start()
        p.gateway("split", "parallel")
        p.seq("start", "split")
        p.user("go", {})
        p.throw("send_stop", b.signal(stop))
        p.flow("split", "go")
        p.seq("go", "send_stop", "end_a")
        p.user("work", {"w": "int"})
        p.flow("split", "work")
        p.seq("work", "end_b")
        p.boundary("stopped", "work", b.signal(stop), interrupting)
        p.script("on_stop", "stopped = True")
        p.seq("stopped", "on_stop", "end_c")
        for e in ("end_a", "end_b", "end_c"):
            p.end(e)
    return build


def _signal_catch(d):
    p = d.process()
    p.start()
    p.catch("release", b.signal(d.signal("release")))
    p.script("after", "released = True")
    p.seq("start", "release", "after", "end")
    p.end()


def _message_catch(d):
    p = d.process()
    p.start()
    p.user("ask", {"question": "str"})
    p.catch("answer", b.message(d.message("answer"), "reply"))
    p.script("use", "said = reply['text'] + '!'")
    p.seq("start", "ask", "answer", "use", "end")
    p.end()


def _timer_then(kind, expression, then_user=False):
    def build(d):
        p = d.process()
        p.start()
        p.catch("pause", b.timer(kind, expression))
        p.script("after", "waited = True")
        if then_user:
            p.user("follow_up", {})
            p.seq("start", "pause", "after", "follow_up", "end")
        else:
            p.seq("start", "pause", "after", "end")
        p.end()
    return build


def _cycle(expression):
    def build(d):
        p = d.process()
        p.start()
        p.user("review", {})
        p.seq("start", "review", "end")
        p.boundary("tick", "review", b.timer("timeCycle", expression), interrupting=False)
        p.script("remind", "reminded = True")
        p.seq("tick", "remind", "end_tick")
        p.end()
        p.end("end_tick")
    return build


def scenarios() -> list[Scenario]:
    timer_1h = lambda d: b.timer("timeDuration", '"PT1H"')
    withdraw = lambda d: b.message(d.message("withdraw"), "why")
    error = lambda d: b.error(d.error("Rejected", "E_REJECTED"))
    escalation = lambda d: b.escalation(d.escalation("Late", "X_LATE"))
    return [
        Scenario("cf_event_gateway_message", "event-based gateway", _event_gateway(),
                 [message("docs", {"items": ["a", "b"]})]),
        Scenario("cf_event_gateway_timer", "event-based gateway", _event_gateway(), [wait("PT3H")]),
        Scenario("cf_event_gateway_timer_not_yet", "event-based gateway", _event_gateway(),
                 [wait("PT1H"), message("docs", {"items": ["a"]})]),
        Scenario("cf_event_gateway_two_messages", "event-based gateway", _event_gateway("message"),
                 [message("withdrawn", {"r": "x"})]),
        Scenario("cf_boundary_timer_fires", "boundary timer, interrupting", _boundary_on_task(timer_1h), [wait("PT2H")]),
        Scenario("cf_boundary_timer_beaten", "boundary timer, interrupting", _boundary_on_task(timer_1h),
                 [complete("review", {"verdict": "ok"}), wait("PT2H")]),
        Scenario("cf_boundary_timer_reminder", "boundary timer, non-interrupting", _boundary_on_task(timer_1h, False),
                 [wait("PT2H"), complete("review", {"verdict": "late"})]),
        Scenario("cf_boundary_timer_on_sub", "boundary timer on a sub-process",
                 _boundary_on_sub(_inner_user, timer_1h), [wait("PT90M")]),
        Scenario("cf_boundary_timer_on_sub_beaten", "boundary timer on a sub-process",
                 _boundary_on_sub(_inner_user, timer_1h), [complete("s_work", {"w": 3}), wait("PT90M")]),
        Scenario("cf_boundary_error_thrown", "boundary error, interrupting", _boundary_on_sub(_inner_error, error),
                 [complete("check", {"ok": False})]),
        Scenario("cf_boundary_error_not_thrown", "boundary error, interrupting", _boundary_on_sub(_inner_error, error),
                 [complete("check", {"ok": True})]),
        Scenario("cf_boundary_error_any_code", "boundary error, interrupting",
                 _boundary_on_sub(_inner_error, lambda d: b.error()), [complete("check", {"ok": False})]),
        Scenario("cf_boundary_escalation_interrupting", "boundary escalation, interrupting",
                 _boundary_on_sub(_inner_escalation, escalation)),
        Scenario("cf_boundary_escalation_non_interrupting", "boundary escalation, non-interrupting",
                 _boundary_on_sub(_inner_escalation, escalation, False), [complete("s_work", {"w": 1})]),
        Scenario("cf_boundary_message_interrupting", "boundary message, interrupting",
                 _boundary_on_task(withdraw), [message("withdraw", {"reason": "x"})]),
        Scenario("cf_boundary_message_not_sent", "boundary message, interrupting",
                 _boundary_on_task(withdraw), [complete("review", {"verdict": "fine"})]),
        Scenario("cf_boundary_message_non_interrupting", "boundary message, non-interrupting",
                 _boundary_on_task(withdraw, False), [message("withdraw", {"reason": "y"}),
                                                      complete("review", {"verdict": "kept"})]),
        Scenario("cf_boundary_signal_interrupting", "boundary signal, interrupting (thrown in the diagram)",
                 _signal_race(), [complete("go")]),
        Scenario("cf_boundary_signal_non_interrupting", "boundary signal, non-interrupting (thrown in the diagram)",
                 _signal_race(False), [complete("go"), complete("work", {"w": 2})]),
        Scenario("cf_boundary_signal_not_thrown", "boundary signal, interrupting (thrown in the diagram)",
                 _signal_race(), [complete("work", {"w": 5}), complete("go")]),
        Scenario("cf_signal_from_the_api", "signal catch sent through the API", _signal_catch,
                 [send_signal("release")]),
        Scenario("cf_message_catch", "intermediate message catch", _message_catch,
                 [complete("ask", {"question": "q"}), message("answer", {"text": "yes"})]),
        Scenario("cf_timer_duration", "intermediate timer (duration)", _timer_then("timeDuration", '"PT1H"'),
                 [wait("PT30M"), wait("PT1H")]),
        Scenario("cf_timer_duration_then_task", "intermediate timer (duration)",
                 _timer_then("timeDuration", '"P2D"', then_user=True), [wait("P3D"), complete("follow_up")]),
        Scenario("cf_timer_date", "intermediate timer (date)", _timer_then("timeDate", "due"),
                 [wait("PT1H"), wait("PT2H")], variables={"due": "@+PT2H"}),
        Scenario("cf_timer_expression_fails", "timer whose expression fails (case in error)",
                 _timer_then("timeDuration", "no_such_variable")),
        Scenario("cf_cycle_three_times", "cycle timer (boundary, non-interrupting)", _cycle('"R3/PT1H"'),
                 [wait("PT5H"), complete("review")]),
        Scenario("cf_cycle_step_by_step", "cycle timer (boundary, non-interrupting)", _cycle('"R2/PT1H"'),
                 [wait("PT61M"), wait("PT61M"), wait("PT61M"), complete("review")]),
        Scenario("cf_cycle_stopped_by_completion", "cycle timer (boundary, non-interrupting)", _cycle('"R5/PT1H"'),
                 [wait("PT90M"), complete("review"), wait("PT5H")]),
    ]
