"""Supervisor pages: the dashboard, the case list, a case with its diagram, and the case actions."""
from __future__ import annotations

from flask import Response, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from engine.queries import dashboard, cases as queries, shapes as views
from engine.commands import tasks as task_commands
from engine.commands.cases import cancel_case, retry_case
from engine.definitions import repository
from engine.registries import notifications as outbox

from api.web import case_context, labels
from api.web.blueprint import bp
from api.web.session import allowed, engine, login_required, sees_everything, web_actor
from api.web.views.common import PER_PAGE, page_number, pages, process_names, read, role_labels, run
from api.web.views.messages import waiting_messages

STATUSES = ("active", "completed", "cancelled", "error")
CASE_FILTERS = ("process", "status", "outcome", "stage", "office", "q")


def _dashboard_data(session, now, bucket):
    return {"stages": dashboard.stage_counts(session), "statuses": dashboard.status_counts(session),
            "outcomes": dashboard.outcomes_over_time(session, now, bucket),
            "deadlines": dashboard.upcoming_deadlines(session, now, days=7),
            "work": dashboard.waiting_work(session, now), "errors": dashboard.cases_in_error(session)}


@bp.route("/dashboard", endpoint="dashboard")
@allowed(sees_everything)
def dashboard_page():
    now = engine().now()
    bucket = "day" if request.args.get("period") == "day" else "month"
    data = read(_dashboard_data, now, bucket)
    stages: dict[str, list] = {}
    for row in data["stages"]:
        stages.setdefault(row["process_key"], []).append(row)
    return render_template("web/dashboard.html", data=data, stages=stages, now=now, bucket=bucket,
                           processes=process_names(), roles=role_labels())


@bp.route("/cases")
@allowed(sees_everything)
def cases():
    now, page = engine().now(), page_number()
    filters = {k: (request.args.get(k) or "").strip() or None for k in CASE_FILTERS}
    overdue = request.args.get("overdue") == "1"
    items, total = read(queries.list_instances, web_actor(), now, page=page, per_page=PER_PAGE,
                        overdue=overdue or None, **filters)
    return render_template("web/cases.html", items=items, total=total, page=page, pages=pages(total),
                           filters=filters, overdue=overdue, statuses=STATUSES, processes=process_names(),
                           choices=read(dashboard.filter_values))


def _case_page(session, actor, instance_id):
    record = queries.get_instance(session, actor, instance_id)
    case = views.case(session, record)
    definition = repository.info(engine().versions, session, record.definition_id)
    assignable = {}
    if sees_everything({"roles": sorted(actor.roles)}):
        assignable = {t["lane"]: dashboard.users_holding(session, t["lane"]) for t in case["open_tasks"]}
    return {"case": case, "history": views.history(session, instance_id),
            "activity": views.activity(session, record), "definition": definition,
            "messages": waiting_messages(record, definition),
            "parent_id": record.parent_instance_id, "assignable": assignable,
            "notifications": outbox.of_case(session.connection(), instance_id)}


@bp.route("/cases/<int:instance_id>")
@login_required
def case(instance_id):
    data = read(_case_page, web_actor(), instance_id)
    definition = data["definition"]
    names = {e["id"]: e["name"] for e in definition.summary.get("elements", [])}
    catalogue = case_context.form_catalogue(definition.files)
    variables = data["case"]["variables"]
    return render_template("web/case.html", **data, names=names, now=engine().now(),
                           facts=case_context.key_facts(variables, catalogue),
                           documents=case_context.documents(variables, catalogue),
                           tables=case_context.record_lists(variables, catalogue),
                           roles=role_labels(), process_name=definition.name)


@bp.route("/cases/<int:instance_id>/diagram.xml")
@login_required
def case_diagram(instance_id):
    def bpmn(session):
        record = queries.get_instance(session, web_actor(), instance_id)
        definition = repository.info(engine().versions, session, record.definition_id)
        return definition.files[definition.summary["process"]["file"]]
    return Response(read(bpmn), mimetype="application/xml")


def _after_action(instance_id, refusal, done_message):
    if refusal:
        flash(refusal.message + (f" ({refusal.rule})" if refusal.rule else ""), "error")
    else:
        flash(done_message, "success")
    return redirect(url_for("web.case", instance_id=instance_id))


@bp.route("/cases/<int:instance_id>/cancel", methods=["POST"])
@allowed(sees_everything)
def cancel(instance_id):
    reason = request.form.get("reason", "").strip()
    if not reason:
        flash(_("Escriba la razón de la cancelación."), "error")
        return redirect(url_for("web.case", instance_id=instance_id))
    _result, refusal = run(cancel_case, instance_id, reason)
    return _after_action(instance_id, refusal, _("Caso cancelado."))


@bp.route("/cases/<int:instance_id>/retry", methods=["POST"])
@allowed(sees_everything)
def retry(instance_id):
    result, refusal = run(retry_case, instance_id)
    message = _("Se reintentó el paso que falló; el caso está ahora: %(status)s.",
                status=labels.status(result["status"]) if result else "")
    return _after_action(instance_id, refusal, message)


@bp.route("/tasks/<int:task_id>/assign", methods=["POST"])
@allowed(sees_everything)
def assign(task_id):
    username = request.form.get("username", "").strip()
    instance_id = request.form.get("instance_id", type=int)
    task, refusal = run(task_commands.assign, task_id, username)
    message = _("Tarea «%(name)s» asignada a %(user)s.", name=task["name"], user=username) if task else ""
    if instance_id:
        return _after_action(instance_id, refusal, message)
    flash(refusal.message if refusal else message, "error" if refusal else "success")
    return redirect(url_for("web.dashboard"))
