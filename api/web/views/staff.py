"""Staff pages: the inbox, claiming and releasing, a task with its case beside its form, starting a case."""
from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from sqlalchemy import select

from engine.queries import dashboard, cases as queries, shapes as views
from engine.definitions import form_files
from engine.commands import tasks as task_commands
from engine.commands.cases import start_case
from engine.kernel.access import may_start
from engine.definitions import repository
from engine.queries.shapes import INSTANCE

from api.web import case_context, formkit
from api.web.blueprint import bp
from api.web.session import engine, login_required, safe_next, web_actor
from api.web.views.common import (
    PER_PAGE, Refusal, form_post, page_number, pages, process_names, read, role_labels, run,
)


@bp.route("/tasks")
@login_required
def inbox():
    actor, now = web_actor(), engine().now()
    process = request.args.get("process") or None
    case_number = request.args.get("case", "").strip()
    instance = None
    if case_number:
        instance = read(dashboard.case_id_of, case_number) or -1
    lists = {}
    for scope in ("mine", "available"):
        page = page_number(f"{scope}_page")
        items, total = read(queries.list_tasks, actor, now, scope=scope, process=process, instance=instance,
                            page=page, per_page=PER_PAGE)
        lists[scope] = {"rows": items, "total": total, "page": page, "pages": pages(total)}
    return render_template("web/inbox.html", lists=lists, now=now, process=process, case_number=case_number,
                           processes=process_names(), roles=role_labels())


def _back(default_endpoint: str, **values):
    return redirect(safe_next(request.form.get("next")) or url_for(default_endpoint, **values))


@bp.route("/tasks/<int:task_id>/claim", methods=["POST"])
@login_required
def claim(task_id):
    task, refusal = run(task_commands.claim, task_id)
    if refusal:
        flash(refusal.message, "error")
    else:
        flash(_("Reclamó la tarea «%(name)s» del caso %(case)s.", name=task["name"], case=task["case_number"]),
              "success")
    return _back("web.task", task_id=task_id)


@bp.route("/tasks/<int:task_id>/release", methods=["POST"])
@login_required
def release(task_id):
    task, refusal = run(task_commands.unclaim, task_id)
    if refusal:
        flash(refusal.message, "error")
    else:
        flash(_("Liberó la tarea «%(name)s»; vuelve a estar disponible para su rol.", name=task["name"]), "success")
    return _back("web.inbox")


def _task_page_data(session, actor, task_id):
    task = queries.get_task(engine(), session, actor, task_id)
    definition_id = session.scalar(select(INSTANCE.c.definition_id).where(INSTANCE.c.id == task["instance_id"]))
    definition = repository.info(engine().versions, session, definition_id)
    return task, definition, views.history(session, task["instance_id"])


def _prefill(schema: dict, task: dict) -> dict:
    if task["data"]["submitted"]:
        return task["data"]["submitted"]
    names = formkit._properties(formkit.resolve(schema, schema), schema)
    return {k: v for k, v in task["data"]["case"].items() if k in names}


def _render_task(task_id, data=None, refusal: Refusal | None = None, status=200):
    actor = web_actor()
    task, definition, history = read(_task_page_data, actor, task_id)
    schema, ui = task["form"]["schema"], task["form"]["ui"]
    editable = task["state"] == "open" and actor.holds(task["lane"]) and task["assignee"] in (None, actor.username)
    errors = refusal.errors if refusal else {}
    value = data if data is not None else _prefill(schema, task)
    tree = formkit.build(schema, ui, value, errors, readonly=not editable)
    catalogue = case_context.form_catalogue(definition.files)
    names = {e["id"]: e["name"] for e in definition.summary.get("elements", [])}
    variables = task["data"]["case"]
    return render_template(
        "web/task.html", task=task, tree=tree, refusal=refusal, editable=editable, now=engine().now(),
        unplaced=formkit.unplaced_errors(tree, errors), error_fields=formkit.fields_with_errors(tree),
        facts=case_context.key_facts(variables, catalogue), documents=case_context.documents(variables, catalogue),
        tables=case_context.record_lists(variables, catalogue),
        decisions=case_context.decisions(history, names), process_name=definition.name,
        roles=role_labels()), status


@bp.route("/tasks/<int:task_id>", methods=["GET"])
@login_required
def task(task_id):
    return _render_task(task_id)


@bp.route("/tasks/<int:task_id>", methods=["POST"])
@login_required
def complete_task(task_id):
    actor = web_actor()
    task = read(lambda s: queries.get_task(engine(), s, actor, task_id))
    data, rows_changed = form_post(task["form"]["schema"], task["form"]["ui"])
    if rows_changed:
        return _render_task(task_id, data)
    result, refusal = run(task_commands.complete, task_id, data)
    if refusal:
        return _render_task(task_id, data, refusal, refusal.status)
    case = result["instance"]
    flash(_("Completó «%(name)s» del caso %(case)s.", name=task["name"], case=case["case_number"]), "success")
    following = [t for t in case["open_tasks"] if actor.holds(t["lane"]) and t["assignee"] in (None, actor.username)]
    if following:
        return redirect(url_for("web.task", task_id=following[0]["id"]))
    return redirect(url_for("web.inbox"))


# -- starting a case ---------------------------------------------------------------------------

def startable(session, actor) -> list[dict]:
    out = []
    for process in queries.list_processes(session):
        definition = repository.info(engine().versions, session, repository.version_id(session, process["key"]))
        if may_start(actor, definition.summary.get("starter_lane")):
            out.append({"key": definition.key, "name": definition.name, "version": definition.version,
                        "lane": definition.summary.get("starter_lane"),
                        "has_form": form_files.start_form(definition.files).schema is not None})
    return out


def _start_definition(session, key):
    return repository.info(engine().versions, session, repository.version_id(session, key))


@bp.route("/start")
@login_required
def start():
    return render_template("web/start_list.html", processes=read(startable, web_actor()), roles=role_labels())


@bp.route("/start/<string:key>", methods=["GET", "POST"])
@login_required
def start_form(key):
    definition = read(_start_definition, key)
    form = form_files.start_form(definition.files)
    schema, ui = form.schema or {"type": "object", "properties": {}}, form.ui or {}
    data, refusal, status = {}, None, 200
    if request.method == "POST":
        data, rows_changed = form_post(schema, ui)
        if not rows_changed:
            case, refusal = run(start_case, key, data)
            if refusal is None:
                flash(_("Inició el caso %(case)s.", case=case["case_number"]), "success")
                return redirect(url_for("web.case", instance_id=case["id"]))
            status = refusal.status
    errors = refusal.errors if refusal else {}
    tree = formkit.build(schema, ui, data, errors)
    allowed = may_start(web_actor(), definition.summary.get("starter_lane"))
    return render_template("web/start_form.html", definition=definition, tree=tree, refusal=refusal,
                           allowed=allowed, unplaced=formkit.unplaced_errors(tree, errors),
                           error_fields=formkit.fields_with_errors(tree), roles=role_labels()), status
