"""Turns a definition's files into SpiffWorkflow specs, and describes its elements for everyone else.

`describe` reads the XML once at deploy time; the result is stored with the version, so listing
elements, lanes or forms never parses XML again. `build_specs` is what the runtime calls; the
repository caches its result per stored version because a version never changes.
"""
from __future__ import annotations

from SpiffWorkflow.bpmn.parser.ValidationException import ValidationException
from SpiffWorkflow.spiff.parser.process import VALIDATOR, SpiffBpmnParser

from engine.errors import BadRequest
from engine.definitions.xml_safety import parse_xml

BPMN = "http://www.omg.org/spec/BPMN/20100524/MODEL"
SPIFF = "http://spiffworkflow.org/bpmn/schema/1.0/core"
NS = {"bpmn": BPMN, "spiff": SPIFF}

FLOW_NODES = {
    "startEvent", "endEvent", "userTask", "task", "manualTask", "scriptTask", "serviceTask",
    "businessRuleTask", "sendTask", "receiveTask", "exclusiveGateway", "parallelGateway",
    "inclusiveGateway", "eventBasedGateway", "callActivity", "subProcess", "transaction",
    "adHocSubProcess", "intermediateCatchEvent", "intermediateThrowEvent", "boundaryEvent",
}
# Elements whose children are flow nodes of their own: the library gives them the container's lane.
CONTAINERS = {"subProcess", "transaction", "adHocSubProcess"}
THROWS = {"intermediateThrowEvent", "endEvent"}
TIMER_FIELDS = ("timeDate", "timeDuration", "timeCycle")


def _local(tag: str) -> str:
    return tag.split("}", 1)[-1]


def _text(node) -> str:
    return (node.text or "").strip() if node is not None else ""


def describe(files: dict[str, str]) -> dict:
    """Processes, elements, lanes, scripts, conditions, timers, messages, signals and data stores
    of the BPMN files."""
    out = {"processes": {}, "elements": {}, "scripts": [], "messages": set(), "signals": set(),
           "data_stores": [], "flows": 0, "outgoing": {}, "top_flows": {}}
    for filename, content in sorted(files.items()):
        if not filename.endswith(".bpmn"):
            continue
        root = parse_xml(content.encode("utf-8"), filename)
        for msg in root.iter(f"{{{BPMN}}}message"):
            if msg.get("name"):
                out["messages"].add(msg.get("name"))
        signal_names = {s.get("id"): s.get("name") for s in root.iter(f"{{{BPMN}}}signal")}
        for kind in ("dataStore", "dataStoreReference"):
            for store in root.iter(f"{{{BPMN}}}{kind}"):
                out["data_stores"].append({"id": store.get("id") or filename, "kind": kind,
                                           "name": store.get("name"), "file": filename})
        for proc in root.iter(f"{{{BPMN}}}process"):
            lane_of = {}
            lanes = []
            for lane in proc.iter(f"{{{BPMN}}}lane"):
                lanes.append({"id": lane.get("id"), "name": lane.get("name")})
                for ref in lane.findall(f"{{{BPMN}}}flowNodeRef"):
                    lane_of[_text(ref)] = lane.get("name")
            pid = proc.get("id")
            out["processes"][pid] = {"id": pid, "name": proc.get("name") or pid, "file": filename,
                                     # The library's own rule: absent means runnable, and only
                                     # the exact text "true" otherwise.
                                     "executable": proc.get("isExecutable", "true") == "true",
                                     "is_executable": proc.get("isExecutable"), "lanes": lanes}
            _walk(proc, _Scope(pid, filename, lane_of, signal_names), None, out)
    out["messages"] = sorted(out["messages"])
    out["signals"] = sorted(out["signals"])
    return out


class _Scope:
    def __init__(self, pid, filename, lane_of, signal_names):
        self.pid, self.filename, self.lane_of, self.signal_names = pid, filename, lane_of, signal_names


def _walk(parent, scope: _Scope, inherited_lane, out, top: bool = True) -> None:
    """Flow nodes and flows of a process or sub-process. A node inside a sub-process takes the
    sub-process's lane (the library does, and bpmn-js draws it so); one in no lane keeps its own."""
    for node in parent:
        if not isinstance(node.tag, str):
            continue
        kind = _local(node.tag)
        if kind in FLOW_NODES and node.get("id"):
            lane = inherited_lane if inherited_lane is not None else scope.lane_of.get(node.get("id"))
            _collect_node(node, kind, scope, lane, out)
            if kind in CONTAINERS:
                _walk(node, scope, lane, out, top=False)
        elif kind == "sequenceFlow":
            out["flows"] += 1
            source = node.get("sourceRef")
            out["outgoing"][source] = out["outgoing"].get(source, 0) + 1
            if top:  # a process's own flows: whether it can end without a call (call_graph)
                out["top_flows"].setdefault(scope.pid, []).append((source, node.get("targetRef")))
            cond = node.find("bpmn:conditionExpression", NS)
            if cond is not None and _text(cond):
                out["scripts"].append({"element_id": node.get("id"), "kind": "condition",
                                       "source": _text(cond), "mode": "eval", "file": scope.filename})


def _collect_node(node, kind, scope: _Scope, lane, out):
    element_id = node.get("id")
    entry = {"id": element_id, "type": kind, "name": node.get("name") or element_id,
             "process": scope.pid, "lane": lane}
    if kind == "callActivity":
        entry["called_element"] = node.get("calledElement")
    if kind == "boundaryEvent":
        entry["attached_to"] = node.get("attachedToRef")
    out["elements"][element_id] = entry

    def add(source, what, mode):
        if source:
            out["scripts"].append({"element_id": element_id, "kind": what, "source": source,
                                   "mode": mode, "file": scope.filename})

    if kind == "scriptTask":
        entry["script_format"] = node.get("scriptFormat")
        entry["script_empty"] = not _text(node.find("bpmn:script", NS))
        add(_text(node.find("bpmn:script", NS)), "script", "exec")
    for what in ("preScript", "postScript"):
        add(_text(node.find(f"bpmn:extensionElements/spiff:{what}", NS)), what, "exec")
    for timer in node.findall("bpmn:timerEventDefinition", NS):
        entry["timer"] = True
        found = [(what, _text(timer.find(f"bpmn:{what}", NS))) for what in TIMER_FIELDS]
        entry["timer_expressions"] = [{"kind": what, "source": source} for what, source in found if source]
        for what, source in found:
            add(source, what, "eval")
    # A receive task names its message on itself; events name it in their definition.
    definition = node.find("bpmn:messageEventDefinition", NS)
    if definition is not None:
        entry["message"] = definition.get("messageRef")
    elif kind == "receiveTask" and node.get("messageRef"):
        entry["message"] = node.get("messageRef")
    _collect_events(node, kind, scope, entry, out)


def _collect_events(node, kind, scope: _Scope, entry, out):
    """The event definitions deploy checks care about: signals, links, compensation."""
    definitions = [_local(d.tag) for d in node if isinstance(d.tag, str) and d.tag.endswith("EventDefinition")]
    if definitions:
        entry["events"] = definitions
        entry["throws"] = kind in THROWS
    for signal in node.findall("bpmn:signalEventDefinition", NS):
        ref = signal.get("signalRef")
        # The library's own rule: the signal element's name, else the event's name.
        name = scope.signal_names.get(ref) if ref else node.get("name")
        entry["signal"] = name
        if kind not in THROWS and name:
            out["signals"].add(name)


def _new_parser(files: dict[str, str]) -> SpiffBpmnParser:
    parser = SpiffBpmnParser(validator=VALIDATOR)
    try:
        for filename, content in sorted(files.items()):
            if filename.endswith(".bpmn"):
                parser.add_bpmn_xml(parse_xml(content.encode("utf-8"), filename), filename)
            elif filename.endswith(".dmn"):
                parser.add_dmn_xml(parse_xml(content.encode("utf-8"), filename), filename)
    except ValidationException as exc:
        raise _bad_definition(exc) from None
    return parser


def _bad_definition(exc: ValidationException) -> BadRequest:
    where = exc.id or exc.file_name or "definition"
    line = f" (line {exc.line_number})" if getattr(exc, "line_number", "") else ""
    text = str(exc).split("\n")[0]
    return BadRequest(f"{where}{line}: {text}", {where: [text]})


def build_specs(files: dict[str, str], process_id: str):
    """(spec, subprocess_specs) of `process_id`; BadRequest naming the element on failure."""
    parser = _new_parser(files)
    try:
        spec = parser.get_spec(process_id)
        subprocess_specs = parser.get_subprocess_specs(process_id)
    except ValidationException as exc:
        raise _bad_definition(exc) from None
    except Exception as exc:  # the parser raises plain errors for some broken references
        raise BadRequest(f"{process_id}: {exc}", {process_id: [str(exc)]}) from None
    return spec, subprocess_specs
