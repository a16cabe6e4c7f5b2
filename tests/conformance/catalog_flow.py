"""Scenarios of gateways and loops: exclusive, inclusive, parallel (2–5 branches finishing in separate
commands), loops back into parallel splits and long automatic loops."""
from __future__ import annotations

from tests.conformance import builder as b
from tests.conformance.builder import REVIEWER
from tests.conformance.outcome import Diverged
from tests.conformance.scenario import Known, Scenario, complete

# A documented divergence, not a Tramite defect. On the third round SpiffWorkflow's parallel join
# (UnstructuredJoin._run_hook) merges in the data of the earlier rounds' cancelled join instances
# (their parents carry seen == [3]), and DeepMerge.merge_array then drops the repeated 3 of the
# current round's [3, 3]: `count` sees [3] and the library ends with seen == [3, 3] after three
# rounds. Tramite prunes the earlier rounds and ends with [3, 3, 3], what three rounds of
# `seen = seen + [left + right]` give (BPMN: a join carries only the tokens of its own round).
LOOP_JOIN_DATA = Known("#3", "library bug: SpiffWorkflow's parallel join reached again by a loop merges the "
                             "data of earlier rounds' cancelled joins and DeepMerge drops repeated list "
                             "items, so the library ends with seen [3, 3]; Tramite ends with [3, 3, 3], the "
                             "BPMN result of three rounds", Diverged, library_bug=True)


def _xor(choices, default=None, chain=False):
    def build(d):
        p = d.process()
        p.start()
        p.user("decide", {"choice": "str", "amount": "int"})
        p.seq("start", "decide", "route")
        p.gateway("route", default=f"Flow_route_set_{default}" if default else None)
        for c in choices:
            p.script(f"set_{c}", f"path = '{c}'\nscore = amount * {len(c)}")
            cond = None if c == default else f"choice == '{c}'"
            p.flow("route", f"set_{c}", cond)
            p.flow(f"set_{c}", "merge")
        p.gateway("merge")
        if chain:
            p.gateway("second", default="Flow_second_small")
            p.script("big", "size = 'big'")
            p.script("small", "size = 'small'")
            p.flow("merge", "second")
            p.flow("second", "big", "score > 10")
            p.flow("second", "small")
            p.seq("big", "join2")
            p.seq("small", "join2")
            p.gateway("join2")
            p.seq("join2", "end")
        else:
            p.seq("merge", "end")
        p.end()
    return build


def _inclusive(n, default=False):
    def build(d):
        p = d.process()
        p.start()
        p.script("init", "r0 = r1 = r2 = r3 = 0")
        p.user("pick", {"picked": "list"})
        p.seq("start", "init", "pick", "split")
        p.gateway("split", "inclusive", default="Flow_split_work_0" if default else None)
        for i in range(n):
            p.user(f"work_{i}", {f"r{i}": "int"}, lane=REVIEWER if i % 2 else None)
            p.flow("split", f"work_{i}", None if default and i == 0 else f"{i} in picked")
            p.flow(f"work_{i}", "join")
        p.gateway("join", "inclusive")
        p.script("total", "total = r0 + r1 + r2 + r3")
        p.seq("join", "total", "end")
        p.end()
    return build


def _inclusive_new_keys(scripts_after: bool):
    """Each branch adds keys nobody set before the split (the case the pruning loses)."""
    def build(d):
        p = d.process()
        p.start()
        p.user("pick", {"picked": "list"})
        p.seq("start", "pick", "split")
        p.gateway("split", "inclusive")
        for i in range(3):
            p.user(f"w{i}", {f"r{i}": "int"})
            p.flow("split", f"w{i}", f"{i} in picked")
            if scripts_after:
                p.script(f"s{i}", f"x{i} = r{i} * 10")
                p.seq(f"w{i}", f"s{i}", "join")
            else:
                p.flow(f"w{i}", "join")
        p.gateway("join", "inclusive")
        p.seq("join", "end")
        p.end()
    return build


def _parallel(n, users=True, scripts=0):
    def build(d):
        p = d.process()
        p.start()
        p.gateway("split", "parallel")
        p.seq("start", "split")
        for i in range(n):
            if users and i >= scripts:
                p.user(f"branch_{i}", {f"b{i}": "int"}, lane=REVIEWER if i % 2 else None)
            else:
                p.script(f"branch_{i}", f"b{i} = {i * 10}")
            p.flow("split", f"branch_{i}")
            p.flow(f"branch_{i}", "join")
        p.gateway("join", "parallel")
        p.script("sum_up", "total = " + " + ".join(f"b{i}" for i in range(n)))
        p.seq("join", "sum_up", "end")
        p.end()
    return build


def _loop_into_parallel(users: bool):
    def build(d):
        p = d.process()
        p.start()
        p.script("init", "rounds = 0\nseen = []")
        p.seq("start", "init", "split")
        p.gateway("split", "parallel")
        for side in ("left", "right"):
            if users:
                p.user(side, {side: "int"})
            else:
                p.script(side, f"{side} = rounds")
            p.flow("split", side)
            p.flow(side, "join")
        p.gateway("join", "parallel")
        p.script("count", "rounds = rounds + 1\nseen = seen + [left + right]")
        p.gateway("again", default="Flow_again_end")
        p.seq("join", "count", "again")
        p.flow("again", "split", "rounds < 3")
        p.flow("again", "end")
        p.end()
    return build


def _user_loop(d):
    p = d.process()
    p.start()
    p.script("init", "tries = 0")
    p.user("attempt", {"ok": "bool"})
    p.script("bump", "tries = tries + 1")
    p.gateway("check", default="Flow_check_attempt")
    p.seq("start", "init", "attempt", "bump", "check")
    p.flow("check", "end", "ok")
    p.flow("check", "attempt")
    p.end()


def _auto_loop(rounds, scripts=1):
    def build(d):
        p = d.process()
        p.start()
        p.script("init", "x = 0\ny = 0")
        p.seq("start", "init", "step_0")
        for i in range(scripts):
            p.script(f"step_{i}", "x = x + 1" if i == 0 else f"y = y + {i}")
        p.seq(*[f"step_{i}" for i in range(scripts)], "more")
        p.gateway("more", default="Flow_more_done")
        p.flow("more", "step_0", f"x < {rounds}")
        p.flow("more", "done")
        p.script("done", "result = x")
        p.seq("done", "end")
        p.end()
    return build


def _standard_loop(condition="n >= 4"):
    def build(d):
        p = d.process()
        p.start()
        p.script("init", "n = 0")
        p.script("repeat", "n = n + 1", loop=b.standard_loop(condition))
        p.seq("start", "init", "repeat", "end")
        p.end()
    return build


def _no_true_path(d):
    p = d.process()
    p.start()
    p.user("decide", {"choice": "str"})
    p.gateway("route")
    p.script("a", "path = 'a'")
    p.script("b", "path = 'b'")
    p.seq("start", "decide", "route")
    p.flow("route", "a", "choice == 'a'")
    p.flow("route", "b", "choice == 'b'")
    p.seq("a", "end")
    p.seq("b", "end")
    p.end()


def scenarios() -> list[Scenario]:
    out = [
        Scenario("cf_xor_left", "exclusive gateway", _xor(["aa", "bbb"]), [complete("decide", {"choice": "aa", "amount": 3})]),
        Scenario("cf_xor_right", "exclusive gateway", _xor(["aa", "bbb"]), [complete("decide", {"choice": "bbb", "amount": 2})]),
        Scenario("cf_xor_default", "exclusive gateway (default flow)", _xor(["aa", "other"], default="other"),
                 [complete("decide", {"choice": "zz", "amount": 1})]),
        Scenario("cf_xor_three_ways", "exclusive gateway", _xor(["a", "bb", "ccc"]),
                 [complete("decide", {"choice": "ccc", "amount": 5})]),
        Scenario("cf_xor_chained", "exclusive gateway", _xor(["aa", "bbb"], chain=True),
                 [complete("decide", {"choice": "bbb", "amount": 4})]),
        Scenario("cf_xor_no_true_path", "exclusive gateway without a true path (error)", _no_true_path,
                 [complete("decide", {"choice": "zz"})]),
        Scenario("cf_inclusive_all_three", "inclusive gateway", _inclusive(3),
                 [complete("pick", {"picked": [0, 1, 2]}), complete("work_0", {"r0": 1}),
                  complete("work_1", {"r1": 2}), complete("work_2", {"r2": 3})]),
        Scenario("cf_inclusive_two_of_three", "inclusive gateway", _inclusive(3),
                 [complete("pick", {"picked": [0, 2]}), complete("work_2", {"r2": 3}), complete("work_0", {"r0": 1})]),
        Scenario("cf_inclusive_one", "inclusive gateway", _inclusive(3),
                 [complete("pick", {"picked": [1]}), complete("work_1", {"r1": 7})]),
        Scenario("cf_inclusive_default", "inclusive gateway (default flow)", _inclusive(3, default=True),
                 [complete("pick", {"picked": []}), complete("work_0", {"r0": 4})]),
        Scenario("cf_inclusive_four", "inclusive gateway", _inclusive(4),
                 [complete("pick", {"picked": [0, 1, 2, 3]}), complete("work_3", {"r3": 1}),
                  complete("work_1", {"r1": 1}), complete("work_0", {"r0": 1}), complete("work_2", {"r2": 1})]),
        Scenario("cf_inclusive_new_keys", "inclusive gateway, branches finishing in separate commands",
                 _inclusive_new_keys(False), [complete("pick", {"picked": [0, 1, 2]})]
                 + [complete(f"w{i}", {f"r{i}": i + 1}) for i in (0, 1, 2)]),
        Scenario("cf_inclusive_new_keys_scripts", "inclusive gateway, branches finishing in separate commands",
                 _inclusive_new_keys(True), [complete("pick", {"picked": [0, 1, 2]})]
                 + [complete(f"w{i}", {f"r{i}": i + 1}) for i in (2, 0, 1)]),
        Scenario("cf_inclusive_new_keys_two", "inclusive gateway, branches finishing in separate commands",
                 _inclusive_new_keys(True), [complete("pick", {"picked": [0, 2]})]
                 + [complete(f"w{i}", {f"r{i}": i + 1}) for i in (2, 0)]),
    ]
    for n in range(2, 6):
        order = list(range(n))
        out.append(Scenario(f"cf_parallel_{n}_in_order", "parallel gateway, branches finishing in separate commands",
                            _parallel(n), [complete(f"branch_{i}", {f"b{i}": i + 1}) for i in order]))
        out.append(Scenario(f"cf_parallel_{n}_reversed", "parallel gateway, branches finishing in separate commands",
                            _parallel(n), [complete(f"branch_{i}", {f"b{i}": i + 1}) for i in reversed(order)]))
    out += [
        Scenario("cf_parallel_5_scripts", "parallel gateway", _parallel(5, users=False)),
        Scenario("cf_parallel_mixed", "parallel gateway", _parallel(4, scripts=2),
                 [complete("branch_3", {"b3": 3}), complete("branch_2", {"b2": 2})]),
        Scenario("cf_loop_into_parallel_users", "loop back into a parallel gateway", _loop_into_parallel(True),
                 [s for _ in range(3) for s in (complete("left", {"left": 1}), complete("right", {"right": 2}))],
                 known=LOOP_JOIN_DATA),
        Scenario("cf_loop_into_parallel_scripts", "loop back into a parallel gateway", _loop_into_parallel(False)),
        Scenario("cf_loop_user_task", "loop back to an earlier user task", _user_loop,
                 [complete("attempt", {"ok": False}), complete("attempt", {"ok": False}), complete("attempt", {"ok": True})]),
        Scenario("cf_loop_auto_2000", "long automatic loop (2,000 rounds in one command)", _auto_loop(2000),
                 allow_error=True),
        Scenario("cf_loop_auto_120_three_steps", "automatic loop (100–120 rounds)", _auto_loop(120, scripts=3)),
        Scenario("cf_loop_auto_100", "automatic loop (100–120 rounds)", _auto_loop(100)),
        Scenario("cf_standard_loop", "standard loop characteristics", _standard_loop()),
        Scenario("cf_standard_loop_condition_fails", "standard loop whose condition fails (case in error)",
                 _standard_loop("no_such_variable > 1")),
    ]
    return out
