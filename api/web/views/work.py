"""The supervisor's task list: every open task, several at once assigned, reassigned or released,
each through the single command (engine/commands/work.py) and its own result shown on its row."""
from __future__ import annotations

from flask import render_template, request
from flask_babel import gettext as _

from engine.commands import work as work_commands
from engine.errors import EngineError
from engine.kernel import access
from engine.queries import cases as queries

from api.web.blueprint import bp
from api.web.session import allowed, engine, web_actor
from api.web.views.common import PER_PAGE, page_number, pages, process_names, read, read_listing, role_labels

MAX_SELECTED = 500  # the API's bound for one bulk request


def _page(results=None, message=None, status=200):
    now, page = engine().now(), page_number()
    process = (request.values.get("process") or "").strip() or None
    # After a bulk action the page shows its outcome: read from the primary, not a replica behind it.
    items, total = (read if results else read_listing)(queries.list_tasks, web_actor(), now, scope="all",
                                                       process=process, page=page, per_page=PER_PAGE)
    return render_template("web/work.html", items=items, total=total, page=page, pages=pages(total), now=now,
                           process=process, processes=process_names(), roles=role_labels(),
                           results=results or {}, message=message, username=request.form.get("username", "")), status


@bp.route("/work", endpoint="work")
@allowed(access.sees_all_cases)
def work_page():
    return _page()


def _selected() -> list[int]:
    ids = []
    for value in request.form.getlist("task_ids")[:MAX_SELECTED]:
        if value.isdigit() and len(value) < 19:
            ids.append(int(value))
    return ids


@bp.route("/work/bulk", methods=["POST"], endpoint="work_bulk")
@allowed(access.sees_all_cases)
def work_bulk():
    ids, action = _selected(), request.form.get("action")
    username = request.form.get("username", "").strip()
    if not ids:
        return _page(message=("error", _("Marque al menos una tarea.")), status=422)
    if action == "assign" and not username:
        return _page(message=("error", _("Escriba a quién asignar las tareas.")), status=422)
    try:
        if action == "assign":
            outcome = work_commands.bulk_assign(engine(), web_actor(), ids, username)
            done = outcome["assigned"]
        elif action == "release":
            outcome = work_commands.bulk_release(engine(), web_actor(), ids)
            done = outcome["released"]
        else:
            return _page(message=("error", _("Elija una acción.")), status=422)
    except EngineError as exc:
        return _page(message=("error", exc.message), status=403)
    results = {task_id: ("ok", _("Asignada a %(user)s", user=username) if action == "assign" else _("Liberada"))
               for task_id in done}
    results.update({r["id"]: ("error", _refusal_text(r["code"])) for r in outcome["refused"]})
    message = _("%(done)s hechas, %(refused)s rechazadas.", done=len(done), refused=len(outcome["refused"]))
    return _page(results, ("success" if not outcome["refused"] else "warning", message))


def _refusal_text(code: str) -> str:
    texts = {
        "LANE_NOT_HELD": _("La persona no tiene el rol de esta tarea"),
        "TASK_NOT_OPEN": _("La tarea ya no está abierta"),
        "TASK_NOT_FOUND": _("La tarea no existe"),
        "TASK_CLAIMED_BY_OTHER": _("La tiene otra persona"),
        "FORBIDDEN": _("No le está permitido"),
    }
    return texts.get(code, code)
