"""JSON from PostgreSQL decoded by orjson wherever it reads exactly what the stdlib decoder reads.

Decoding JSON was ~2 % of the engine's instructions per case (callgrind, start + complete), through
the stdlib decoder psycopg hands every json/jsonb value to (the workflow's task rows above all);
orjson does it in a fraction. Two cases go the stdlib way so that nothing read changes:
- orjson reads an integer past 64 bits as a float. A text holding a run of 19 digits anywhere takes
  the stdlib decoder, which keeps it exact. The run is looked for in the bytes with every digit
  mapped to "0" (a regular expression cost four times orjson's decoding itself).
- anything orjson refuses (a number out of its range in a json column, nesting past its limit): the
  stdlib decoder then reads it, or raises what it always raised.
"""
from __future__ import annotations

import json

import orjson

_DIGITS_AS_ZERO = bytes(48 if 48 <= i <= 57 else 32 for i in range(256))
_LONG_RUN = b"0" * 19


def loads(data: bytes | bytearray | memoryview | str):
    raw = data.encode() if isinstance(data, str) else bytes(data)
    if _LONG_RUN in raw.translate(_DIGITS_AS_ZERO):
        return json.loads(raw)
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return json.loads(raw)


# A datetime or dataclass goes to the stdlib (which refuses it, as it always did) rather than being
# written by orjson in a form of its own.
_PLAIN = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


def dumps(value) -> str:
    """Plain JSON values (text, numbers, true/false/null, lists, dicts with text keys: the history's
    events and the new task rows, made plain by `to_json_value`) as compact JSON text, by orjson:
    ~15× the stdlib encoder's speed on these small documents. What orjson refuses (an integer past
    64 bits, a key that is not text, a type it does not know) goes to the stdlib encoder, which
    writes it or raises as it always did. The text differs from the stdlib's only in form (letters
    past ASCII as they are, `1e16` for `1e+16`), which jsonb reads alike, and in one value no case
    holds: a float NaN or infinity (refused in every variable a case saves, engine/persistence/
    saveable.py) would be written as null where the stdlib wrote NaN, which jsonb refused."""
    try:
        return orjson.dumps(value, option=_PLAIN).decode()
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.dumps(value, separators=(",", ":"))
