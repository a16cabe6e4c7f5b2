"""The version diff counts every change a process owner makes: flows, conditions, scripts, timers,
forms and lanes (issue 16: a changed branch condition showed "cambiados: 0")."""
from __future__ import annotations

import json

import pytest

from engine.definitions.form_files import task_names
from engine.definitions.parsing import describe
from engine.definitions.version_diff import compare

DIAGRAM = """<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="d" targetNamespace="t">
  <bpmn:process id="p" isExecutable="true">
    <bpmn:laneSet id="ls">
      <bpmn:lane id="lane_clerk" name="clerk">
        <bpmn:flowNodeRef>start</bpmn:flowNodeRef><bpmn:flowNodeRef>review</bpmn:flowNodeRef>
        <bpmn:flowNodeRef>route</bpmn:flowNodeRef><bpmn:flowNodeRef>admit</bpmn:flowNodeRef>
        <bpmn:flowNodeRef>deny</bpmn:flowNodeRef><bpmn:flowNodeRef>late</bpmn:flowNodeRef>
      </bpmn:lane>
    </bpmn:laneSet>
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f_start" sourceRef="start" targetRef="review" />
    <bpmn:userTask id="review" name="Revisar" />
    <bpmn:boundaryEvent id="late" attachedToRef="review">
      <bpmn:timerEventDefinition><bpmn:timeDuration xsi:type="bpmn:tFormalExpression">"P20D"</bpmn:timeDuration></bpmn:timerEventDefinition>
    </bpmn:boundaryEvent>
    <bpmn:sequenceFlow id="f_review" sourceRef="review" targetRef="route" />
    <bpmn:exclusiveGateway id="route" default="f_deny" />
    <bpmn:sequenceFlow id="f_admit" name="Cumple" sourceRef="route" targetRef="admit">
      <bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">share &gt;= 50</bpmn:conditionExpression>
    </bpmn:sequenceFlow>
    <bpmn:sequenceFlow id="f_deny" sourceRef="route" targetRef="deny" />
    <bpmn:endEvent id="admit" />
    <bpmn:endEvent id="deny" />
  </bpmn:process>
</bpmn:definitions>"""
SCHEMA, UI = task_names("review")
FORM = {"type": "object", "properties": {"ok": {"type": "boolean"}}}


def version(diagram: str = DIAGRAM, form: dict = FORM) -> tuple[dict, dict]:
    files = {"p.bpmn": diagram, SCHEMA: json.dumps(form)}
    return {"elements": list(describe(files)["elements"].values())}, files


def changed(new: tuple[dict, dict]) -> dict[str, list[str]]:
    diff = compare(*version(), *new)
    rows = {r["id"]: r["changes"] for r in diff["elements"] if r["status"] == "changed"}
    assert diff["counts"]["changed"] == len(rows)
    return rows


def test_the_same_version_has_no_changes_and_lists_flows_and_lanes():
    diff = compare(*version(), *version())
    assert diff["counts"] == {"added": 0, "removed": 0, "changed": 0, "same": len(diff["elements"])}
    ids = {r["id"] for r in diff["elements"]}
    assert {"f_admit", "f_deny", "lane_clerk", "review"} <= ids


@pytest.mark.parametrize("old, new, expected", [
    ("share &gt;= 50", "share &gt;= 40", {"f_admit": ["condition"]}),
    ('"P20D"', '"P30D"', {"late": ["timer"]}),
    ('targetRef="deny" />', 'targetRef="admit" />', {"f_deny": ["target"]}),
    ('default="f_deny"', 'default="f_admit"', {"f_deny": ["default"], "f_admit": ["default"]}),
    ('name="Cumple"', 'name="Cumple el mínimo"', {"f_admit": ["name"]}),
], ids=["condition", "timer", "flow-target", "default-flow", "flow-name"])
def test_a_change_of_a_flow_or_an_expression_counts(old, new, expected):
    assert changed(version(DIAGRAM.replace(old, new))) == expected


def test_a_renamed_lane_changes_the_lane_and_every_element_in_it():
    rows = changed(version(DIAGRAM.replace('name="clerk"', 'name="registry_clerk"')))
    assert rows.pop("lane_clerk") == ["name"]
    assert set(rows) == {"start", "review", "route", "admit", "deny", "late"}
    assert all(changes == ["lane"] for changes in rows.values())


def test_a_new_flow_is_added_and_a_changed_form_changes_its_task():
    diagram = DIAGRAM.replace('<bpmn:endEvent id="deny" />',
                              '<bpmn:endEvent id="deny" /><bpmn:sequenceFlow id="f_more" sourceRef="review" targetRef="deny" />')
    diff = compare(*version(), *version(diagram, {**FORM, "required": ["ok"]}))
    assert [r["id"] for r in diff["elements"] if r["status"] == "added"] == ["f_more"]
    assert [(r["id"], r["changes"]) for r in diff["elements"] if r["status"] == "changed"] == [("review", ["form"])]
