"""Staff pages: the inbox, claiming and releasing, a task with its case beside its form, starting a case."""
from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from engine.commands import tasks as task_commands
from engine.commands.cases import start_case
from engine.kernel import access
from engine.queries import case_files, cases as queries, processes
from engine.queries.drafts import own_draft

from api.web import case_context, formkit, instructions, labels, task_answers
from api.web.blueprint import bp
from api.web.session import engine, login_required, safe_next, web_actor
from api.web.views.common import (
    PER_PAGE, Refusal, form_post, page_number, pages, process_names, read, read_listing, role_labels, run,
)


@bp.route("/tasks")
@login_required
def inbox():
    now = engine().now()
    process = request.args.get("process") or None
    case_number = request.args.get("case", "").strip()
    overdue = request.args.get("overdue") == "1"
    lists = read_listing(queries.inbox, web_actor(), now, process=process, case_number=case_number, per_page=PER_PAGE,
                 pages={scope: page_number(f"{scope}_page") for scope in ("mine", "available")},
                 overdue=overdue or None)
    for listed in lists.values():
        listed["pages"] = pages(listed["total"])
    return render_template("web/inbox.html", lists=lists, now=now, process=process, case_number=case_number,
                           overdue=overdue, processes=process_names(), roles=role_labels())


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


def _render_task(task_id, data=None, refusal: Refusal | None = None, status=200):
    page = read(case_files.task_file, engine().versions, web_actor(), task_id, now=engine().now)
    task, definition, history, editable = page["task"], page["definition"], page["history"], page["editable"]
    schema, ui = task["form"]["schema"], task["form"]["ui"]
    errors = refusal.errors if refusal else {}
    # What this person left half-done comes back; else the engine's prefill, never another task's answer.
    draft = read(own_draft, web_actor(), task_id) if editable and data is None else None
    value = data if data is not None else (draft["data"] if draft else task["data"]["prefill"])
    tree = formkit.build(schema, ui, value, errors, readonly=not editable)
    catalogue = labels.catalogue(definition)
    names = labels.element_names(definition)
    variables = task["data"]["case"]
    earlier = task["data"]["answers"]
    return render_template(
        "web/task.html", task=task, tree=tree, refusal=refusal, editable=editable, now=engine().now(),
        unplaced=formkit.unplaced_errors(tree, errors), error_fields=formkit.fields_with_errors(tree),
        answered=task_answers.shown(definition.files, earlier), draft=draft,
        instructions=instructions.render(task.get("instructions") or "", {
            "answers": {a["element_id"]: a["data"] for a in earlier}, **variables}),
        facts=case_context.key_facts(task_answers.without_answers(variables, earlier), catalogue),
        documents=case_context.documents(variables, catalogue),
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
    task = read(queries.get_task, engine().versions, actor, task_id)
    data, rows_changed = form_post(task["form"]["schema"], task["form"]["ui"])
    if rows_changed:
        return _render_task(task_id, data)
    result, refusal = run(task_commands.complete, task_id, data)
    if refusal:
        return _render_task(task_id, data, refusal, refusal.status)
    case = result["instance"]
    flash(_("Completó «%(name)s» del caso %(case)s.", name=task["name"], case=case["case_number"]), "success")
    following = [t for t in case["open_tasks"] if access.may_act_on_task(actor, t["lane"], t["assignee"])]
    if following:
        return redirect(url_for("web.task", task_id=following[0]["id"]))
    return redirect(url_for("web.inbox"))


# -- starting a case ---------------------------------------------------------------------------

@bp.route("/start")
@login_required
def start():
    return render_template("web/start_list.html", processes=read(processes.startable, engine().versions, web_actor()),
                           roles=role_labels())


@bp.route("/start/<string:key>", methods=["GET", "POST"])
@login_required
def start_form(key):
    form = read(processes.start_form, engine().versions, web_actor(), key)
    definition, schema = form["definition"], form["schema"]
    ui = labels.form_ui(key, schema, form["ui"], labels.catalogue(definition))
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
    return render_template("web/start_form.html", definition=definition, tree=tree, refusal=refusal,
                           allowed=form["allowed"], unplaced=formkit.unplaced_errors(tree, errors),
                           error_fields=formkit.fields_with_errors(tree), roles=role_labels()), status
