"""Pruning never changes what a join does: each case is played twice, by SpiffWorkflow alone in
memory and saved/loaded between commands the way Tramite keeps it (pruned, split, joined), and
both must end the same, with every branch's data at the end."""
from __future__ import annotations

from itertools import permutations

import pytest

from tests.support import bpmn as B
from tests.unit.runtime.playing import Play

COUNT = "n = n + 1"


def branches(n: int) -> list[str]:
    return [f"u{i}" for i in range(n)]


def parallel_region(ids, split="split", join="join", kind="parallel", conditions=None) -> tuple[list, list]:
    gateway = B.parallel if kind == "parallel" else (lambda id: f'<bpmn:inclusiveGateway id="{id}"/>')
    nodes = [gateway(split), gateway(join)] + [B.user(i) for i in ids]
    flows = ([B.flow(f"a_{i}", split, i, (conditions or {}).get(i)) for i in ids]
             + [B.flow(f"b_{i}", i, join) for i in ids])
    return nodes, flows


def split_join(n: int) -> str:
    ids = branches(n)
    nodes, flows = parallel_region(ids)
    return B.diagram("p", lanes={"clerk": ids}, nodes=[B.start(), B.end(), *nodes],
                     flows=B.chain("start", "split") + flows + B.chain("join", "end"))


def loop_into_parallel(n: int, through_merge: bool, kind: str = "parallel") -> str:
    """start → (merge) → split → n user tasks → join → n += 1 → again? back to the split."""
    ids = branches(n)
    nodes, flows = parallel_region(ids, kind=kind, conditions={i: "True" for i in ids} if kind != "parallel" else None)
    back = "merge" if through_merge else "split"
    head = B.chain("start", "merge", "split") if through_merge else B.chain("start", "split")
    return B.diagram("p", lanes={"clerk": ids},
                     nodes=[B.start(), B.xor("merge"), B.script("count", COUNT), B.xor("again", default="f_out"),
                            B.end(), *nodes],
                     flows=head + flows + B.chain("join", "count", "again")
                     + [B.flow("f_back", "again", back, "n < 3"), B.flow("f_out", "again", "end")])


def inclusive(n: int, taken: list[str]) -> str:
    ids = branches(n)
    nodes, flows = parallel_region(ids, kind="inclusive", conditions={i: str(i in taken) for i in ids})
    return B.diagram("p", lanes={"clerk": ids}, nodes=[B.start(), B.end(), *nodes],
                     flows=B.chain("start", "split") + flows + B.chain("join", "end"))


def separate_ends(n: int) -> str:
    ids = branches(n)
    return B.diagram("p", lanes={"clerk": ids},
                     nodes=[B.start(), B.parallel("split"), *[B.user(i) for i in ids], *[B.end(f"e_{i}") for i in ids]],
                     flows=B.chain("start", "split") + [B.flow(f"a_{i}", "split", i) for i in ids]
                     + [B.flow(f"b_{i}", i, f"e_{i}") for i in ids])


def non_interrupting_boundary(n: int) -> str:
    ids = branches(n)
    nodes, flows = parallel_region(ids)
    return B.diagram("p", lanes={"clerk": ids},
                     nodes=[B.start(), B.end(), *nodes, B.timer_boundary("overdue", "u0", '"2000-01-01T00:00:00+00:00"',
                                                                        interrupting=False),
                            B.script("late", "late = True"), B.end("e_late")],
                     flows=B.chain("start", "split") + flows + B.chain("join", "end") + B.chain("overdue", "late", "e_late"))


def inside_sub_process(n: int) -> str:
    ids = branches(n)
    nodes, flows = parallel_region(ids)
    inner = "".join([B.start("s2"), B.end("e2"), *nodes, *B.chain("s2", "split"), *flows, *B.chain("join", "e2")])
    return B.diagram("p", lanes={"clerk": [*ids, "after", "sp"]},
                     nodes=[B.start(), f'<bpmn:subProcess id="sp">{inner}</bpmn:subProcess>', B.user("after"), B.end()],
                     flows=B.chain("start", "sp", "after", "end"))


def some_orders(ids: list[str], limit: int = 6) -> list[list[str]]:
    every = [list(o) for o in permutations(ids)]
    step = max(1, len(every) // limit)
    return every[::step][:limit] + [list(reversed(ids))]


def both(xml: str, order: list[str], data: dict | None = None) -> tuple[Play, Play]:
    return Play(xml, saved=False, data=data).play(order), Play(xml, saved=True, data=data).play(order)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_a_parallel_join_fires_when_each_branch_finishes_in_its_own_command(n):
    ids = branches(n)
    for order in some_orders(ids):
        alone, saved = both(split_join(n), order)
        assert saved.completed, order
        assert saved.data == alone.data == {i: True for i in ids}


@pytest.mark.parametrize("through_merge", [True, False], ids=["through-merge", "into-the-split"])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_loop_back_into_a_parallel_gateway_runs_every_round(n, through_merge):
    ids = branches(n)
    order = ids * 3  # three rounds, branches finishing in the same order each round
    alone, saved = both(loop_into_parallel(n, through_merge), order, {"n": 0})
    assert saved.completed
    assert saved.data == alone.data == {"n": 3, **{i: True for i in ids}}


@pytest.mark.parametrize("kind, through_merge", [("parallel", True), ("parallel", False), ("inclusive", True)],
                         ids=["parallel-through-merge", "parallel-into-the-split", "inclusive-through-merge"])
def test_each_round_of_a_loop_waits_for_all_its_branches_whatever_their_order(kind, through_merge):
    # SpiffWorkflow alone counts the cancelled branches of the round before again and fires the
    # join of the next round early when its branches finish in another order (and an inclusive
    # join in a loop fails in its second round); a saved case must not: the rounds that fired
    # are history.
    ids = branches(3)
    case = Play(loop_into_parallel(3, through_merge, kind), saved=True, data={"n": 0})
    for number, round_order in enumerate((ids, list(reversed(ids)), [ids[1], ids[2], ids[0]])):
        for done, element in enumerate(round_order):
            assert case.open_tasks() == sorted(set(ids) - set(round_order[:done]))
            case.complete(element, {element: f"round {number}"})
    assert case.completed
    # (Which round's value a branch key keeps is the library's deep merge; the same with or without saving.)
    assert case.data["n"] == 3 and set(case.data) == {"n", *ids}


@pytest.mark.parametrize("taken", [["u0", "u1", "u2"], ["u0", "u2"], ["u1", "u2"]])
def test_an_inclusive_join_of_three_branches_keeps_every_branch_data(taken):
    for order in some_orders(taken):
        alone, saved = both(inclusive(3, taken), order)
        assert saved.completed, order
        assert saved.data == alone.data == {i: True for i in taken}


def test_an_inclusive_join_of_five_branches():
    ids = branches(5)
    for order in some_orders(ids):
        alone, saved = both(inclusive(5, ids), order)
        assert saved.completed and saved.data == alone.data == {i: True for i in ids}


@pytest.mark.parametrize("shape", [separate_ends, non_interrupting_boundary, inside_sub_process])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_branches_ending_apart_or_beside_events_or_inside_a_sub_process(shape, n):
    ids = branches(n)
    for order in some_orders(ids, limit=4):
        order = order + (["after"] if shape is inside_sub_process else [])
        alone, saved = both(shape(n), order)
        assert saved.completed, order
        assert saved.data == alone.data
        assert all(saved.data[i] for i in ids)


def test_pruning_still_keeps_a_long_loop_small():
    ids = branches(3)
    xml = loop_into_parallel(3, through_merge=True).replace("n &lt; 3", "n &lt; 60")
    case = Play(xml, saved=True, data={"n": 0})
    sizes = []
    for _ in range(50):
        case.play(ids)
        sizes.append(case.task_count())
    assert max(sizes) == max(sizes[:3]) < 60  # bounded by the diagram, not the number of rounds
