"""What `describe` says of a diagram's elements (stored with each version at deploy)."""
from __future__ import annotations

from engine.definitions.parsing import describe

DIAGRAM = """<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="d" targetNamespace="t">
  <bpmn:message id="message_docs" name="documents_received" />
  <bpmn:process id="p" isExecutable="true">
    <bpmn:startEvent id="start" />
    <bpmn:receiveTask id="wait_task" messageRef="message_docs" />
    <bpmn:intermediateCatchEvent id="wait_event">
      <bpmn:messageEventDefinition id="def" messageRef="message_docs" />
    </bpmn:intermediateCatchEvent>
    <bpmn:receiveTask id="wait_nothing" />
  </bpmn:process>
</bpmn:definitions>"""


def test_a_receive_task_names_the_message_it_waits_for_like_a_catch_event():
    elements = describe({"p.bpmn": DIAGRAM})["elements"]
    assert elements["wait_task"]["message"] == "message_docs"
    assert elements["wait_event"]["message"] == "message_docs"
    assert "message" not in elements["wait_nothing"]
    assert "message" not in elements["start"]
