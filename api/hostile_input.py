"""Refuses, before any view runs, input that no view could handle safely: 400 naming the part at fault.

- JSON nested deeper than MAX_JSON_DEPTH (a request body or an uploaded `.json` file): parsers, JSON
  Schema checks, deep copies and the serializer all recurse, and hit the interpreter's limit at a
  few hundred levels, which used to answer 500.
- JSON that is not JSON or that no database stores: NaN/Infinity, floats that overflow, integers
  too long to convert, NUL characters and lone surrogates (PostgreSQL refuses the last two).
- NUL characters in the path, the query string or form fields, for the same reason.

Bodies over MAX_CONTENT_LENGTH never get here whole: reading one raises 413 first.
"""
from __future__ import annotations

import json
import math
import re

from flask import request

from engine.errors import BadRequest

MAX_JSON_DEPTH = 64  # far deeper than any form or case data, far from the recursion limit

_JSON_STRING = re.compile(rb'"(?:[^"\\]++|\\.)*+"')  # strings may hold brackets: drop them first
_INNERMOST = re.compile(rb"\[\]|\{\}")
_NOT_BRACKETS = bytes(set(range(256)) - set(b"[]{}"))
_ESCAPED_NUL = re.compile(rb"(?<!\\)(?:\\\\)*\\u0000")
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def json_too_deep(document: bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """True when `document` nests arrays/objects more than `limit` levels, found without parsing:
    each pass removes the innermost level, so no recursion and at most `limit` linear passes."""
    brackets = _JSON_STRING.sub(b"", document).translate(None, _NOT_BRACKETS)
    for _ in range(limit):
        brackets, removed = _INNERMOST.subn(b"", brackets)
        if not removed:
            # Balanced documents shrink every pass; what is left unmatched is malformed, and a
            # parser would still recurse into a long run of it.
            return len(brackets) > limit
    return bool(brackets)


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise ValueError(f"the number {text[:40]} is out of range")
    return value


def json_problem(document: bytes) -> tuple[str, str] | None:
    """(code, message) of the first reason to refuse a JSON body, or None when it is acceptable."""
    if json_too_deep(document):
        return "TOO_DEEP", f"the JSON document is nested more than {MAX_JSON_DEPTH} levels deep"
    try:
        value = json.loads(document, parse_constant=_refuse_constant, parse_float=_finite)
    except ValueError as exc:  # malformed, NaN/Infinity, overflow, an integer too long to convert
        return "INVALID_JSON", f"the body is not valid JSON: {exc}"
    if _ESCAPED_NUL.search(document):
        return "NUL_CHARACTER", "text may not contain the NUL character (\\u0000)"
    if _SURROGATE_ESCAPE.search(document):  # only an escape can make one: valid UTF-8 holds none
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            return "LONE_SURROGATE", "text may not contain unpaired UTF-16 surrogates"
    return None


def _refuse(part: str, code: str, message: str):
    raise BadRequest(message, {part: [code]})


def refuse_hostile_input() -> None:
    if "\x00" in request.path:
        _refuse("path", "NUL_CHARACTER", "the path may not contain the NUL character")
    # Only a form body has form fields: asking a JSON request for them parses its body for nothing.
    parts = [("query", request.args)]
    if request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        parts.append(("form", request.form))
    for part, values in parts:
        for key, value in values.items(multi=True):
            if "\x00" in key or "\x00" in value:
                _refuse(f"{part}.{key.replace(chr(0), '')}", "NUL_CHARACTER",
                        f"the {part} may not contain the NUL character")
    if request.is_json:
        body = request.get_data(cache=True)
        problem = json_problem(body) if body.strip() else None  # an empty body is the view's call
        if problem:
            _refuse("json", *problem)
    elif request.mimetype == "multipart/form-data":
        for upload in request.files.getlist("files"):
            if (upload.filename or "").endswith(".json"):
                too_deep = json_too_deep(upload.stream.read())
                upload.stream.seek(0)  # the view reads the file again
                if too_deep:
                    _refuse(upload.filename.rsplit("/", 1)[-1], "TOO_DEEP",
                            f"{upload.filename}: the JSON document is nested more than {MAX_JSON_DEPTH} levels deep")
