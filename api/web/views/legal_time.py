"""The case page's legal-time forms: a supervisor suspends a case's deadlines and resumes them."""
from __future__ import annotations

from flask import flash, redirect, request, url_for
from flask_babel import gettext as _

from engine.commands.legal_time import resume_case, suspend_case
from engine.kernel import access

from api.web.blueprint import bp
from api.web.session import allowed
from api.web.views.common import run


def _back(instance_id, refusal, done: str):
    if refusal:
        reasons = [m for key, messages in (refusal.errors or {}).items() if key != "rule" for m in messages]
        flash(" ".join([refusal.message, *reasons]), "error")
    else:
        flash(done, "success")
    return redirect(url_for("web.case", instance_id=instance_id))


@bp.route("/cases/<int:instance_id>/suspend", methods=["POST"])
@allowed(access.sees_all_cases)
def suspend(instance_id):
    form = request.form
    _case, refusal = run(suspend_case, instance_id, form.get("reason", ""), form.get("legal_basis", ""),
                         form.get("until") or None)
    return _back(instance_id, refusal, _("Plazos del caso suspendidos."))


@bp.route("/cases/<int:instance_id>/resume", methods=["POST"])
@allowed(access.sees_all_cases)
def resume(instance_id):
    _case, refusal = run(resume_case, instance_id)
    return _back(instance_id, refusal, _("Plazos reanudados: cada plazo se corrió los días suspendidos."))
