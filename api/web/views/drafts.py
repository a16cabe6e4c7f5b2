"""Drafts of a task's form: saved by the task page's script as the person types (and when they
leave), offered again when they come back, dropped on completion (engine/commands/drafts.py)."""
from __future__ import annotations

from flask import flash, jsonify, redirect, url_for
from flask_babel import gettext as _

from engine.commands import drafts
from engine.queries import cases as queries

from api.web.blueprint import bp
from api.web.session import engine, login_required, web_actor
from api.web.views.common import form_post, read, run


@bp.route("/tasks/<int:task_id>/draft", methods=["POST"])
@login_required
def save_draft(task_id):
    task = read(queries.get_task, engine().versions, web_actor(), task_id)
    data, _rows_changed = form_post(task["form"]["schema"], task["form"]["ui"])
    saved, refusal = run(drafts.save, task_id, data)
    if refusal:
        return jsonify({"message": refusal.message, "errors": refusal.errors}), refusal.status
    return jsonify(saved)


@bp.route("/tasks/<int:task_id>/draft/discard", methods=["POST"])
@login_required
def discard_draft(task_id):
    _done, refusal = run(drafts.discard, task_id)
    if not refusal:
        flash(_("Borrador descartado."), "success")
    return redirect(url_for("web.task", task_id=task_id))
