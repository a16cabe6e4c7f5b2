"""Admin: the bidder registry of the Junta de Subastas — bidders, their bans and withdrawals.

The same commands as POST/PATCH /api/v1/registries/bidders, validated by the same schemas; every
change is audited by engine.registries.bidders.
"""
from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from marshmallow import Schema, fields, validate

from api.rest.bidder_registry import BidderCreateSchema, NewSanctionSchema
from engine.rules.calendar import add_months, local_date
from engine.errors import ValidationFailed
from engine.registries import bidders

from api.web.blueprint import bp
from api.web.session import allowed, engine, is_admin
from api.web.views.common import PER_PAGE, page_number, pages, read, run
from api.web.views.registry_forms import load, posted

SANCTION_FIELDS = ("kind", "from", "months", "reason")


class RenameSchema(Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=200))


def _today():
    return local_date(engine().now())


def _sanction_form(prefix: str = "sanction_") -> dict:
    return {k: request.form.get(prefix + k, "").strip() for k in SANCTION_FIELDS}


def _add_sanction(ctx, bidder_id: str, sanction: dict, where: str = "sanction.") -> None:
    months = sanction.get("months")
    if sanction["kind"] == "ban" and months is None:
        raise ValidationFailed("a ban runs for a number of months",
                               {where + "months": [_("Una inhabilitación dura un número de meses.")]})
    eligible = add_months(sanction["from_"], months) if months is not None else None
    bidders.add_sanction(ctx, bidder_id, kind=sanction["kind"], from_date=sanction["from_"],
                         eligible_again=eligible, months=months, reason=sanction["reason"])


def _create(ctx, args):
    bidders.create(ctx, id=args["id"], name=args["name"])
    if args.get("sanction"):
        _add_sanction(ctx, args["id"], args["sanction"])


def _banned_filter() -> bool | None:
    return {"1": True, "0": False}.get(request.args.get("banned", ""))


@bp.route("/admin/registries/bidders", methods=["GET", "POST"])
@allowed(is_admin)
def admin_registries_bidders():
    form, sanction, refusal, status = {}, {}, None, 200
    if request.method == "POST":
        form, sanction = posted("id", "name"), _sanction_form()
        data = dict(form)
        if sanction["reason"] or sanction["from"] or sanction["months"]:
            data["sanction"] = {k: v for k, v in sanction.items() if v != ""}
        args, refusal = load(BidderCreateSchema(), data)
        if args is not None:
            _done, refusal = run(_create, args)
        if refusal is None:
            flash(_("Licitador %(id)s añadido al registro.", id=form["id"]), "success")
            return redirect(url_for("web.admin_registries_bidder", bidder_id=form["id"]))
        status = refusal.status
    page, banned = page_number(), _banned_filter()
    items, total = read(bidders.list_entries, _today(), banned=banned, page=page, per_page=PER_PAGE)
    return render_template("web/admin/registry/bidders.html", items=items, total=total, page=page,
                           pages=pages(total), banned=request.args.get("banned", ""), form=form,
                           sanction=sanction, refusal=refusal, kinds=bidders.SANCTION_KINDS), status


def _change(ctx, bidder_id, action, args):
    bidders.get(ctx.session, bidder_id)
    if action == "rename":
        bidders.rename(ctx, bidder_id, args["name"])
    elif action == "lift":
        return bidders.lift_sanctions(ctx, bidder_id, local_date(ctx.now))
    elif action == "sanction":
        _add_sanction(ctx, bidder_id, args, where="")
    return None


@bp.route("/admin/registries/bidders/<string:bidder_id>", methods=["GET", "POST"])
@allowed(is_admin)
def admin_registries_bidder(bidder_id):
    action, form, sanction, refusal, status = request.form.get("_action"), {}, {}, None, 200
    if request.method == "POST" and action in ("rename", "sanction", "lift"):
        args = {}
        if action == "rename":
            form = posted("name")
            args, refusal = load(RenameSchema(), form)
        elif action == "sanction":
            sanction = _sanction_form("")
            args, refusal = load(NewSanctionSchema(), sanction)
        if refusal is None:
            lifted, refusal = run(_change, bidder_id, action, args)
        if refusal is None:
            flash({"rename": _("Nombre corregido."), "sanction": _("Sanción añadida al registro."),
                   "lift": _("Se levantaron %(n)s sanciones en vigor.", n=lifted or 0)}[action], "success")
            return redirect(url_for("web.admin_registries_bidder", bidder_id=bidder_id))
        status = refusal.status
    bidder = read(lambda s: bidders.view(s, bidders.get(s, bidder_id), _today()))
    return render_template("web/admin/registry/bidder.html", bidder=bidder, form=form or bidder, sanction=sanction,
                           refusal=refusal, action=action, kinds=bidders.SANCTION_KINDS), status
