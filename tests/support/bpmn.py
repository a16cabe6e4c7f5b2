"""A small BPMN writer so each test states its diagram in a few readable lines."""
from __future__ import annotations

from xml.sax.saxutils import escape

HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n'
        '<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" '
        'xmlns:spiffworkflow="http://spiffworkflow.org/bpmn/schema/1.0/core" '
        'id="Defs_{pid}" targetNamespace="http://bpmn.io/schema/bpmn">\n')


def start(id="start"):
    return f'<bpmn:startEvent id="{id}"/>'


def end(id="end", script=None):
    return f'<bpmn:endEvent id="{id}"/>'


def user(id, name=None):
    return f'<bpmn:userTask id="{id}" name="{escape(name or id)}"/>'


def script(id, code, name=None):
    return f'<bpmn:scriptTask id="{id}" name="{escape(name or id)}"><bpmn:script>{escape(code)}</bpmn:script></bpmn:scriptTask>'


def xor(id, default=None):
    extra = f' default="{default}"' if default else ""
    return f'<bpmn:exclusiveGateway id="{id}"{extra}/>'


def parallel(id):
    return f'<bpmn:parallelGateway id="{id}"/>'


def message_catch(id, message_id, variable):
    return (f'<bpmn:intermediateCatchEvent id="{id}"><bpmn:messageEventDefinition messageRef="{message_id}">'
            f'<bpmn:extensionElements><spiffworkflow:messageVariable>{variable}</spiffworkflow:messageVariable>'
            f'</bpmn:extensionElements></bpmn:messageEventDefinition></bpmn:intermediateCatchEvent>')


def timer_boundary(id, attached_to, time_date_expr, interrupting=True):
    cancel = "true" if interrupting else "false"
    return (f'<bpmn:boundaryEvent id="{id}" attachedToRef="{attached_to}" cancelActivity="{cancel}">'
            f'<bpmn:timerEventDefinition><bpmn:timeDate>{escape(time_date_expr)}</bpmn:timeDate>'
            f'</bpmn:timerEventDefinition></bpmn:boundaryEvent>')


def event_gateway(id):
    return f'<bpmn:eventBasedGateway id="{id}"/>'


def timer_catch(id, time_date_expr):
    return (f'<bpmn:intermediateCatchEvent id="{id}"><bpmn:timerEventDefinition>'
            f'<bpmn:timeDate>{escape(time_date_expr)}</bpmn:timeDate></bpmn:timerEventDefinition>'
            f'</bpmn:intermediateCatchEvent>')


def call(id, called):
    return f'<bpmn:callActivity id="{id}" calledElement="{called}"/>'


def flow(id, source, target, condition=None):
    cond = f"<bpmn:conditionExpression>{escape(condition)}</bpmn:conditionExpression>" if condition else ""
    return f'<bpmn:sequenceFlow id="{id}" sourceRef="{source}" targetRef="{target}">{cond}</bpmn:sequenceFlow>'


def chain(*ids, prefix="f"):
    return [flow(f"{prefix}_{a}_{b}", a, b) for a, b in zip(ids, ids[1:])]


def diagram(pid, *, lanes: dict[str, list[str]], nodes: list[str], flows: list[str],
            messages: dict[str, str] | None = None, name=None, processes_extra: str = "") -> str:
    lane_xml = "".join(
        f'<bpmn:lane id="Lane_{role}" name="{role}">' + "".join(f"<bpmn:flowNodeRef>{n}</bpmn:flowNodeRef>" for n in refs)
        + "</bpmn:lane>" for role, refs in lanes.items())
    msgs = "".join(f'<bpmn:message id="{mid}" name="{mname}"/>' for mid, mname in (messages or {}).items())
    return (HEAD.format(pid=pid) + msgs +
            f'<bpmn:process id="{pid}" name="{escape(name or pid)}" isExecutable="true">'
            f'<bpmn:laneSet id="LaneSet_{pid}">{lane_xml}</bpmn:laneSet>'
            + "".join(nodes) + "".join(flows) + "</bpmn:process>" + processes_extra + "</bpmn:definitions>\n")


def form(required: dict[str, dict] | None = None, optional: dict[str, dict] | None = None) -> str:
    import json
    props = {**(required or {}), **(optional or {})}
    return json.dumps({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                       "properties": props, "required": sorted(required or {}),
                       "additionalProperties": False})
