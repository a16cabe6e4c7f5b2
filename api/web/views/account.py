"""The signed-in user's own page: who they are to Trámite (name, e-mail, office, roles), where their
reminders go, and a supervisor's choice of the daily digest. The address is an admin's to set (it
is where the agency writes to them), so it is shown here, not edited."""
from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from engine.commands import accounts as account_commands
from engine.queries import work_people

from api.web.blueprint import bp
from api.web.session import login_required, web_actor
from api.web.views.common import read, role_labels, run


@bp.route("/account")
@login_required
def account():
    return render_template("web/account.html", user=read(work_people.own_account, web_actor()),
                           labels=role_labels())


@bp.route("/account/digest", methods=["POST"])
@login_required
def account_digest():
    wanted = request.form.get("daily_digest") == "1"
    _done, refusal = run(account_commands.set_daily_digest, wanted)
    if refusal is not None:
        flash("; ".join([refusal.message, *(m for ms in refusal.errors.values() for m in ms)]), "error")
    elif wanted:
        flash(_("Recibirá el resumen diario de tareas vencidas y por vencer."), "success")
    else:
        flash(_("Ya no recibirá el resumen diario."), "success")
    return redirect(url_for("web.account"))
