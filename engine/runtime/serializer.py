"""SpiffWorkflow serialization without the spec, split into one JSON body per task.

The stock serializer embeds the whole process spec in every blob and writes every task ever run
(SPIFFWORKFLOW.md §Serialization). Here the spec comes from the stored version, and the workflow is
split into a small `meta` dict plus one body per live task, so the store can write only the
tasks whose body changed.
"""
from __future__ import annotations

from datetime import date, datetime, timedelta
from decimal import Decimal
from json.encoder import c_make_encoder, encode_basestring_ascii
from uuid import UUID

from SpiffWorkflow.bpmn.serializer.default.workflow import BpmnWorkflowConverter, WorkflowConverter
from SpiffWorkflow.bpmn.serializer.helpers.registry import DefaultRegistry
from SpiffWorkflow.bpmn.serializer.workflow import BpmnWorkflowSerializer
from SpiffWorkflow.bpmn.workflow import BpmnWorkflow
from SpiffWorkflow.spiff.serializer.config import SPIFF_CONFIG

from engine.persistence import json_text


class _SpeclessWorkflowConverter(BpmnWorkflowConverter):
    def to_dict(self, workflow):
        dct = WorkflowConverter.to_dict(self, workflow)
        dct["subprocesses"] = self.mapping_to_dict(workflow.subprocesses)
        dct["bpmn_events"] = self.registry.convert(workflow.bpmn_events)
        return dct

    def from_dict(self, dct, spec=None, subprocess_specs=None):
        workflow = self.target_class(spec, subprocess_specs, deserializing=True)
        workflow.tasks = self.mapping_from_dict(dct["tasks"], UUID, workflow=workflow)
        workflow.task_tree = workflow.tasks.get(UUID(dct["root"]))
        self.set_default_attributes(workflow, dct)
        self.subprocesses_from_dict(dct["subprocesses"], workflow)
        workflow.bpmn_events = self.registry.restore(dct.pop("bpmn_events", []))
        return workflow


def _registry() -> DefaultRegistry:
    registry = DefaultRegistry()
    # Money is Decimal and legal dates are dates: both must survive a save exactly.
    registry.register(Decimal, lambda v: {"value": str(v)}, lambda d: Decimal(d["value"]), "Decimal")
    registry.register(date, lambda v: {"value": v.isoformat()}, lambda d: date.fromisoformat(d["value"]), "date")
    config = dict(SPIFF_CONFIG)
    config[BpmnWorkflow] = _SpeclessWorkflowConverter
    return BpmnWorkflowSerializer.configure(config, registry)


_SERIALIZER = BpmnWorkflowSerializer(_registry())


def split(workflow: BpmnWorkflow) -> tuple[dict, dict[tuple[str, str], str]]:
    """(meta, {(owner, task id): body as JSON text}); owner is "" for the top workflow or the
    subprocess id. Each body is serialized once: its text is both what is stored and what the
    store compares to decide whether the row changed."""
    registry = _SERIALIZER.registry
    encoder = _SERIALIZER._encoder_cls
    encode_body = _body_encoder(encoder)
    registry._encoder_mode = True
    try:
        dct = _SERIALIZER.to_dict(workflow)
        bodies: dict[tuple[str, str], str] = {}
        order: dict[str, list[str]] = {}

        def take(owner: str, wf_dict: dict) -> None:
            tasks = wf_dict.pop("tasks")
            order[owner] = list(tasks)
            for task_id, body in tasks.items():
                # Task data deltas skip the registry in to_dict; the encoder is where Decimal, date
                # and friends become JSON, exactly as the library's own serialize_json does it.
                bodies[(owner, task_id)] = encode_body(body)

        take("", dct)
        for sp_id, sp in dct["subprocesses"].items():
            take(sp_id, sp)
        meta = json_text.loads(encode_body(dct))  # the library's objects made plain JSON values
    finally:
        registry._encoder_mode = False
    meta["task_order"] = order
    return meta, bodies


def _body_encoder(encoder_cls):
    """`json.dumps(body, cls=encoder_cls, separators=(",", ":"))` as one function for every body of a
    save: json.dumps builds the encoder class and its C encoder for each call, which cost more than
    encoding a task's small body (~1 % of the engine's instructions per case, issue 21). Made per
    save, not once: the C encoder's record of the containers it is inside (its check for a list
    that holds itself) is left behind by a body that fails."""
    spiff = encoder_cls(separators=(",", ":"))
    if c_make_encoder is None:  # a Python without the C accelerator: the encoder's own way
        return spiff.encode
    iterencode = c_make_encoder({}, spiff.default, encode_basestring_ascii, None, ":", ",", False, False, True)
    return lambda body: "".join(iterencode(body, 0))


def join(meta: dict, bodies: dict[tuple[str, str], dict], spec, subprocess_specs) -> BpmnWorkflow:
    dct = dict(meta)
    dct.pop("tramite", None)  # the engine's own notes beside the library's state
    order = dct.pop("task_order")
    # Tasks must come back parent first: a task's data is stored as a delta of its parent's.
    dct["tasks"] = {tid: bodies[("", tid)] for tid in order[""]}
    subprocesses = {}
    for sp_id, sp in dct["subprocesses"].items():
        sp = dict(sp)
        sp["tasks"] = {tid: bodies[(sp_id, tid)] for tid in order[sp_id]}
        subprocesses[sp_id] = sp
    dct["subprocesses"] = subprocesses
    return _SERIALIZER.from_dict(dct, spec=spec, subprocess_specs=subprocess_specs)


def _iso_duration(span: timedelta) -> str:
    sign = "-" if span < timedelta(0) else ""
    span = abs(span)
    seconds = span.seconds + span.microseconds / 1_000_000
    clock = f"T{seconds:g}S" if seconds else ""
    return f"{sign}P{span.days}D{clock}"


def to_json_value(value):
    """Task data → plain JSON for the API: Decimal as string, dates as ISO text, a timedelta
    (the library's registry saves it in the workflow) as an ISO 8601 duration, a UUID as text."""
    if isinstance(value, Decimal):
        return f"{value:.2f}" if value == value.quantize(Decimal("0.01")) else str(value)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, timedelta):
        return _iso_duration(value)
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, dict):
        return {str(k): to_json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [to_json_value(v) for v in value]
    return value
