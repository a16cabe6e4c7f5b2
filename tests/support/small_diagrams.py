"""One-line diagrams for the deploy checks: start → the element(s) under test → end, in a lane."""
from __future__ import annotations

from tests.support import bpmn as b

HEAD = b.HEAD
CLERK = "test_clerk"


def around(pid: str, body: str, *, ids: list[str], lane: str | None = CLERK, extra: str = "",
           attrs: str = 'isExecutable="true"', definitions_extra: str = "") -> str:
    """start → ids[0] → … → ids[-1] → end, the whole chain in `lane` (None: no lane at all)."""
    chain = ["start", *ids, "end"]
    lane_xml = "" if lane is None else (
        f'<bpmn:laneSet id="LS_{pid}"><bpmn:lane id="Lane_{lane}" name="{lane}">'
        + "".join(f"<bpmn:flowNodeRef>{n}</bpmn:flowNodeRef>" for n in chain) + "</bpmn:lane></bpmn:laneSet>")
    return (HEAD.format(pid=pid) + definitions_extra + f'<bpmn:process id="{pid}" {attrs}>' + lane_xml
            + b.start() + body + b.end() + "".join(b.chain(*chain)) + extra
            + "</bpmn:process></bpmn:definitions>\n")


def script_node(id: str, code: str) -> str:
    return b.script(id, code)


def timer_catch(id: str, kind: str, expression: str) -> str:
    from xml.sax.saxutils import escape
    return (f'<bpmn:intermediateCatchEvent id="{id}"><bpmn:timerEventDefinition>'
            f'<bpmn:{kind}>{escape(expression)}</bpmn:{kind}></bpmn:timerEventDefinition>'
            f'</bpmn:intermediateCatchEvent>')


def signal_catch(id: str, signal_id: str = "sig_go", variable: str | None = None) -> str:
    return f'<bpmn:intermediateCatchEvent id="{id}"><bpmn:signalEventDefinition signalRef="{signal_id}"/></bpmn:intermediateCatchEvent>'


def signal_definition(signal_id: str = "sig_go", name: str = "go", variable: str | None = None) -> str:
    ext = (f"<bpmn:extensionElements><spiffworkflow:variableName>{variable}</spiffworkflow:variableName>"
           "</bpmn:extensionElements>") if variable else ""
    return f'<bpmn:signal id="{signal_id}" name="{name}">{ext}</bpmn:signal>'
