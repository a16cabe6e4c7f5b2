"""Task forms drawn from their JSON Schema and UI schema, and the browser's answer read back.

`build` turns a schema (+ the RJSF-style UI schema of `forms/`: ui:order, ui:title, ui:widget,
ui:enumNames, ui:help, ui:placeholder) into a tree of `Field`s that `templates/web/form/fields.html`
draws; `parse` turns the posted fields back into the JSON the schema describes. The engine is the
only validator (engine.definitions.forms.validate). So that nothing typed is lost, a value that does not
convert (a number typed as "abc") is passed on as typed: the engine's error names the field and
the page shows the user's text again beside it.

Field names are the JSON paths the engine's errors use (`applicant.name`, `documents.0.type`);
each row of a list carries a `<path>.__row` marker so that empty rows and gaps survive the post.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import RequestEntityTooLarge

from api.web import form_conditions
from api.web.schema_walk import MISSING, resolve, token  # noqa: F401  (part of this module's interface)
from api.web.i18n import PR_OFFSET
from engine.definitions.form_limits import form_problem, max_rows, rows_drawn

ROW_MARKER = "__row"
DATE_PATTERNS = {r"^\d{4}-\d{2}-\d{2}$", r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}
LONG_TEXT = 300


@dataclass
class Field:
    path: str
    kind: str
    label: str
    help: str = ""
    placeholder: str = ""
    required: bool = False
    value: Any = None
    options: list = field(default_factory=list)
    children: list = field(default_factory=list)
    template: Field | None = None
    errors: list = field(default_factory=list)
    depth: int = 0
    attrs: dict = field(default_factory=dict)
    readonly: bool = False
    nullable: bool = False
    conditional: bool = False  # required only under an if/then/else of its object
    conditions: list = field(default_factory=list)  # an object's if/then/else, as the browser checks them

    @property
    def id(self) -> str:
        return "f-" + re.sub(r"[^A-Za-z0-9_-]", "-", self.path or "form")

    @property
    def placeholder_token(self) -> str:
        return f"__I{self.depth}__"


def _types(schema: dict) -> set:
    kind = schema.get("type")
    return set(kind) if isinstance(kind, list) else ({kind} if kind else set())


def enum_of(schema: dict) -> list | None:
    if "enum" in schema:
        return list(schema["enum"])
    one_of = schema.get("oneOf") or schema.get("anyOf")
    if one_of and all(isinstance(o, dict) and "const" in o for o in one_of):
        return [o["const"] for o in one_of]
    return None


def is_money(schema: dict) -> bool:
    return schema.get("format") == "money" or _types(schema) == {"string", "number"}


def kind_of(schema: dict, ui: dict, root: dict) -> str:
    widget = ui.get("ui:widget")
    if widget == "hidden":
        return "hidden"
    if "const" in schema:
        return "const"
    if enum_of(schema) is not None:
        return "radio" if widget == "radio" else "select"
    types = _types(schema) - {"null"}
    if "array" in types or (not types and "items" in schema):
        items = resolve(schema.get("items", {}), root)
        return "checkboxes" if enum_of(items) is not None else "array"
    if "object" in types or (not types and "properties" in schema):
        return "object"
    if is_money(schema):
        return "money"
    if types == {"boolean"}:
        return "bool_radio" if widget == "radio" else "checkbox"
    if "integer" in types:
        return "integer"
    if "number" in types:
        return "number"
    fmt = schema.get("format")
    if fmt == "date" or widget == "date" or schema.get("pattern") in DATE_PATTERNS:
        return "date"
    if fmt == "date-time" or widget == "datetime":
        return "datetime"
    if widget == "textarea" or (schema.get("maxLength") or 0) > LONG_TEXT:
        return "textarea"
    if fmt == "email" or widget == "email":
        return "email"
    return "text"


def _join(path: str, key) -> str:
    return f"{path}.{key}" if path else str(key)


def _ordered(properties: dict, ui: dict) -> list[str]:
    order = ui.get("ui:order") or []
    names = list(properties)
    if not order:
        return names
    rest = [n for n in names if n not in order]
    out = []
    for name in order:
        if name == "*":
            out.extend(rest)
        elif name in properties:
            out.append(name)
    if "*" not in order:
        out.extend(rest)
    return out


def _properties(schema: dict, root: dict) -> dict:
    """The object's own properties plus those of its `allOf` parts (not conditional branches)."""
    props = dict(schema.get("properties") or {})
    for part in schema.get("allOf") or []:
        part = resolve(part, root)
        for name, sub in (part.get("properties") or {}).items():
            props.setdefault(name, sub)
    return props


def _humanize(name: str) -> str:
    text = str(name).replace("_", " ").strip()
    return text[:1].upper() + text[1:] if text else ""


def _display(kind: str, value) -> Any:
    if value is MISSING or value is None:
        return {"checkbox": False, "checkboxes": [], "bool_radio": ""}.get(kind, "")
    if kind == "checkbox":
        return value is True
    if kind == "bool_radio":
        return {True: "true", False: "false"}.get(value, str(value))
    if kind in ("select", "radio"):
        return token(value)
    if kind == "checkboxes":
        return [token(v) for v in value] if isinstance(value, list) else []
    if kind == "hidden":
        return json.dumps(value)
    if kind == "datetime" and isinstance(value, str):
        return value[:16]
    return str(value) if not isinstance(value, (dict, list)) else json.dumps(value, ensure_ascii=False)


def build(schema: dict, ui: dict | None = None, value=MISSING, errors: dict | None = None, *,
          readonly: bool = False) -> Field:
    """The field tree of a whole form; `errors` are the engine's {"field.path": [messages]}."""
    root = schema or {}
    try:
        return _build(resolve(root, root), ui or {}, value if isinstance(value, dict) else {}, errors or {},
                      root, path="", key="", required=True, depth=0, readonly=readonly)
    except RecursionError:  # a version deployed before recursive $refs were refused at deploy
        return Field(path="", kind="object", label="", errors=[form_problem(root) or "recursive $ref"])


def _build(schema, ui, value, errors, root, *, path, key, required, depth, readonly) -> Field:
    kind = kind_of(schema, ui, root)
    label = ui.get("ui:title") or schema.get("title") or _humanize(key)
    out = Field(path=path, kind=kind, label=label, required=required, depth=depth,
                help=ui.get("ui:help") or ui.get("ui:description") or schema.get("description") or "",
                placeholder=ui.get("ui:placeholder", ""), errors=list(errors.get(path or "_schema", [])),
                readonly=readonly or bool(ui.get("ui:readonly") or schema.get("readOnly")),
                nullable="null" in _types(schema) or None in (enum_of(schema) or []))
    if kind == "object":
        props = _properties(schema, root)
        needed = set(schema.get("required") or [])
        current = value if isinstance(value, dict) else {}
        out.children = [_build(resolve(props[name], root), ui.get(name) or {}, current.get(name, MISSING), errors,
                               root, path=_join(path, name), key=name, required=name in needed, depth=depth,
                               readonly=out.readonly) for name in _ordered(props, ui)]
        form_conditions.apply(out, schema, root, current)
        return out
    if kind == "array":
        items, item_ui = resolve(schema.get("items", {}), root), ui.get("items") or {}
        # Rows drawn are capped (a 150,000-row minItems or a stored 40,000-row list made pages of
        # tens of MB): the empty rows at maxItems and the absolute limit, a shown list at the limit.
        rows = value[:max_rows()] if isinstance(value, list) else []
        if value is MISSING and not out.readonly:
            rows = [MISSING] * min(int(schema.get("minItems") or 0), rows_drawn(schema))
        out.children = [_build(items, item_ui, row, errors, root, path=_join(path, i), key=str(i + 1),
                               required=True, depth=depth + 1, readonly=out.readonly) for i, row in enumerate(rows)]
        out.template = _build(items, item_ui, MISSING, {}, root, path=_join(path, out.placeholder_token), key="",
                              required=True, depth=depth + 1, readonly=False)
        out.attrs = {k: schema[k] for k in ("minItems", "maxItems") if k in schema}
        return out
    if isinstance(value, (dict, list)) and kind not in ("checkboxes", "hidden"):
        # A case variable of the same name but another shape (the item's unit records where the
        # price form asks for unit ids) is not an answer to this field: it was drawn as JSON text.
        value = MISSING
    if kind in ("select", "radio", "checkboxes"):
        source = resolve(schema.get("items", {}), root) if kind == "checkboxes" else schema
        members = enum_of(source) or []
        names = (ui.get("ui:enumNames") or (ui.get("items") or {}).get("ui:enumNames")
                 or [o.get("title") for o in (source.get("oneOf") or source.get("anyOf") or [])] or [])
        out.options = [(token(m), (names[i] if i < len(names) and names[i] else
                                   ("—" if m is None else str(m)))) for i, m in enumerate(members)]
    # A field never answered starts at the schema's default: an offer's "in the acta" box is
    # ticked as the form says, not left for the secretary to find unticked in every new row.
    out.value = _display(kind, schema["default"] if value is MISSING and "default" in schema else value)
    out.attrs = {k: schema[k] for k in ("minimum", "maximum", "maxLength") if k in schema}
    return out


# -- reading the post back ---------------------------------------------------------------------

def parse(schema: dict, ui: dict | None, form: MultiDict) -> dict:
    root = schema or {}
    try:
        value = _read(resolve(root, root), ui or {}, form, root, "", required=True)
    except RecursionError:  # a legacy recursive form: the engine's validation says why, per field
        return {}
    return value if isinstance(value, dict) else {}


def _answered(value) -> bool:
    if isinstance(value, dict):
        return any(_answered(v) for v in value.values())
    return value not in (None, False, "", []) and value is not MISSING


def _empty(schema: dict, required: bool):
    nullable = "null" in _types(schema) or None in (enum_of(schema) or [])
    return None if (nullable and required) else MISSING


def _row_indices(form: MultiDict, path: str) -> list[int]:
    pattern = re.compile(re.escape(_join(path, "")) + r"(\d+)\." + ROW_MARKER + "$")
    return sorted({int(m.group(1)) for k in form if (m := pattern.match(k))})


def _number(raw: str, integer: bool):
    try:
        number = Decimal(raw.replace(",", ""))
    except InvalidOperation:
        return raw
    if not number.is_finite():
        return raw
    if integer:
        return int(number) if number == number.to_integral_value() else raw
    return number


def _read(schema, ui, form: MultiDict, root, path, required):
    kind = kind_of(schema, ui, root)
    if kind == "object":
        props, needed = _properties(schema, root), set(schema.get("required") or [])
        out = {}
        for name in props:
            got = _read(resolve(props[name], root), ui.get(name) or {}, form, root, _join(path, name),
                        name in needed)
            if got is not MISSING:
                out[name] = got
        if path and "null" in _types(schema) and not _answered(out):
            # An optional section left blank (a single source not claimed, no complaint) is
            # null, not an object of unticked boxes the rules would read as a claim.
            return None
        return out if (out or required or not path) else MISSING
    if kind == "array":
        items, item_ui = resolve(schema.get("items", {}), root), ui.get("items") or {}
        indices = _row_indices(form, path)
        if len(indices) > max_rows():  # refused before the page that would show them all is drawn
            raise RequestEntityTooLarge(f"{path}: {len(indices)} rows, at most {max_rows()} (demasiadas filas)")
        rows = [_read(items, item_ui, form, root, _join(path, i), True) for i in indices]
        rows = [r for r in rows if r is not MISSING]
        return rows if (rows or required) else MISSING
    if kind == "checkboxes":
        members = enum_of(resolve(schema.get("items", {}), root)) or []
        by_token = {token(m): m for m in members}
        chosen = [by_token.get(t, t) for t in form.getlist(path)]
        return chosen if (chosen or required) else MISSING
    if kind == "checkbox":
        return path in form
    if kind == "const":
        return schema["const"]
    raw = form.get(path)
    if raw is None or raw.strip() == "":
        return _empty(schema, required)
    raw = raw.strip()
    if kind == "hidden":
        try:
            return json.loads(raw)
        except ValueError:
            return raw
    if kind == "bool_radio":
        return {"true": True, "false": False}.get(raw, raw)
    if kind in ("select", "radio"):
        return {token(m): m for m in enum_of(schema) or []}.get(raw, raw)
    if kind == "money":
        # "$1,200.50" is how people write it; anything else goes to the engine exactly as typed.
        cleaned = raw.replace("$", "").replace(",", "").replace(" ", "")
        return cleaned if re.fullmatch(r"-?\d+(\.\d+)?", cleaned) else raw
    if kind in ("number", "integer"):
        return _number(raw, kind == "integer")
    if kind == "datetime" and re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}", raw):
        return f"{raw}:00{PR_OFFSET}"
    if kind == "textarea":
        return raw.replace("\r\n", "\n")
    return raw


# -- list rows without JavaScript ---------------------------------------------------------------

def without_row(form: MultiDict, row_path: str) -> MultiDict:
    """The post minus one list row (the no-JavaScript "remove row" button)."""
    prefix = row_path + "."
    return MultiDict([(k, v) for k, v in form.items(multi=True) if not (k == row_path or k.startswith(prefix))])


def with_new_row(schema: dict, data: dict, array_path: str) -> dict:
    """`data` with one blank row appended to the list at `array_path` (the no-JavaScript "add row")."""
    root = schema or {}
    node, target = resolve(root, root), data
    parts = array_path.split(".")
    for i, part in enumerate(parts):
        if isinstance(target, list):
            index = int(part)
            if index >= len(target):
                return data
            node, target = resolve(node.get("items", {}), root), target[index]
            continue
        node = resolve(_properties(node, root).get(part, {}), root)
        if i == len(parts) - 1:
            rows = target.setdefault(part, []) if isinstance(target, dict) else None
            if isinstance(rows, list):
                items = resolve(node.get("items", {}), root)
                rows.append({} if kind_of(items, {}, root) == "object" else "")
            return data
        target = target.setdefault(part, {}) if isinstance(target, dict) else {}
    return data


def unplaced_errors(tree: Field, errors: dict) -> dict:
    """Errors whose path names no drawn field: shown above the form so none goes unseen."""
    placed = set()

    def walk(f: Field):
        placed.add(f.path or "_schema")
        for child in f.children:
            walk(child)
    walk(tree)
    return {k: v for k, v in errors.items() if k not in placed}


def fields_with_errors(tree: Field) -> list[Field]:
    """The drawn fields that carry errors, in form order: the links of the error summary."""
    found = [tree] if tree.errors and tree.path else []
    for child in tree.children:
        found.extend(fields_with_errors(child))
    return found
