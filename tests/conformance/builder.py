"""A small BPMN writer for the conformance diagrams: each scenario states its diagram in a few lines.

Every element goes into a lane named after a test role (`test_clerk` unless told otherwise) and
every user task gets a JSON Schema form from the fields it declares, because that is what Tramite
asks of a deployable diagram. The XML is plain BPMN 2.0 plus SpiffWorkflow's extension namespace,
the same text both players read.
"""
from __future__ import annotations

import json
from xml.sax.saxutils import escape

CLERK, REVIEWER = "test_clerk", "test_reviewer"
_TYPES = {"int": {"type": "integer"}, "str": {"type": "string"}, "bool": {"type": "boolean"},
          "list": {"type": "array"}, "any": {}}


def _attrs(**kw) -> str:
    return "".join(f' {k.rstrip("_").replace("__", ":")}="{escape(str(v), {chr(34): "&quot;"})}"'
                   for k, v in kw.items() if v is not None)


class Scope:
    """The flow elements of one process or sub-process."""

    def __init__(self, diagram: "Diagram", lanes: dict[str, list[str]]):
        self.diagram, self.lanes, self.parts, self.artifacts = diagram, lanes, [], []
        self._flows = 0

    def _node(self, element_id: str, xml: str, lane: str | None) -> str:
        self.parts.append(xml)
        if lane is not False:
            self.lanes.setdefault(lane or CLERK, []).append(element_id)
        return element_id

    # -- events ----------------------------------------------------------------------------
    def start(self, id="start", lane=None, body=""):
        return self._node(id, f'<bpmn:startEvent id="{id}">{body}</bpmn:startEvent>', lane)

    def end(self, id="end", lane=None, body=""):
        return self._node(id, f'<bpmn:endEvent id="{id}">{body}</bpmn:endEvent>', lane)

    def catch(self, id, body, lane=None):
        return self._node(id, f'<bpmn:intermediateCatchEvent id="{id}">{body}</bpmn:intermediateCatchEvent>', lane)

    def throw(self, id, body, lane=None):
        return self._node(id, f'<bpmn:intermediateThrowEvent id="{id}">{body}</bpmn:intermediateThrowEvent>', lane)

    def boundary(self, id, attached_to, body, interrupting=True, lane=None):
        cancel = "true" if interrupting else "false"
        return self._node(id, f'<bpmn:boundaryEvent id="{id}" attachedToRef="{attached_to}" '
                              f'cancelActivity="{cancel}">{body}</bpmn:boundaryEvent>', lane)

    # -- activities ------------------------------------------------------------------------
    def user(self, id, fields: dict[str, str] | None = None, lane=None, loop: str = "", attrs: str = ""):
        self.diagram.forms[id] = fields or {}
        return self._node(id, f'<bpmn:userTask id="{id}" name="{id}"{attrs}>{loop}</bpmn:userTask>', lane)

    def script(self, id, code, lane=None, body="", loop="", attrs=""):
        return self._node(id, f'<bpmn:scriptTask id="{id}" name="{id}"{attrs}>{body}{loop}'
                              f'<bpmn:script>{escape(code)}</bpmn:script></bpmn:scriptTask>', lane)

    def task(self, id, kind="task", lane=None):
        return self._node(id, f'<bpmn:{kind} id="{id}" name="{id}"/>', lane)

    def call(self, id, called, lane=None, loop=""):
        return self._node(id, f'<bpmn:callActivity id="{id}" calledElement="{called}">{loop}</bpmn:callActivity>', lane)

    def sub(self, id, build, lane=None, loop="", kind="subProcess", attrs="") -> str:
        inner = Scope(self.diagram, self.lanes)
        inner._flows = 1000 + len(self.parts) * 100
        # The sub-process sits in its lane and so do its elements (the library reads lanes document-wide).
        self.lanes.setdefault(lane or CLERK, []).append(id)
        build(inner)
        self.parts.append(f'<bpmn:{kind} id="{id}"{attrs}>{loop}' + "".join(inner.parts) + f'</bpmn:{kind}>')
        return id

    # -- gateways --------------------------------------------------------------------------
    def gateway(self, id, kind="exclusive", default=None, lane=None):
        extra = f' default="{default}"' if default else ""
        return self._node(id, f'<bpmn:{kind}Gateway id="{id}"{extra}/>', lane)

    # -- flows -----------------------------------------------------------------------------
    def flow(self, source, target, condition=None, id=None):
        self._flows += 1
        id = id or f"Flow_{source}_{target}"
        cond = f"<bpmn:conditionExpression>{escape(condition)}</bpmn:conditionExpression>" if condition else ""
        self.parts.append(f'<bpmn:sequenceFlow id="{id}" sourceRef="{source}" targetRef="{target}">{cond}'
                          f'</bpmn:sequenceFlow>')
        return id

    def seq(self, *ids):
        for a, b in zip(ids, ids[1:]):
            self.flow(a, b)

    def raw(self, xml: str):
        self.parts.append(xml)

    def artifact(self, xml: str):
        """Associations and the like: the schema puts them after every flow element."""
        self.artifacts.append(xml)


class Diagram:
    """One .bpmn file (one or more processes) and the forms of its user tasks."""

    def __init__(self, key: str):
        self.key = key
        self.forms: dict[str, dict[str, str]] = {}
        self.roots: list[str] = []
        self.processes: list[tuple[str, Scope, bool]] = []

    def process(self, pid: str | None = None, executable=True) -> Scope:
        scope = Scope(self, {})
        self.processes.append((pid or self.key, scope, executable))
        return scope

    def message(self, name):
        self.roots.append(f'<bpmn:message id="Msg_{name}" name="{name}"/>')
        return f"Msg_{name}"

    def error(self, name, code):
        self.roots.append(f'<bpmn:error id="Err_{name}" name="{name}" errorCode="{code}"/>')
        return f"Err_{name}"

    def escalation(self, name, code):
        self.roots.append(f'<bpmn:escalation id="Esc_{name}" name="{name}" escalationCode="{code}"/>')
        return f"Esc_{name}"

    def signal(self, name):
        self.roots.append(f'<bpmn:signal id="Sig_{name}" name="{name}"/>')
        return f"Sig_{name}"

    def xml(self) -> str:
        out = ['<?xml version="1.0" encoding="UTF-8"?>\n<bpmn:definitions '
               'xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" '
               'xmlns:spiffworkflow="http://spiffworkflow.org/bpmn/schema/1.0/core" '
               f'id="Defs_{self.key}" targetNamespace="http://tramite.test/conformance">\n']
        out.extend(f"  {r}\n" for r in dict.fromkeys(self.roots))
        for pid, scope, executable in self.processes:
            lanes = "".join(f'<bpmn:lane id="Lane_{pid}_{role}" name="{role}">'
                            + "".join(f"<bpmn:flowNodeRef>{n}</bpmn:flowNodeRef>" for n in refs)
                            + "</bpmn:lane>" for role, refs in scope.lanes.items())
            lane_set = f'<bpmn:laneSet id="LaneSet_{pid}">{lanes}</bpmn:laneSet>' if lanes else ""
            out.append(f'  <bpmn:process id="{pid}" name="{pid}" isExecutable="{str(executable).lower()}">'
                       f'{lane_set}\n')
            out.extend(f"    {p}\n" for p in scope.parts + scope.artifacts)
            out.append("  </bpmn:process>\n")
        out.append("</bpmn:definitions>\n")
        return "".join(out)

    def files(self) -> dict[str, str]:
        files = {f"{self.key}.bpmn": self.xml()}
        for task, fields in sorted(self.forms.items()):
            files[f"{task}.schema.json"] = form(fields)
        return files


def form(fields: dict[str, str]) -> str:
    return json.dumps({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                       "properties": {k: _TYPES[v] for k, v in sorted(fields.items())},
                       "additionalProperties": False}, indent=1, sort_keys=True) + "\n"


# -- event definitions and loop characteristics (the bodies the scope's methods take) -------
def timer(kind: str, expression: str) -> str:
    """kind: timeDate, timeDuration or timeCycle; the expression is Python, so quote literals."""
    return f"<bpmn:timerEventDefinition><bpmn:{kind}>{escape(expression)}</bpmn:{kind}></bpmn:timerEventDefinition>"


def message(ref: str, variable: str | None = None) -> str:
    ext = (f"<bpmn:extensionElements><spiffworkflow:messageVariable>{variable}</spiffworkflow:messageVariable>"
           f"</bpmn:extensionElements>") if variable else ""
    return f'<bpmn:messageEventDefinition messageRef="{ref}">{ext}</bpmn:messageEventDefinition>'


def error(ref: str | None = None) -> str:
    return f'<bpmn:errorEventDefinition{_attrs(errorRef=ref)}/>'


def escalation(ref: str | None = None) -> str:
    return f'<bpmn:escalationEventDefinition{_attrs(escalationRef=ref)}/>'


def signal(ref: str) -> str:
    return f'<bpmn:signalEventDefinition signalRef="{ref}"/>'


def link(name: str) -> str:
    return f'<bpmn:linkEventDefinition name="{name}"/>'


def cancel() -> str:
    return "<bpmn:cancelEventDefinition/>"


def compensate(activity: str | None = None) -> str:
    return f'<bpmn:compensateEventDefinition{_attrs(activityRef=activity)}/>'


def multi(sequential: bool, *, collection=None, item="item", output=None, out_item=None,
          cardinality=None, condition=None) -> str:
    parts = [f'<bpmn:multiInstanceLoopCharacteristics isSequential="{str(sequential).lower()}">']
    if cardinality is not None:
        parts.append(f"<bpmn:loopCardinality>{escape(str(cardinality))}</bpmn:loopCardinality>")
    if collection:
        parts.append(f"<bpmn:loopDataInputRef>{collection}</bpmn:loopDataInputRef>")
    if output:
        parts.append(f"<bpmn:loopDataOutputRef>{output}</bpmn:loopDataOutputRef>")
    if collection or cardinality is not None:
        parts.append(f'<bpmn:inputDataItem id="{item}" name="{item}"/>')
    if out_item:
        parts.append(f'<bpmn:outputDataItem id="{out_item}" name="{out_item}"/>')
    if condition:
        parts.append(f"<bpmn:completionCondition>{escape(condition)}</bpmn:completionCondition>")
    return "".join(parts) + "</bpmn:multiInstanceLoopCharacteristics>"


def standard_loop(condition: str, maximum: int | None = None, test_before=False) -> str:
    return (f'<bpmn:standardLoopCharacteristics testBefore="{str(test_before).lower()}"'
            f'{_attrs(loopMaximum=maximum)}><bpmn:loopCondition>{escape(condition)}</bpmn:loopCondition>'
            f'</bpmn:standardLoopCharacteristics>')


def data_in(ref: str, owner: str) -> str:
    # The schema wants a target for an input: bpmn-js points it at a placeholder property.
    return (f'<bpmn:property id="Prop_{owner}_{ref}" name="__targetRef_placeholder"/>'
            f'<bpmn:dataInputAssociation id="In_{owner}_{ref}"><bpmn:sourceRef>{ref}</bpmn:sourceRef>'
            f'<bpmn:targetRef>Prop_{owner}_{ref}</bpmn:targetRef></bpmn:dataInputAssociation>')


def data_out(ref: str, owner: str) -> str:
    return f'<bpmn:dataOutputAssociation id="Out_{owner}_{ref}"><bpmn:targetRef>{ref}</bpmn:targetRef></bpmn:dataOutputAssociation>'
