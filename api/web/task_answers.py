"""Each completed task's answers as a person reads them: the task, who answered, when, and each
answer labelled by that task's own form (the board's "admit" is "Admitir al Registro", the
evaluator's "Admitir"), so two tasks asking for the same field never read as one."""
from __future__ import annotations

from flask_babel import gettext as _

from engine.definitions import form_files
from engine.queries.answers import last_givers

from api.web import case_context, formkit


def shown(files: dict[str, str], answers: list[dict]) -> list[dict]:
    """[{task_id, element_id, name, lane, by, at, rows: [{path, label, value}]}], oldest first."""
    out = []
    forms: dict[str, tuple] = {}
    for answer in answers:
        element = answer["element_id"]
        if element not in forms:
            form = form_files.task_form(files, element)
            tree = formkit.build(form.schema or {}, form.ui or {})
            forms[element] = ([c.path for c in tree.children], case_context.form_fields(form.schema, form.ui))
        order, catalogue = forms[element]
        data = answer["data"]
        names = [n for n in order if n in data] + [n for n in data if n not in order]
        rows = [{"path": n, "label": case_context.label_of(catalogue, n),
                 "value": _readable(catalogue, n, data[n])} for n in names]
        out.append({**answer, "rows": rows})
    return out


def _cell(value, catalogue=None, path="") -> str:
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return "(" + _readable(catalogue or {}, path, value).replace("\n", " · ") + ")"
    return _("Sí") if value is True else _("No") if value is False else str(value)


def _record(catalogue: dict, path: str, row: dict) -> str:
    return "; ".join(f"{case_context.label_of(catalogue, f'{path}.{k}')}: "
                     f"{_cell(case_context.value_of(catalogue, f'{path}.{k}', v), catalogue, f'{path}.{k}')}"
                     for k, v in row.items() if v not in (None, "", [], {}))


def _readable(catalogue: dict, path: str, value):
    """A list of records (an acta's offers) as the form names its columns, one record per line,
    and one record (a complaint) as its labelled fields, never as JSON; anything else as the form
    names it."""
    if isinstance(value, dict) and value and not any(isinstance(v, (dict, list)) for v in value.values()):
        return _record(catalogue, path, value)
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return "\n".join(_record(catalogue, f"{path}.{i}", row) for i, row in enumerate(value))
    return case_context.value_of(catalogue, path, value)


def by_task(shown_answers: list[dict]) -> dict[int, dict]:
    return {a["task_id"]: a for a in shown_answers}


def without_answers(variables: dict, answers: list[dict]) -> dict:
    """The case's variables less those whose value is some task's answer: those are shown with
    the task and the person that gave them, never as an unattributed fact of the case."""
    givers = last_givers(answers)
    return {k: v for k, v in (variables or {}).items()
            if k not in givers or givers[k]["data"].get(k) != v}
