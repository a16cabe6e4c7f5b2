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
    "intermediateCatchEvent", "intermediateThrowEvent", "boundaryEvent",
}


def _local(tag: str) -> str:
    return tag.split("}", 1)[-1]


def _text(node) -> str:
    return (node.text or "").strip() if node is not None else ""


def describe(files: dict[str, str]) -> dict:
    """Processes, elements, lanes, scripts, conditions, timers and messages of the BPMN files."""
    processes, elements, scripts, messages = {}, {}, [], set()
    for filename, content in sorted(files.items()):
        if not filename.endswith(".bpmn"):
            continue
        root = parse_xml(content.encode("utf-8"), filename)
        for msg in root.iter(f"{{{BPMN}}}message"):
            if msg.get("name"):
                messages.add(msg.get("name"))
        for proc in root.iter(f"{{{BPMN}}}process"):
            lane_of = {}
            lanes = []
            for lane in proc.iter(f"{{{BPMN}}}lane"):
                lanes.append({"id": lane.get("id"), "name": lane.get("name")})
                for ref in lane.findall(f"{{{BPMN}}}flowNodeRef"):
                    lane_of[_text(ref)] = lane.get("name")
            pid = proc.get("id")
            processes[pid] = {"id": pid, "name": proc.get("name") or pid, "file": filename,
                              "executable": proc.get("isExecutable", "false").lower() == "true",
                              "lanes": lanes}
            for node in proc.iter():
                if not isinstance(node.tag, str):
                    continue
                kind = _local(node.tag)
                if kind in FLOW_NODES and node.get("id"):
                    _collect_node(node, kind, pid, filename, lane_of, elements, scripts)
                elif kind == "sequenceFlow":
                    cond = node.find("bpmn:conditionExpression", NS)
                    if cond is not None and _text(cond):
                        scripts.append({"element_id": node.get("id"), "kind": "condition",
                                        "source": _text(cond), "mode": "eval", "file": filename})
    return {"processes": processes, "elements": elements, "scripts": scripts,
            "messages": sorted(messages)}


def _collect_node(node, kind, pid, filename, lane_of, elements, scripts):
    element_id = node.get("id")
    entry = {"id": element_id, "type": kind, "name": node.get("name") or element_id,
             "process": pid, "lane": lane_of.get(element_id)}
    if kind == "callActivity":
        entry["called_element"] = node.get("calledElement")
    if kind == "boundaryEvent":
        entry["attached_to"] = node.get("attachedToRef")
    elements[element_id] = entry

    def add(source, what, mode):
        if source:
            scripts.append({"element_id": element_id, "kind": what, "source": source,
                            "mode": mode, "file": filename})

    if kind == "scriptTask":
        add(_text(node.find("bpmn:script", NS)), "script", "exec")
    for what in ("preScript", "postScript"):
        add(_text(node.find(f"bpmn:extensionElements/spiff:{what}", NS)), what, "exec")
    for timer in node.findall("bpmn:timerEventDefinition", NS):
        entry["timer"] = True
        for what in ("timeDate", "timeDuration", "timeCycle"):
            add(_text(timer.find(f"bpmn:{what}", NS)), what, "eval")
    # A receive task names its message on itself; events name it in their definition.
    definition = node.find("bpmn:messageEventDefinition", NS)
    if definition is not None:
        entry["message"] = definition.get("messageRef")
    elif kind == "receiveTask" and node.get("messageRef"):
        entry["message"] = node.get("messageRef")


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
