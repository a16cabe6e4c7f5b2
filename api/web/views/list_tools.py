"""What the case list and the inbox share: "Descargar CSV" of the current filter, and saved filters.

The web download has Spanish headers and a byte-order mark so Excel reads it as UTF-8 (api/csv_lists.py).
Built-in filters are links every user gets; a person's own are rows of `saved_filter`.
"""
from __future__ import annotations

from urllib.parse import urlencode

from flask import flash, redirect, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from engine.commands import saved_filters as commands
from engine.kernel import access
from engine.queries import cases as queries, saved_filters as saved

from api import csv_lists
from api.web import labels
from api.web.blueprint import bp
from api.web.session import allowed, engine, login_required, web_actor
from api.web.views.common import process_names, read, role_labels, run
from api.web.views.supervisor import case_filters

LIST_ENDPOINTS = {"cases": "web.cases", "tasks": "web.inbox"}


def builtin_filters(actor, list_name: str) -> list[dict]:
    """The filters every user has, as (label, query string) of the list's own page."""
    if list_name == "tasks":
        return [{"name": _l("Mis tareas vencidas"), "query": "overdue=1"}]
    office = {"office": actor.office} if actor.office and access.sees_all_cases(actor) else {}
    # A clerk's list is already their office's (access.may_see_case); a supervisor names the office.
    mine = _l("Casos vencidos de mi oficina") if actor.office else _l("Casos vencidos")
    return [{"name": mine, "query": urlencode({"overdue": "1", **office})},
            {"name": _l("Casos activos"), "query": "status=active"},
            {"name": _l("Casos en error"), "query": "status=error"}]


def filter_links(list_name: str) -> dict:
    """What the shared partial `_search_list_tools.html` shows for a list."""
    actor = web_actor()
    query = urlencode([(k, v) for k, v in request.args.items(multi=True) if v and k not in commands.PAGING])
    endpoint = LIST_ENDPOINTS[list_name]
    return {"list": list_name, "query": query, "page": url_for(endpoint),
            "csv": url_for(f"web.{list_name}_csv") + (f"?{query}" if query else ""),
            "builtin": builtin_filters(actor, list_name),
            "saved": read(saved.saved_filters, actor, list_name)}


@bp.app_context_processor
def _list_tools():
    return {"list_tools": filter_links}


@bp.route("/cases.csv", endpoint="cases_csv")
@allowed(access.lists_cases)
def cases_csv():
    filters = case_filters()
    names = process_names()
    header = [_("Caso"), _("Procedimiento"), _("Versión"), _("Estado"), _("Etapa"), _("Resultado"),
              _("Solicitante o asunto"), _("Identificación"), _("Municipio"), _("Referencia"), _("Oficina"),
              _("Iniciado"), _("Terminado"), _("Iniciado por")]
    rows = ([c["case_number"], names.get(c["process_key"], c["process_key"]), c["version"], labels.status(c["status"]),
             c["stage"], c["outcome"], c["applicant_name"], c["applicant_id"], c["municipality"], c["reference"],
             c["office"], c["started_at"], c["ended_at"], c["started_by"]]
            for c in csv_lists.case_rows(engine().read, web_actor(), engine().now, filters))
    return csv_lists.response("casos.csv", header, rows, bom=True)


@bp.route("/tasks.csv", endpoint="tasks_csv")
@login_required
def tasks_csv():
    """The inbox's two lists (mine and available) under its filters, in the order the tasks were made."""
    instance = read(queries.inbox_instance, (request.args.get("case") or "").strip())
    filters = {"process": request.args.get("process") or None, "instance": instance,
               "overdue": True if request.args.get("overdue") == "1" else None}
    names, roles = process_names(), role_labels()
    header = [_("Caso"), _("Tarea"), _("Procedimiento"), _("Rol"), _("Asignada a"), _("Creada"), _("Vence"),
              _("En suplencia de")]
    rows = ([t["case_number"], t["name"], names.get(t["process_key"], t["process_key"]),
             roles.get(t["lane"], t["lane"]), t["assignee"], t["created_at"], t["due_at"], t.get("on_behalf_of")]
            for t in csv_lists.task_rows(engine().read, web_actor(), engine().now, filters))
    return csv_lists.response("tareas.csv", header, rows, bom=True)


def _back_to(list_name: str, query: str = ""):
    target = url_for(LIST_ENDPOINTS.get(list_name, "web.home"))
    return redirect(f"{target}?{query}" if query else target)


@bp.route("/saved-filters", methods=["POST"], endpoint="save_filter")
@login_required
def save_filter():
    list_name, query = request.form.get("list", ""), request.form.get("query", "")
    result, refusal = run(commands.save_filter, list_name, request.form.get("name", ""), query)
    if refusal:
        flash(_("Escriba un nombre para el filtro (hasta 100 caracteres)."), "error")
        return _back_to(list_name, commands.clean_query(query))
    flash(_("Filtro «%(name)s» guardado.", name=result["name"]), "success")
    return _back_to(list_name, result["query"])


@bp.route("/saved-filters/<int:filter_id>/delete", methods=["POST"], endpoint="delete_filter")
@login_required
def delete_filter(filter_id):
    _result, refusal = run(commands.delete_filter, filter_id)
    flash(refusal.message if refusal else _("Filtro borrado."), "error" if refusal else "success")
    return _back_to(request.form.get("list", ""))
