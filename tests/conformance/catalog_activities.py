"""Scenarios of activities: multi-instance (sequential and parallel, over user tasks, scripts and
sub-processes), sub-processes, call activities (nested, recursive with a stop condition)."""
from __future__ import annotations

from tests.conformance import builder as b
from tests.conformance.scenario import Scenario, complete


def _mi_user(sequential, cardinality=None, condition=None):
    def build(d):
        p = d.process()
        p.start()
        p.user("collect", {"items": "list"})
        loop = b.multi(sequential, collection=None if cardinality else "items", cardinality=cardinality,
                       output="results", out_item="result", condition=condition)
        p.user("handle", {"result": "int"}, loop=loop)
        p.script("summary", "count = len(results)")
        p.seq("start", "collect", "handle", "summary", "end")
        p.end()
    return build


def _mi_script(sequential, missing_input=False):
    def build(d):
        p = d.process()
        p.start()
        if not missing_input:
            p.script("init", "items = [3, 1, 2]")
        p.script("double", "result = item * 2",
                 loop=b.multi(sequential, collection="items", output="results", out_item="result"))
        p.script("total", "total = sum(results)")
        p.seq("start", *([] if missing_input else ["init"]), "double", "total", "end")
        p.end()
    return build


def _mi_sub(sequential, user_inside):
    def inner(s):
        s.start("s_start")
        if user_inside:
            s.user("s_rate", {"result": "int"})
        else:
            s.script("s_rate", "result = item * 3")
        s.script("s_note", "noted = item")
        s.seq("s_start", "s_rate", "s_note", "s_end")
        s.end("s_end")

    def build(d):
        p = d.process()
        p.start()
        p.script("init", "items = [1, 2, 3]")
        p.sub("each", inner, loop=b.multi(sequential, collection="items", output="results", out_item="result"))
        p.script("total", "total = sum(results)")
        p.seq("start", "init", "each", "total", "end")
        p.end()
    return build


def _sub(nested: bool):
    def inner(s):
        s.start("s_start")
        s.script("s_calc", "y = x * 2")
        if nested:
            s.sub("deeper", lambda t: (t.start("t_start"), t.user("t_check", {"z": "int"}),
                                       t.seq("t_start", "t_check", "t_end"), t.end("t_end")))
            s.seq("s_start", "s_calc", "deeper", "s_end")
        else:
            s.user("s_check", {"z": "int"})
            s.seq("s_start", "s_calc", "s_check", "s_end")
        s.end("s_end")

    def build(d):
        p = d.process()
        p.start()
        p.script("init", "x = 5")
        p.sub("sub", inner)
        p.script("after", "w = y + z")
        p.seq("start", "init", "sub", "after", "end")
        p.end()
    return build


def _child(d, pid, body, calls=None):
    c = d.process(pid)
    c.start(f"{pid}_start")
    c.script(f"{pid}_work", body)
    if calls:
        c.call(f"{pid}_call", calls)
        c.seq(f"{pid}_start", f"{pid}_work", f"{pid}_call", f"{pid}_end")
    else:
        c.seq(f"{pid}_start", f"{pid}_work", f"{pid}_end")
    c.end(f"{pid}_end")


def _call(depth: int, user_in_child=False, parallel=False):
    def build(d):
        p = d.process()
        p.start()
        p.script("init", "trail = ['main']")
        child = f"{d.key}_child"
        if parallel:
            p.gateway("split", "parallel")
            p.call("call_a", child)
            p.call("call_b", child)
            p.gateway("join", "parallel")
            p.seq("start", "init", "split")
            p.seq("split", "call_a", "join")
            p.seq("split", "call_b", "join")
            p.seq("join", "end")
        else:
            p.call("call_child", child)
            p.script("after", "length = len(trail)")
            p.seq("start", "init", "call_child", "after", "end")
        p.end()
        names = [child] + [f"{d.key}_grand{i}" for i in range(1, depth)]
        for i, name in enumerate(names):
            nxt = names[i + 1] if i + 1 < len(names) else None
            if user_in_child and nxt is None:
                c = d.process(name)
                c.start(f"{name}_start")
                c.user(f"{name}_ask", {"answer": "str"})
                c.seq(f"{name}_start", f"{name}_ask", f"{name}_end")
                c.end(f"{name}_end")
            else:
                _child(d, name, f"trail = trail + ['{name}']", nxt)
    return build


def _recursive(d):
    p = d.process()
    p.start()
    p.script("bump", "depth = depth + 1\nvisits = visits + [depth]")
    p.gateway("deeper", default="Flow_deeper_end")
    p.call("recurse", d.key)
    p.seq("start", "bump", "deeper")
    p.flow("deeper", "recurse", "depth < 3")
    p.flow("deeper", "end")
    p.seq("recurse", "end")
    p.end()


def scenarios() -> list[Scenario]:
    return [
        Scenario("cf_mi_user_sequential", "sequential multi-instance user task", _mi_user(True),
                 [complete("collect", {"items": [1, 2, 3]})] + [complete("handle", {"result": "=item * 10"})] * 3),
        Scenario("cf_mi_user_parallel", "parallel multi-instance user task", _mi_user(False),
                 [complete("collect", {"items": [1, 2, 3]}), complete("handle", {"result": "=item * 2"}, 1),
                  complete("handle", {"result": "=item * 2"}, 1), complete("handle", {"result": "=item * 2"})]),
        Scenario("cf_mi_user_parallel_in_order", "parallel multi-instance user task", _mi_user(False),
                 [complete("collect", {"items": [5, 6]})] + [complete("handle", {"result": "=item + 1"})] * 2),
        Scenario("cf_mi_user_cardinality", "parallel multi-instance user task (cardinality)",
                 _mi_user(False, cardinality=3), [complete("collect", {"items": []})]
                 + [complete("handle", {"result": 7})] * 3),
        Scenario("cf_mi_user_completion_condition", "sequential multi-instance user task (completion condition)",
                 _mi_user(True, condition="result > 2"),
                 [complete("collect", {"items": [1, 2, 3, 4]})] + [complete("handle", {"result": "=item"})] * 3),
        Scenario("cf_mi_script_sequential", "sequential multi-instance script task", _mi_script(True)),
        Scenario("cf_mi_script_parallel", "parallel multi-instance script task", _mi_script(False)),
        Scenario("cf_mi_missing_input", "multi-instance without its input collection (error)",
                 _mi_script(True, missing_input=True)),
        Scenario("cf_mi_sub_sequential_scripts", "sequential multi-instance sub-process", _mi_sub(True, False)),
        Scenario("cf_mi_sub_parallel_scripts", "parallel multi-instance sub-process", _mi_sub(False, False)),
        Scenario("cf_mi_sub_sequential_users", "sequential multi-instance sub-process", _mi_sub(True, True),
                 [complete("s_rate", {"result": "=item * 4"})] * 3),
        Scenario("cf_mi_sub_parallel_users", "parallel multi-instance sub-process", _mi_sub(False, True),
                 [complete("s_rate", {"result": "=item * 4"}, 2), complete("s_rate", {"result": "=item * 4"}),
                  complete("s_rate", {"result": "=item * 4"})]),
        Scenario("cf_sub_plain", "embedded sub-process", _sub(False), [complete("s_check", {"z": 1})]),
        Scenario("cf_sub_nested", "embedded sub-process (nested)", _sub(True), [complete("t_check", {"z": 2})]),
        Scenario("cf_call_simple", "call activity", _call(1)),
        Scenario("cf_call_nested", "call activity (nested, three levels)", _call(3)),
        Scenario("cf_call_user_in_child", "call activity", _call(2, user_in_child=True),
                 [complete("cf_call_user_in_child_grand1_ask", {"answer": "yes"})]),
        Scenario("cf_call_parallel", "call activity", _call(1, parallel=True)),
        # Accepted: the gateway can stop the recursion (`depth < 3`), so deploy lets it through and
        # the run time bounds the call depth of one command.
        Scenario("cf_call_recursive", "call activity (recursive, with a stop condition)", _recursive,
                 variables={"depth": 0, "visits": []}),
    ]
