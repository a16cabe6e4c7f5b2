"""The JSON texts a save writes (engine/runtime/serializer.py's task bodies; engine/persistence/json_text.py's
history and task rows) are what the stdlib encoder wrote: the same text for a body, the same
values for the rows, and the same refusals."""
import json
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal
from uuid import UUID

import pytest

from engine.persistence import json_text
from engine.runtime import serializer

from tests.support.json_types import types_of

ENCODER = serializer._SERIALIZER._encoder_cls
BODIES = [
    {"id": "5b0c", "parent": None, "children": ["a", "b"], "last_state_change": 1733612345.123456, "state": 64,
     "triggered": False, "internal_data": {}, "data": {}},
    {"data": {"price": Decimal("1234.50"), "due": date(2026, 12, 7), "at": datetime(2026, 12, 7, 22, tzinfo=timezone.utc),
              "wait": timedelta(days=20), "ref": UUID("12345678-1234-5678-1234-567812345678"), "tags": {"x"},
              "big": 12345678901234567890123, "ñandú": "camión ☕", "nested": [[{"1": 1.5e16}]], "t": (1, 2)}},
    {"data": {1: "int key", 2.5: "float key", False: "bool key", None: "null key"}},
]


def _stdlib(body) -> str:
    return json.dumps(body, cls=ENCODER, separators=(",", ":"))


@pytest.mark.parametrize("body", BODIES)
def test_a_body_is_the_text_json_dumps_wrote(body):
    serializer._SERIALIZER.registry._encoder_mode = True
    try:
        assert serializer._body_encoder(ENCODER)(body) == _stdlib(body)
    finally:
        serializer._SERIALIZER.registry._encoder_mode = False


def test_a_body_that_holds_itself_is_refused_as_json_dumps_refuses_it():
    looped = []
    looped.append(looped)
    with pytest.raises(ValueError, match="Circular"):
        serializer._body_encoder(ENCODER)({"data": {"l": looped}})
    with pytest.raises(ValueError, match="Circular"):
        _stdlib({"data": {"l": looped}})


ROWS = [
    [{"at": "2026-12-07T22:00:00", "actor": "ana", "instance_id": 7, "task_id": None, "type": "task_completed",
      "data": {"decision": "aprobado", "inputs": {"acres": 12.5, "ingreso": "1234.50"}}, "rule_ids": ["FAR-04"],
      "message": "Solicitud aprobada — n.º 12"}],
    {"big": 12345678901234567890123, "keys": {"a": 1}},
    {1: "a key that is not text"},
    None,
    [],
]


@pytest.mark.parametrize("value", ROWS)
def test_plain_rows_read_back_as_the_stdlib_wrote_them(value):
    assert json.loads(json_text.dumps(value)) == json.loads(json.dumps(value))


@pytest.mark.parametrize("value", [{"at": datetime(2026, 12, 7)}, {"n": Decimal("1.5")}, {"s": {1}}])
def test_what_the_stdlib_refuses_is_refused(value):
    with pytest.raises(TypeError):
        json.dumps(value)
    with pytest.raises(TypeError):
        json_text.dumps(value)


def test_the_meta_is_what_the_stdlib_round_trip_made_of_it():
    # split() makes the library's workflow dictionary plain JSON values through the per-save encoder
    # and json_text.loads (orjson where exact); the stdlib's round trip made the same values.
    from SpiffWorkflow.bpmn.workflow import BpmnWorkflow
    from SpiffWorkflow.spiff.parser.process import VALIDATOR, SpiffBpmnParser

    from tests.support import bpmn as b

    parser = SpiffBpmnParser(validator=VALIDATOR)
    parser.add_bpmn_str(b.diagram("test_meta", lanes={"test_clerk": ["start", "after", "end"]},
                                  nodes=[b.start(), b.user("after"), b.end()],
                                  flows=b.chain("start", "after", "end")).encode())
    workflow = BpmnWorkflow(parser.get_spec("test_meta"))
    workflow.data.update(BODIES[1]["data"])
    workflow.data["inf"] = float("inf")  # orjson refuses it: the stdlib reads it
    meta, _ = serializer.split(workflow)
    serializer._SERIALIZER.registry._encoder_mode = True
    try:
        dct = serializer._SERIALIZER.to_dict(workflow)
        for owner in (dct, *dct["subprocesses"].values()):
            owner.pop("tasks")
        expected = json.loads(json.dumps(dct, cls=ENCODER))
    finally:
        serializer._SERIALIZER.registry._encoder_mode = False
    meta.pop("task_order")
    assert meta == expected and types_of(meta) == types_of(expected)
    assert meta["data"]["big"] == 12345678901234567890123
