"""Each completed task's answers as a person reads them: the task, who answered, when, and each
answer labelled by that task's own form (the board's "admit" is "Admitir al Registro", the
evaluator's "Admitir"), so two tasks asking for the same field never read as one."""
from __future__ import annotations

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
                 "value": case_context.value_of(catalogue, n, data[n])} for n in names]
        out.append({**answer, "rows": rows})
    return out


def by_task(shown_answers: list[dict]) -> dict[int, dict]:
    return {a["task_id"]: a for a in shown_answers}


def without_answers(variables: dict, answers: list[dict]) -> dict:
    """The case's variables less those whose value is some task's answer: those are shown with
    the task and the person that gave them, never as an unattributed fact of the case."""
    givers = last_givers(answers)
    return {k: v for k, v in (variables or {}).items()
            if k not in givers or givers[k]["data"].get(k) != v}
