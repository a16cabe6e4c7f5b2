"""Staff give the applicant a code for the status page from the case page: the code is shown once
(the engine keeps only its hash) with the filing receipt that carries it."""
from __future__ import annotations

from flask import flash, redirect, request, url_for
from flask_babel import gettext as _

from engine.applicants import received
from engine.commands import applicant_access as commands

from api.web import rule_texts
from api.web.blueprint import bp
from api.web.i18n import selected_language
from api.web.session import engine, login_required, web_actor
from api.web.views.common import run


@bp.route("/cases/<int:instance_id>/applicant-access", methods=["POST"])
@login_required
def issue_applicant_access(instance_id):
    issued, refusal = run(commands.issue_access, instance_id, request.host_url.rstrip("/") + "/estado")
    if refusal:
        flash(refusal.message, "error")
    else:
        flash(_("Código de acceso para la persona solicitante: %(code)s (aparece en el recibo de radicación; "
                "no se volverá a mostrar).", code=issued["access_code"]), "success")
    return redirect(url_for("web.case", instance_id=instance_id) + "#acceso-solicitante")


@bp.app_template_global()
def applicant_filings(instance_id: int) -> list[dict]:
    """What came from the applicant (when, what, its receipt; a refusal in the rule's words)."""
    rows = engine().read_rows(received.filings, web_actor(), instance_id, selected_language())
    for row in rows:
        if row["refused"]:
            row["refused"]["text"] = rule_texts.text(row["refused"]["code"], row["refused"]["reason"])
    return rows
