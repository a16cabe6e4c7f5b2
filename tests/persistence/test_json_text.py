"""JSON from PostgreSQL decoded by orjson only where it reads what the stdlib decoder reads
(engine/persistence/json_text.py): integers past 64 bits stay exact, and every json/jsonb value the
engine's pooled connections read goes through it."""
import json
import math

import orjson
import pytest
from sqlalchemy import bindparam, text

from engine.persistence import json_text

from tests.conftest import PG_URL
from tests.support.json_types import types_of

TEXTS = [
    '{"big": 12345678901234567890123, "small": 7}',
    '[-9223372036854775809, 18446744073709551615, 9223372036854775807]',
    '{"price": 1234.5, "tiny": 0.000001, "neg": -0.0, "zero": 0, "t": true, "n": null}',
    '{"text": "n.\\u00ba 1234567890123456789012", "ñ": "camión \\ud83d\\ude9a", "e": ""}',
    '{"nested": [[[{"a": [1, 2.25, "3"]}]]], "k": {}}',
    '0.1234567890123456789',
    '"plain"',
]


@pytest.mark.parametrize("source", TEXTS)
def test_it_reads_what_the_stdlib_reads_from_bytes_memoryview_and_text(source):
    expected = json.loads(source)
    for given in (source, source.encode(), memoryview(source.encode()), bytearray(source.encode())):
        got = json_text.loads(given)
        assert got == expected and types_of(got) == types_of(expected)


def test_integers_past_64_bits_stay_integers():
    assert json_text.loads(b"[12345678901234567890123]") == [12345678901234567890123]
    assert type(json_text.loads(b"-9223372036854775809")) is int


def test_what_orjson_refuses_the_stdlib_reads_or_refuses_as_it_always_did():
    assert json_text.loads(b"[1e400]") == [math.inf]  # a json column keeps its number's text
    with pytest.raises(json.JSONDecodeError):
        json_text.loads(b"{not json")



@pytest.mark.skipif(not PG_URL, reason="PostgreSQL only; the PostgreSQL phase of .ci/run runs it")
def test_the_engines_connections_read_jsonb_through_it(engine, monkeypatch):
    decoded = []

    class Counted:  # orjson, counting the texts json_text hands it
        JSONDecodeError = json_text.orjson.JSONDecodeError

        @staticmethod
        def loads(raw):
            decoded.append(raw)
            return orjson.loads(raw)

    monkeypatch.setattr(json_text, "orjson", Counted)
    statement = text("SELECT CAST(:t AS jsonb), CAST(:t AS json)").bindparams(bindparam("t"))
    for source in TEXTS:
        for db in (engine.db.write_engine, engine.db.read_engine):
            with db.connect() as conn:
                as_jsonb, as_json = conn.execute(statement, {"t": source}).one()
            assert as_jsonb == json.loads(source) and types_of(as_jsonb) == types_of(json.loads(source))
            assert as_json == json.loads(source) and types_of(as_json) == types_of(json.loads(source))
    assert len(decoded) == 2 * 2 * (len(TEXTS) - 4)  # four hold 19 digits in a row: the stdlib reads those
