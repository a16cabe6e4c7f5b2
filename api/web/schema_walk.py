"""Walking a form's JSON Schema: local `$ref`s followed, enum members as form tokens, the absent value.

Both the form builder (formkit) and its if/then/else reading (form_conditions) need these; kept
here, neither has to import the other's module to get them.
"""
from __future__ import annotations

import json
from typing import Any

MISSING: Any = type("Missing", (), {"__repr__": lambda self: "MISSING", "__bool__": lambda self: False})()


def resolve(schema: dict, root: dict) -> dict:
    """Follow local `$ref`s (`#/$defs/...`); keywords beside a `$ref` win over the target's."""
    for _ in range(20):
        if not isinstance(schema, dict) or not str(schema.get("$ref", "")).startswith("#/"):
            break
        target: Any = root
        for part in schema["$ref"][2:].split("/"):
            target = target.get(part.replace("~1", "/").replace("~0", "~"), {}) if isinstance(target, dict) else {}
        schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    return schema if isinstance(schema, dict) else {}


def token(value) -> str:
    """How an enum member travels in an HTML form (strings as themselves, others as JSON)."""
    return value if isinstance(value, str) else json.dumps(value)
