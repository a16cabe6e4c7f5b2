"""The case as a person deciding a task needs it: key facts, documents, previous decisions.

Labels come from the procedure's own forms (every schema and its UI file in the version),
so a variable reads "Nombre completo", not `applicant.name`, and an enum shows its Spanish name.
"""
from __future__ import annotations

import json
import re

from flask_babel import lazy_gettext as _l

from engine.definitions import form_files

from api.web import formkit, i18n
from api.web.filters import money

HIDDEN_PREFIXES = ("_",)
DECISION_EVENTS = ("decision", "task_completed", "task_refused", "message_received", "message_refused",
                   "timer_fired", "case_cancelled")
MAX_FACTS = 30
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
# Variables every case has, set by the engine or by convention in the diagrams.
ENGINE_VARIABLES = {"case_number": _l("Número de caso"), "stage": _l("Etapa"), "outcome": _l("Resultado")}


def form_catalogue(files: dict[str, str]) -> dict[str, formkit.Field]:
    """{generic path: field} over all forms of a version; list rows appear as `items.*.name`.

    The start form is read first, and a field with a title of its own wins over one that only has
    its property name (a message payload repeating `gross_annual_income` without a label).
    """
    out: dict[str, formkit.Field] = {}
    names = sorted((n for n in files if form_files.is_schema_file(n)),
                   key=lambda n: (form_files.form_owner(n)[0] != form_files.START_KIND, n))
    for name in names:
        try:
            schema = json.loads(files[name])
            ui_name = form_files.ui_beside(name)
            ui = json.loads(files[ui_name]) if ui_name in files else {}
        except ValueError:
            continue
        _walk(formkit.build(schema, ui), out)
    return out


def form_fields(schema: dict, ui: dict) -> dict[str, formkit.Field]:
    """{generic path: field} of one form: its answers read with its own labels."""
    out: dict[str, formkit.Field] = {}
    _walk(formkit.build(schema or {}, ui or {}), out)
    return out


def _walk(field: formkit.Field, out: dict) -> None:
    if field.path:
        generic = re.sub(r"__I\d+__", "*", field.path)
        known = out.get(generic)
        if known is None or (not _titled(known) and _titled(field)):
            out[generic] = field
    for child in field.children:
        _walk(child, out)
    if field.template is not None:
        _walk(field.template, out)


def _titled(field: formkit.Field) -> bool:
    return field.label != formkit._humanize(field.path.rsplit(".", 1)[-1])


def _generic(path: str) -> str:
    return re.sub(r"\.\d+(?=\.|$)", ".*", path)


def _find(catalogue: dict, path: str):
    """The field of a path; a key of a map (`offers_status.RL-3001-1`) finds its `offers_status.*`."""
    generic = _generic(path)
    found = catalogue.get(generic)
    if found is None and "." in generic:
        found = catalogue.get(generic.rsplit(".", 1)[0] + ".*")
    return found


def label_of(catalogue: dict, path: str) -> str:
    if _generic(path) not in catalogue and _find(catalogue, path) is not None:
        return path.rsplit(".", 1)[-1]  # a key of a map is data (an offer's id), its own label
    found = _find(catalogue, path)
    if found is not None:
        return found.label
    return str(ENGINE_VARIABLES.get(path) or formkit._humanize(path.rsplit(".", 1)[-1]))


def value_of(catalogue: dict, path: str, value):
    """The value as the form would name it: an enum's label, money as money; else as it is."""
    found = _find(catalogue, path)
    if isinstance(value, str) and ISO_DATE.fullmatch(value):
        return i18n.day(value)
    if found is None:
        return value
    if found.options:
        names = dict(found.options)
        if isinstance(value, list):
            return [names.get(formkit.token(v), v) for v in value]
        return names.get(formkit.token(value), value) if value is not None else value
    if found.kind == "money" and value not in (None, ""):
        return money(value)
    return value


def _internal(catalogue: dict, path: str) -> bool:
    # The procedure's label data marks the variables the engine keeps for itself (api/web/labels.py).
    found = _find(catalogue, path)
    return found is not None and found.kind == "internal"


def key_facts(variables: dict, catalogue: dict) -> list[dict]:
    facts = []
    for key, value in (variables or {}).items():
        if key.startswith(HIDDEN_PREFIXES) or _internal(catalogue, key) or (isinstance(value, list) and value and isinstance(value[0], dict)):
            continue
        if isinstance(value, dict):
            for sub, inner in value.items():
                if not isinstance(inner, (dict, list)) and not _internal(catalogue, f"{key}.{sub}"):
                    path = f"{key}.{sub}"
                    facts.append({"path": path, "label": f"{label_of(catalogue, key)}: {label_of(catalogue, path)}",
                                  "value": value_of(catalogue, path, inner), "known": _generic(path) in catalogue})
            continue
        facts.append({"path": key, "label": label_of(catalogue, key), "value": value_of(catalogue, key, value),
                      "known": key in catalogue})
    # What the forms name first (the facts the procedure asked for), then the engine's own.
    facts.sort(key=lambda f: not f["known"])
    return facts[:MAX_FACTS]


def _flat(row: dict) -> dict:
    """A row whose cells hold records (a request's requester) as one column per field of theirs."""
    out = {}
    for name, cell in row.items():
        if isinstance(cell, dict):
            out.update({f"{name}.{sub}": inner for sub, inner in cell.items()})
        else:
            out[name] = cell
    return out


def _table(key: str, rows: list[dict], catalogue: dict) -> dict:
    rows = [_flat(row) for row in rows]
    columns: list[str] = []
    for row in rows:
        columns.extend(k for k in row if k not in columns)
    return {"label": label_of(catalogue, key), "headers": [label_of(catalogue, f"{key}.0.{c}") for c in columns],
            "rows": [[value_of(catalogue, f"{key}.0.{c}", row.get(c)) for c in columns] for row in rows]}


def _keyed(key: str, value, catalogue: dict) -> list[dict] | None:
    """A map of records keyed by an id (the surplus receipts by lot) as rows whose first column is
    the key, when the label data names that key (`receipts.*`); else None (not a table)."""
    named = catalogue.get(f"{key}.*")
    if named is None or named.kind == "internal" or not isinstance(value, dict) or not value \
            or not all(isinstance(r, dict) for r in value.values()):
        return None
    return [{"*": k, **r} for k, r in value.items()]


def record_lists(variables: dict, catalogue: dict) -> list[dict]:
    """Every list of records in the case (offers, quotes, items...) as a table, and every map of
    records the label data names by its key (receipts by lot); documents apart."""
    out = []
    for key, value in (variables or {}).items():
        if key == "documents" or key.startswith(HIDDEN_PREFIXES) or _internal(catalogue, key):
            continue
        if isinstance(value, list) and value and all(isinstance(r, dict) for r in value):
            out.append(_table(key, list(value), catalogue))
        elif (rows := _keyed(key, value, catalogue)) is not None:
            table = _table(key, rows, catalogue)
            table["headers"][0] = catalogue[f"{key}.*"].label  # the key's own label, not a map key's
            out.append(table)
    return out


def documents(variables: dict, catalogue: dict) -> dict | None:
    """The documents list of the case and, if the case asked for some, which of those arrived."""
    rows = (variables or {}).get("documents")
    required = (variables or {}).get("required_documents")
    if not isinstance(rows, list) and not isinstance(required, list):
        return None
    rows = [r for r in rows or [] if isinstance(r, dict)]
    received = {row.get("type") for row in rows}
    checklist = [{"label": value_of(catalogue, "required_documents", doc), "received": doc in received}
                 for doc in (required or []) if isinstance(required, list)]
    return {**_table("documents", rows, catalogue), "checklist": checklist}


def decisions(history: list[dict], element_names: dict[str, str], limit: int = 20) -> list[dict]:
    """The steps that decided something so far, newest first, with their rule ids and inputs."""
    chosen = [e for e in history if e["type"] in DECISION_EVENTS]
    out = []
    for event in reversed(chosen[-limit:]):
        data = event.get("data") or {}
        out.append({**event, "element_name": element_names.get(event.get("element_id") or "", event.get("element_id")),
                    "outcome": data.get("outcome"), "inputs": data.get("inputs"),
                    "code": data.get("code"), "rule_name": data.get("rule")})
    return out
