"""Admin: the office list — add an office, rename it, edit the towns it serves (materials aid,
MAT-08), deactivate or reactivate it. The engine refuses a second spelling of an office and a town
two active offices would serve (engine/commands/offices.py)."""
from __future__ import annotations

import re

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from engine.commands import offices as commands
from engine.kernel import access
from engine.queries import offices as queries

from api.web.blueprint import bp
from api.web.session import allowed, web_actor
from api.web.views.common import read, run


def _towns(text: str) -> list[str]:
    """One town a line (or separated by commas or semicolons), as typed."""
    return [t.strip() for t in re.split(r"[\n,;]", text or "") if t.strip()]


@bp.route("/admin/offices", methods=["GET", "POST"])
@allowed(access.administers)
def admin_offices():
    form, refusal, status = {}, None, 200
    if request.method == "POST":
        form = {k: request.form.get(k, "").strip() for k in ("id", "name_es", "name_en", "municipalities")}
        _done, refusal = run(commands.create, form["id"], form["name_es"], form["name_en"],
                             _towns(form["municipalities"]))
        if refusal is None:
            flash(_("Oficina %(office)s creada.", office=form["name_es"]), "success")
            return redirect(url_for("web.admin_offices"))
        status = refusal.status
    return render_template("web/admin/offices.html", offices=read(queries.admin_listing, web_actor()), form=form,
                           refusal=refusal), status


@bp.route("/admin/offices/<string:office_id>", methods=["GET", "POST"])
@allowed(access.administers)
def admin_offices_edit(office_id):
    office = read(queries.get, web_actor(), office_id)
    form, refusal, status = {**office, "municipalities": "\n".join(office["municipalities"])}, None, 200
    if request.method == "POST":
        form = {**office, **{k: request.form.get(k, "").strip() for k in ("name_es", "name_en", "municipalities")}}
        _done, refusal = run(commands.update, office_id, name_es=form["name_es"], name_en=form["name_en"],
                             municipalities=_towns(form["municipalities"]))
        if refusal is None:
            flash(_("Oficina %(office)s actualizada.", office=form["name_es"]), "success")
            return redirect(url_for("web.admin_offices"))
        status = refusal.status
    return render_template("web/admin/office.html", office=office, form=form, refusal=refusal), status


@bp.route("/admin/offices/<string:office_id>/active", methods=["POST"])
@allowed(access.administers)
def admin_offices_active(office_id):
    active = request.form.get("active") == "1"
    _done, refusal = run(commands.update, office_id, active=active)
    if refusal is not None:
        flash("; ".join([refusal.message, *(m for ms in refusal.errors.values() for m in ms)]), "error")
    elif active:
        flash(_("Oficina reactivada: vuelve a ofrecerse al crear usuarios."), "success")
    else:
        flash(_("Oficina desactivada: ya no se ofrece al crear usuarios ni recibe casos nuevos."), "success")
    return redirect(url_for("web.admin_offices"))
