"""Forms: checking a JSON Schema 2020-12 and validating a submission against it, money made exact.

Which file is which form is `form_files`' business, not this module's.
"""
from __future__ import annotations

import copy
import json
from decimal import Decimal

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError
from referencing import Registry
from referencing.exceptions import NoSuchResource, Unresolvable

from engine.definitions.form_limits import form_problem, long_lists
from engine.definitions.form_patterns import FormValidator, pattern_problems
from engine.errors import ValidationFailed
from engine.rules.money import money


def check_json(content: str) -> str | None:
    try:
        json.loads(content)
    except json.JSONDecodeError as exc:
        return f"not JSON: {exc.msg} (line {exc.lineno})"
    return None


def _no_retrieval(uri: str):
    # jsonschema would fetch a remote `$ref` while validating a submission: a form must never make
    # the server reach the network.
    raise NoSuchResource(ref=uri)


_LOCAL_ONLY = Registry(retrieve=_no_retrieval)


def _remote_refs(node) -> list[str]:
    if isinstance(node, dict):
        found = [str(node["$ref"])] if isinstance(node.get("$ref"), str) and not node["$ref"].startswith("#") else []
        return found + [r for value in node.values() for r in _remote_refs(value)]
    if isinstance(node, list):
        return [r for value in node for r in _remote_refs(value)]
    return []


def check_schema(content: str) -> str | None:
    """None when `content` is a valid JSON Schema 2020-12 that refers only to itself, else the reason."""
    try:
        schema = json.loads(content)
        Draft202012Validator.check_schema(schema)
    except json.JSONDecodeError as exc:
        return f"not JSON: {exc.msg} (line {exc.lineno})"
    except SchemaError as exc:
        return f"not a valid JSON Schema: {exc.message}"
    remote = _remote_refs(schema)
    if remote:
        return f"only local $ref (#/...) is allowed in a form, not {remote[0]!r}"
    refused = pattern_problems(schema)
    if refused:
        return f"pattern not allowed at {refused[0]}"
    return form_problem(schema)


def _field_path(error) -> str:
    path = ".".join(str(p) for p in error.absolute_path)
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else ""
        return f"{path}.{missing}" if path else missing
    return path or "_schema"


def validate(schema: dict | None, data: dict) -> dict:
    """Validate `data`; 422 with messages per field. Returns the data with money made exact."""
    if schema is None:
        return data
    errors = long_lists(data)
    if errors:  # before validating: a schema without maxItems would let them all through
        raise ValidationFailed("the form has errors", errors)
    try:
        for error in FormValidator(schema, registry=_LOCAL_ONLY).iter_errors(data):
            errors.setdefault(_field_path(error), []).append(error.message)
    except Unresolvable as exc:  # a version deployed before remote refs were refused
        raise ValidationFailed("the form refers to a schema it does not contain",
                               {"_schema": [f"unresolvable $ref: {exc}"]}) from exc
    except RecursionError as exc:  # a version deployed before recursive $refs were refused
        raise ValidationFailed("the form refers to itself without end",
                               {"_schema": ["recursive $ref"]}) from exc
    if errors:
        raise ValidationFailed("the form has errors", errors)
    return exact_money(schema, with_defaults(schema, data))


def with_defaults(schema: dict, value):
    """Absent properties that declare a `default` take it, so a script can read every field of a form
    (a checklist field that does not apply to this applicant arrives as its default)."""
    if not isinstance(schema, dict) or not isinstance(value, dict):
        return value
    out = dict(value)
    for name, sub in (schema.get("properties") or {}).items():
        if name not in out and isinstance(sub, dict) and "default" in sub:
            out[name] = copy.deepcopy(sub["default"])
        if name in out:
            out[name] = with_defaults(sub, out[name])
    return out


def _is_money(schema: dict) -> bool:
    kind = schema.get("type")
    return schema.get("format") == "money" or (isinstance(kind, list) and set(kind) == {"string", "number"})


def exact_money(schema: dict, value):
    """Money fields (type ["string","number"] or format "money") become Decimal, exactly."""
    if not isinstance(schema, dict):
        return value
    if _is_money(schema) and isinstance(value, (str, int, float, Decimal)) and not isinstance(value, bool):
        try:
            return money(value)
        except ValueError:  # not an amount: the schema's own checks have the last word
            return value
    if isinstance(value, dict):
        props = schema.get("properties", {})
        return {k: exact_money(props.get(k, {}), v) for k, v in value.items()}
    if isinstance(value, list):
        items = schema.get("items", {})
        return [exact_money(items, v) for v in value]
    return value
