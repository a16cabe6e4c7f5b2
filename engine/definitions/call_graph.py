"""Which processes call which: a chain of calls that can never end is refused.

The library starts a new sub-workflow for every round of a call chain that comes back to its
caller, inside one command. When no process of the chain can end without making its call again
(a 60 s hang in the corpus), the recursion is unbounded and refused (CALL_CYCLE). When one of them
can (a gateway that stops the recursion), the diagram is accepted: whether the stop condition ever
holds is not decidable before it runs, so the run time bounds the call depth of one command
(`TRAMITE_COMMAND_MAX_CALL_DEPTH`) and puts a case that exceeds it in error naming the call.
"""
from __future__ import annotations

from collections import deque


def calls_of(elements: dict) -> dict[str, list[tuple[str, str]]]:
    """{process id: [(call activity id, called process id)]} of described elements."""
    edges: dict[str, list[tuple[str, str]]] = {}
    for element in elements.values():
        if element["type"] == "callActivity" and element.get("called_element"):
            edges.setdefault(element["process"], []).append((element["id"], element["called_element"]))
    return edges


def cycles(uploaded: dict, edges: dict) -> dict[str, list[str]]:
    """{call activity id: [A, B, A]} for each call activity of `uploaded` (process ids) from which
    its own process is reached again; `edges` covers the upload and the deployed processes it reaches."""
    found = {}
    for process in uploaded:
        for call_id, called in edges.get(process, []):
            chain = _path(edges, called, process)
            if chain is not None:
                found[call_id] = [process, *chain]
    return found


def can_stop(chain: list[str], edges: dict, flows: dict, elements: dict) -> bool:
    """Whether some process of `chain` (A → B → … → A) can end without calling the next one."""
    for here, following in zip(chain, chain[1:]):
        calls = {call for call, called in edges.get(here, []) if called == following}
        if _can_end_avoiding(flows.get(here, []), elements, here, calls):
            return True
    return False


def _can_end_avoiding(flows: list, elements: dict, process: str, avoid: set) -> bool:
    """A path of the process's own flows from a start event to an end (an end event, or a node
    with no way out) that does not pass through `avoid`."""
    out: dict[str, list[str]] = {}
    for source, target in flows:
        out.setdefault(source, []).append(target)
    starts = [e["id"] for e in elements.values() if e["process"] == process and e["type"] == "startEvent"
              and e["id"] in out]
    seen, queue = set(starts), deque(starts)
    while queue:
        here = queue.popleft()
        if here in avoid:
            continue
        if not out.get(here):
            return True
        for target in out[here]:
            if target not in seen:
                seen.add(target)
                queue.append(target)
    return False


def _path(edges: dict, start: str, goal: str) -> list[str] | None:
    """The shortest chain of process ids from `start` to `goal`, or None."""
    previous = {start: None}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == goal:
            chain = []
            while here is not None:
                chain.append(here)
                here = previous[here]
            return chain[::-1]
        for _call, called in edges.get(here, []):
            if called not in previous:
                previous[called] = here
                queue.append(called)
    return None
