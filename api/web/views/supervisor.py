"""Supervisor pages: the dashboard, the case list, a case with its diagram, and the case actions."""
from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from engine.commands import tasks as task_commands
from engine.commands.cases import cancel_case, retry_case
from engine.kernel import access
from engine.queries import case_files, dashboard, cases as queries

from api.headers import uploaded_text
from api.web import case_context, diagram_words, labels, report_context, task_answers
from api.web.blueprint import bp
from api.web.i18n import selected_language
from api.web.session import allowed, engine, login_required, web_actor
from api.web.views.common import (
    PER_PAGE, page_number, pages, process_names, read, read_listing, role_labels, run,
)

STATUSES = ("active", "completed", "cancelled", "error")
CASE_FILTERS = ("process", "status", "outcome", "stage", "office", "q")


@bp.route("/dashboard", endpoint="dashboard")
@allowed(access.sees_all_cases)
def dashboard_page():
    now = engine().now()
    bucket = "day" if request.args.get("period") == "day" else "month"
    data = read_listing(dashboard.overview, web_actor(), now, bucket)
    stages: dict[str, list] = {}
    for row in data["stages"]:
        stages.setdefault(row["process_key"], []).append(row)
    return render_template("web/dashboard.html", data=data, stages=stages, now=now, bucket=bucket,
                           processes=process_names(), roles=role_labels(), **report_context.dashboard_report())


def case_filters() -> dict:
    """The case list's filters as the page's query string gives them (the CSV download shares them)."""
    filters = {k: (request.args.get(k) or "").strip() or None for k in CASE_FILTERS}
    filters["overdue"] = True if request.args.get("overdue") == "1" else None
    return filters


@bp.route("/cases")
@allowed(access.lists_cases)
def cases():
    # Staff of any lane get the cases they may see (access.may_see_case), supervisors every case.
    now, page = engine().now(), page_number()
    filters = case_filters()
    overdue = bool(filters.pop("overdue"))
    actor = web_actor()
    items, total, choices = read_listing(queries.case_list_page, actor, now, page=page, per_page=PER_PAGE,
                                         overdue=overdue or None, **filters)
    if actor.office and not access.sees_all_cases(actor):
        choices["offices"] = [actor.office]  # other offices' cases are not theirs to list
    return render_template("web/cases.html", items=items, total=total, page=page, pages=pages(total),
                           filters=filters, overdue=overdue, statuses=STATUSES, processes=process_names(),
                           choices=choices)


@bp.route("/cases/<int:instance_id>")
@login_required
def case(instance_id):
    data = read(case_files.case_file, engine().versions, web_actor(), instance_id, selected_language())
    definition = data["definition"]
    names = labels.element_names(definition)
    catalogue = labels.catalogue(definition)
    variables = data["case"]["variables"]
    answered = task_answers.shown(definition.files, data["answers"])
    return render_template("web/case.html", **data, names=names, now=engine().now(), answered=answered,
                           answered_by_task=task_answers.by_task(answered),
                           facts=case_context.key_facts(task_answers.without_answers(variables, data["answers"]),
                                                        catalogue),
                           documents=case_context.documents(variables, catalogue),
                           tables=case_context.record_lists(variables, catalogue),
                           roles=role_labels(), process_name=definition.name)


@bp.route("/cases/<int:instance_id>/diagram.xml")
@login_required
def case_diagram(instance_id):
    # The page's copy of the diagram names lanes and data objects in words (api/web/diagram_words).
    definition = read(case_files.case_definition, engine().versions, web_actor(), instance_id)
    xml = definition.files[definition.summary["process"]["file"]]
    return uploaded_text(diagram_words.relabelled(xml, definition.key, role_labels()))


def _after_action(instance_id, refusal, done_message):
    if refusal:
        flash(refusal.message + (f" ({refusal.rule})" if refusal.rule else ""), "error")
    else:
        flash(done_message, "success")
    return redirect(url_for("web.case", instance_id=instance_id))


@bp.route("/cases/<int:instance_id>/cancel", methods=["POST"])
@allowed(access.sees_all_cases)
def cancel(instance_id):
    reason = request.form.get("reason", "").strip()
    if not reason:
        flash(_("Escriba la razón de la cancelación."), "error")
        return redirect(url_for("web.case", instance_id=instance_id))
    _result, refusal = run(cancel_case, instance_id, reason)
    return _after_action(instance_id, refusal, _("Caso cancelado."))


@bp.route("/cases/<int:instance_id>/retry", methods=["POST"])
@allowed(access.sees_all_cases)
def retry(instance_id):
    result, refusal = run(retry_case, instance_id)
    message = _("Se reintentó el paso que falló; el caso está ahora: %(status)s.",
                status=labels.status(result["status"]) if result else "")
    return _after_action(instance_id, refusal, message)


@bp.route("/tasks/<int:task_id>/assign", methods=["POST"])
@allowed(access.sees_all_cases)
def assign(task_id):
    username = request.form.get("username", "").strip()
    instance_id = request.form.get("instance_id", type=int)
    task, refusal = run(task_commands.assign, task_id, username)
    message = _("Tarea «%(name)s» asignada a %(user)s.", name=task["name"], user=username) if task else ""
    if instance_id:
        return _after_action(instance_id, refusal, message)
    flash(refusal.message if refusal else message, "error" if refusal else "success")
    return redirect(url_for("web.dashboard"))
