"""Admin: API tokens for other agencies' systems (engine.commands.agency_tokens).

A new token is shown on the page that answers its creation and nowhere else: not in a flash
message, which would put it in the (signed, not encrypted) session cookie.
"""
from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from engine.commands import agency_tokens
from engine.kernel import access
from engine.queries import accounts as account_queries, offices as office_queries

from api.web.blueprint import bp
from api.web.session import allowed, web_actor
from api.web.views.common import read, role_labels, run


def _days(raw: str):
    try:
        return int(raw)
    except ValueError:
        return raw  # refused by the command, per field


@bp.route("/admin/api-tokens", methods=["GET", "POST"])
@allowed(access.administers)
def admin_api_tokens():
    form, refusal, status, created = {"expires_in_days": "90"}, None, 200, None
    if request.method == "POST":
        form = {"name": request.form.get("name", "").strip(), "roles": request.form.getlist("roles"),
                "office": request.form.get("office", "").strip(),
                "expires_in_days": request.form.get("expires_in_days", "").strip()}
        created, refusal = run(agency_tokens.create, form["name"], form["roles"], _days(form["expires_in_days"]),
                               form["office"] or None)
        status = refusal.status if refusal else 201
    roles = [r for r in read(account_queries.list_roles, builtin_first=True)
             if r["id"] not in agency_tokens.NOT_FOR_TOKENS]
    return render_template("web/admin/api_tokens.html", tokens=read(agency_tokens.listing, web_actor()),
                           roles=roles, labels=role_labels(), offices=read(office_queries.choices), form=form,
                           refusal=refusal, created=created), status


@bp.route("/admin/api-tokens/<int:token_id>/revoke", methods=["POST"])
@allowed(access.administers)
def admin_api_tokens_revoke(token_id):
    done, refusal = run(agency_tokens.revoke, token_id)
    if refusal is not None:
        flash(refusal.message, "error")
    else:
        flash(_("Ficha %(name)s revocada: deja de funcionar ahora.", name=done["name"]), "success")
    return redirect(url_for("web.admin_api_tokens"))
