"""Plays a diagram one command at a time, either in SpiffWorkflow alone (one workflow in memory) or
the way Tramite keeps a case between commands (pruned, split into task bodies as JSON, joined back)."""
from __future__ import annotations

import json

from SpiffWorkflow.bpmn.workflow import BpmnWorkflow
from SpiffWorkflow.spiff.parser.process import SpiffBpmnParser
from SpiffWorkflow.util.task import TaskState

from engine.runtime import serializer
from engine.runtime.pruning import prune


def parse(xml: str, pid: str = "p"):
    parser = SpiffBpmnParser()
    parser.add_bpmn_str(xml.encode())
    return parser.get_spec(pid), parser.get_subprocess_specs(pid)


def saved_and_loaded(workflow, spec, subprocess_specs):
    prune(workflow)
    meta, bodies = serializer.split(workflow)
    meta = json.loads(json.dumps(meta))
    return serializer.join(meta, {key: json.loads(body) for key, body in bodies.items()}, spec, subprocess_specs)


class Play:
    """One case; `complete(element)` is one command: find the open task, run it, run the engine."""

    def __init__(self, xml: str, *, saved: bool, data: dict | None = None, pid: str = "p"):
        self.spec, self.subprocess_specs = parse(xml, pid)
        self.saved = saved
        self.workflow = BpmnWorkflow(self.spec, self.subprocess_specs)
        self.workflow.task_tree.data.update(data or {})
        self.workflow.do_engine_steps()
        self._save()

    def _save(self):
        if self.saved:
            self.workflow = saved_and_loaded(self.workflow, self.spec, self.subprocess_specs)

    def open_tasks(self) -> list[str]:
        return sorted(t.task_spec.bpmn_id for t in self.workflow.get_tasks(state=TaskState.READY, manual=True))

    def complete(self, element: str, data: dict | None = None) -> None:
        ready = [t for t in self.workflow.get_tasks(state=TaskState.READY, manual=True)
                 if t.task_spec.bpmn_id == element]
        assert ready, f"{element} is not open; open: {self.open_tasks()}"
        ready[0].data.update(data if data is not None else {element: True})
        ready[0].run()
        self.workflow.do_engine_steps()
        self._save()

    def play(self, order: list[str]) -> "Play":
        for element in order:
            self.complete(element)
        return self

    @property
    def completed(self) -> bool:
        return self.workflow.is_completed()

    @property
    def data(self) -> dict:
        return dict(self.workflow.data)

    def task_count(self) -> int:
        return len(self.workflow.tasks) + sum(len(sp.tasks) for sp in self.workflow.subprocesses.values())
