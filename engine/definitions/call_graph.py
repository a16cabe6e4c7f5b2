"""Which processes call which: a call activity that reaches its own process again is refused.

The library would start a new sub-workflow for every round of such a chain, inside one command,
with nothing to stop it (a 60 s hang in the corpus). A recursion with a stop condition cannot be
told apart from one without before it runs, so every cycle is refused (CALL_CYCLE); a procedure
that repeats calls a process per round from a loop instead.
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


def cycles(uploaded: dict, edges: dict) -> dict[str, str]:
    """{call activity id: "A → B → A"} for each call activity of `uploaded` (process ids) from which
    its own process is reached again; `edges` covers the upload and the deployed processes it reaches."""
    found = {}
    for process in uploaded:
        for call_id, called in edges.get(process, []):
            chain = _path(edges, called, process)
            if chain is not None:
                found[call_id] = " → ".join([process, *chain])
    return found


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
