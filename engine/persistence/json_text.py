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
