"""Admin: the bidder registry of the Junta de Subastas — bidders, their bans and withdrawals.

The same commands as POST/PATCH /api/v1/registries/bidders, validated by the same schemas; every
change is audited by the engine.
"""
from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from marshmallow import Schema, fields, validate

from engine.commands import registries as commands
from engine.kernel import access
from engine.queries import registries as queries

from api.rest.bidder_schemas import BidderCreateSchema, NewSanctionSchema
from api.web.blueprint import bp
from api.web.session import allowed, engine
from api.web.views.common import PER_PAGE, page_number, pages, read, run
from api.web.views.registry_forms import load, posted

SANCTION_FIELDS = ("kind", "from", "months", "reason")
# The detail page's sanction form has no `sanction_` prefix: its errors are named without it.
SANCTION_ERROR_PREFIX = "sanction."


class RenameSchema(Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=200))


def _sanction_form(prefix: str = "sanction_") -> dict:
    return {k: request.form.get(prefix + k, "").strip() for k in SANCTION_FIELDS}


def _banned_filter() -> bool | None:
    return {"1": True, "0": False}.get(request.args.get("banned", ""))


@bp.route("/admin/registries/bidders", methods=["GET", "POST"])
@allowed(access.administers)
def admin_registries_bidders():
    form, sanction, refusal, status = {}, {}, None, 200
    if request.method == "POST":
        form, sanction = posted("id", "name"), _sanction_form()
        data = dict(form)
        if sanction["reason"] or sanction["from"] or sanction["months"]:
            data["sanction"] = {k: v for k, v in sanction.items() if v != ""}
        args, refusal = load(BidderCreateSchema(), data)
        if args is not None:
            _done, refusal = run(commands.create_bidder, **args)
        if refusal is None:
            flash(_("Licitador %(id)s añadido al registro.", id=form["id"]), "success")
            return redirect(url_for("web.admin_registries_bidder", bidder_id=form["id"]))
        status = refusal.status
    page, banned = page_number(), _banned_filter()
    items, total = read(queries.list_bidders, engine().now(), banned=banned, page=page, per_page=PER_PAGE)
    return render_template("web/admin/registry/bidders.html", items=items, total=total, page=page,
                           pages=pages(total), banned=request.args.get("banned", ""), form=form,
                           sanction=sanction, refusal=refusal, kinds=queries.SANCTION_KINDS), status


ACTIONS = {"rename": commands.rename_bidder, "sanction": commands.add_bidder_sanction,
           "lift": commands.lift_bidder_sanctions}


@bp.route("/admin/registries/bidders/<string:bidder_id>", methods=["GET", "POST"])
@allowed(access.administers)
def admin_registries_bidder(bidder_id):
    action, form, sanction, refusal, status = request.form.get("_action"), {}, {}, None, 200
    if request.method == "POST" and action in ACTIONS:
        args = ()
        if action == "rename":
            form = posted("name")
            loaded, refusal = load(RenameSchema(), form)
            args = (loaded["name"],) if loaded else ()
        elif action == "sanction":
            sanction = _sanction_form("")
            loaded, refusal = load(NewSanctionSchema(), sanction)
            args = (loaded,)
        if refusal is None:
            lifted, refusal = run(ACTIONS[action], bidder_id, *args)
            if refusal is not None:
                refusal.errors = {k.removeprefix(SANCTION_ERROR_PREFIX): v for k, v in refusal.errors.items()}
        if refusal is None:
            flash({"rename": _("Nombre corregido."), "sanction": _("Sanción añadida al registro."),
                   "lift": _("Se levantaron %(n)s sanciones en vigor.", n=lifted or 0)}[action], "success")
            return redirect(url_for("web.admin_registries_bidder", bidder_id=bidder_id))
        status = refusal.status
    bidder = read(queries.get_bidder, engine().now(), bidder_id)
    return render_template("web/admin/registry/bidder.html", bidder=bidder, form=form or bidder, sanction=sanction,
                           refusal=refusal, action=action, kinds=queries.SANCTION_KINDS), status
