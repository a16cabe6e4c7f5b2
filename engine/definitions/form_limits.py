"""How big a form may be: refused at deploy (and before a preview is drawn) when drawing it could not end
or would not fit on a page.

- A `$ref` that reaches itself (directly, through other `$ref`s, or through a property of its own
  target) makes the form infinite: the page builder and the validator would recurse until Python's
  recursion limit. Refused, naming the `$ref`'s place.
- `minItems` beyond `MAX_ROWS` draws that many rows on an empty form (150,000 rows took 30 s and
  100 MB); the page draws at most `rows_drawn(schema)` rows of any list.
- A form drawing more than `MAX_FIELDS` inputs, an enum of more than `MAX_OPTIONS` members or fields
  nested deeper than `MAX_DEPTH` is no form a person fills in.

The walks below count what they visit and stop at a fixed budget, so even a hostile schema (refs
that fan out exponentially) is measured in bounded time.
"""
from __future__ import annotations

import os

MAX_FIELDS = 2_000
MAX_OPTIONS = 1_000
MAX_DEPTH = 12
_VISIT_BUDGET = 20_000

# Keywords whose values are data, not schemas.
_DATA_KEYWORDS = frozenset({"enum", "const", "default", "examples"})


def max_rows() -> int:
    """TRAMITE_FORM_MAX_ROWS: the most rows any list of a form may have, drawn or submitted (500)."""
    return int(os.environ.get("TRAMITE_FORM_MAX_ROWS") or 500)


def rows_drawn(schema: dict) -> int:
    """The most rows a list may show: its `maxItems`, never more than the absolute limit."""
    declared = schema.get("maxItems")
    limit = max_rows()
    return min(declared, limit) if isinstance(declared, int) and declared >= 0 else limit


class _TooBig(Exception):
    pass


def _pointer(ref) -> tuple | None:
    """The path a local `$ref` points at, or None when it is not a JSON pointer into this document."""
    if not isinstance(ref, str) or not (ref == "#" or ref.startswith("#/")):
        return None
    return tuple(p.replace("~1", "/").replace("~0", "~") for p in ref[2:].split("/")) if ref != "#" else ()


def _at(root, path: tuple):
    node = root
    for part in path:
        if isinstance(node, dict):
            node = node.get(part)
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node


def _shown(path: tuple) -> str:
    return "#/" + "/".join(path) if path else "#"


class _Walk:
    def __init__(self, root):
        self.root = root
        self.visits = 0

    def tick(self):
        self.visits += 1
        if self.visits > _VISIT_BUDGET:
            raise _TooBig(f"the form is too complex (its $refs expand to more than {_VISIT_BUDGET} schemas)")

    def cycles(self, node, where: tuple, sites: tuple) -> str | None:
        """The first `$ref` whose expansion reaches itself. `sites` are the places of the `$ref`s being
        expanded: a `$ref` to any of them or to a schema holding one of them never ends."""
        self.tick()
        if isinstance(node, list):
            for i, item in enumerate(node):
                found = self.cycles(item, (*where, str(i)), sites)
                if found:
                    return found
            return None
        if not isinstance(node, dict):
            return None
        for keyword in ("$dynamicRef", "$recursiveRef"):
            if keyword in node:
                return f"{_shown(where)}: {keyword} is not supported in forms"
        target = _pointer(node.get("$ref"))
        if target is not None:
            here = (*sites, where)
            if any(site[:len(target)] == target for site in here):
                return f"{_shown(where)}: $ref {node['$ref']!r} refers to itself (a form must be finite)"
            found = self.cycles(_at(self.root, target), target, here)
            if found:
                return found
        for key, value in node.items():
            if key not in _DATA_KEYWORDS and key != "$ref":
                found = self.cycles(value, (*where, key), sites)
                if found:
                    return found
        return None

    def resolved(self, node) -> dict:
        # Keywords beside a `$ref` add to its target (formkit draws them so); cycles are gone by now.
        while isinstance(node, dict) and _pointer(node.get("$ref")) is not None:
            self.tick()
            target = _at(self.root, _pointer(node["$ref"]))
            node = {**(target if isinstance(target, dict) else {}),
                    **{k: v for k, v in node.items() if k != "$ref"}}
        return node if isinstance(node, dict) else {}

    def fields(self, node, where: str, depth: int) -> int:
        """How many inputs an empty form draws for `node`, refusing what no page should hold."""
        self.tick()
        node = self.resolved(node)
        if depth > MAX_DEPTH:
            raise _TooBig(f"{where or '/'}: fields nested more than {MAX_DEPTH} levels deep")
        for values in (node.get("enum"), node.get("oneOf"), node.get("anyOf")):
            if isinstance(values, list) and len(values) > MAX_OPTIONS:
                raise _TooBig(f"{where or '/'}: {len(values)} choices (at most {MAX_OPTIONS})")
        count = 1
        properties = dict(node.get("properties") or {}) if isinstance(node.get("properties"), dict) else {}
        for part in node["allOf"] if isinstance(node.get("allOf"), list) else []:
            part = self.resolved(part)
            if isinstance(part.get("properties"), dict):
                properties.update({k: v for k, v in part["properties"].items() if k not in properties})
        for name, sub in properties.items():
            count += self.fields(sub, f"{where}/{name}", depth + 1)
        if "items" in node:
            least = node.get("minItems") if isinstance(node.get("minItems"), int) else 0
            if least > max_rows():
                raise _TooBig(f"{where or '/'}: minItems {least} is more rows than a form may have "
                              f"(at most {max_rows()})")
            # The empty rows `minItems` asks for, plus the template row new rows are copied from.
            count += (least + 1) * self.fields(node["items"], f"{where}/items", depth + 1)
        if count > MAX_FIELDS:
            raise _TooBig(f"{where or '/'}: the form would draw more than {MAX_FIELDS} fields")
        return count


def form_problem(schema) -> str | None:
    """Why a form schema cannot be drawn or validated safely, or None. Run after the JSON Schema check."""
    if not isinstance(schema, (dict, bool)):
        return None
    walk = _Walk(schema)
    try:
        found = walk.cycles(schema, (), ())
        if found:
            return found
        walk.fields(schema, "", 0)
    except _TooBig as exc:
        return str(exc)
    return None


def long_lists(data) -> dict[str, list[str]]:
    """{field: [message]} for every list of a submission longer than any form may hold (422 per field),
    so 40,000 posted rows are refused instead of stored and drawn back on every page of the case."""
    limit, found, pending = max_rows(), {}, [("", data)]
    while pending:
        path, value = pending.pop()
        if isinstance(value, list):
            if len(value) > limit:
                found[path or "_schema"] = [f"{len(value)} rows, at most {limit}"]
                continue
            pending.extend((f"{path}.{i}" if path else str(i), v) for i, v in enumerate(value))
        elif isinstance(value, dict):
            pending.extend((f"{path}.{k}" if path else str(k), v) for k, v in value.items())
    return found
