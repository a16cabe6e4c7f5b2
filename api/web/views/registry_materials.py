"""Admin: the materials-aid registries — beneficiaries (last use of materials, MAT-30) and hardware
stores inscribed in the Registro de Licitadores (MAT-15).

The same commands as POST/PATCH /api/v1/registries/{beneficiaries,stores}, validated by the same
schemas; every change is audited by the engine's registry commands.
"""
from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from engine.commands import registries as commands
from engine.kernel import access
from engine.queries import registries as queries

from api.rest.materials_registry_schemas import (
    BeneficiaryCreateSchema, BeneficiaryPatchSchema, StoreCreateSchema, StorePatchSchema,
)

from api.web.blueprint import bp
from api.web.session import allowed
from api.web.views.common import PER_PAGE, page_number, pages, read, run
from api.web.views.registry_forms import load, posted

BENEFICIARY_FIELDS = ("name", "municipality", "last_use_date", "last_outcome")
STORE_FIELDS = ("name", "municipality")


def _patch(form: dict, fields: tuple[str, ...]) -> dict:
    # On a correction an emptied optional field means "clear it", not "leave it".
    return {k: (None if form.get(k) == "" and k != "name" else form.get(k)) for k in fields}


def _save(create, update, key, form, create_schema, patch_schema, fields, entry_id=None):
    """(entry id, None) or (None, refusal): create when entry_id is None, else correct it."""
    if entry_id is None:
        args, refusal = load(create_schema, form)
        if refusal is None:
            _done, refusal = run(create, **args)
        return (args or {}).get(key), refusal
    data = _patch(form, fields)
    args, refusal = load(patch_schema, {k: v for k, v in data.items() if v is not None}, keep=("name",))
    if refusal is None:
        args.update({k: None for k, v in data.items() if v is None})
        _done, refusal = run(update, entry_id, args)
    return entry_id, refusal


# -- beneficiaries ------------------------------------------------------------------------------

@bp.route("/admin/registries/beneficiaries", methods=["GET", "POST"])
@allowed(access.administers)
def admin_registries_beneficiaries():
    form, refusal, status = {}, None, 200
    if request.method == "POST":
        form = posted("id", *BENEFICIARY_FIELDS)
        new_id, refusal = _save(commands.create_beneficiary, None, "id", form, BeneficiaryCreateSchema(), None, ())
        if refusal is None:
            flash(_("Beneficiario %(id)s añadido al registro.", id=new_id), "success")
            return redirect(url_for("web.admin_registries_beneficiary", entry_id=new_id))
        status = refusal.status
    q, page = request.args.get("q", "").strip(), page_number()
    items, total = read(queries.list_beneficiaries, q=q or None, page=page, per_page=PER_PAGE)
    return render_template("web/admin/registry/beneficiaries.html", items=items, total=total, page=page,
                           pages=pages(total), q=q, form=form, refusal=refusal,
                           municipalities=read(queries.municipalities)), status


@bp.route("/admin/registries/beneficiaries/<string:entry_id>", methods=["GET", "POST"])
@allowed(access.administers)
def admin_registries_beneficiary(entry_id):
    return _correction_page(queries.get_beneficiary, commands.correct_beneficiary, entry_id, BENEFICIARY_FIELDS, (), BeneficiaryPatchSchema(),
                            "web/admin/registry/beneficiary.html", "web.admin_registries_beneficiary",
                            lambda: _("Beneficiario %(id)s corregido.", id=entry_id))


def _correction_page(get, correct, entry_id, fields, checkboxes, patch_schema, template, endpoint, corrected):
    """An entry's page with its correction form; a refused correction shows beside what was typed."""
    entry = read(get, entry_id)
    form, refusal, status = entry, None, 200
    if request.method == "POST":
        form = {**entry, **posted(*fields, checkboxes=checkboxes)}
        _id, refusal = _save(None, correct, "id", form, None, patch_schema, (*fields, *checkboxes),
                             entry_id)
        if refusal is None:
            flash(corrected(), "success")
            return redirect(url_for(endpoint, entry_id=entry_id))
        status = refusal.status
    return render_template(template, entry=entry, form=form, refusal=refusal,
                           municipalities=read(queries.municipalities)), status


# -- hardware stores ----------------------------------------------------------------------------

def _registered_filter() -> bool | None:
    return {"1": True, "0": False}.get(request.args.get("registered", ""))


@bp.route("/admin/registries/stores", methods=["GET", "POST"])
@allowed(access.administers)
def admin_registries_stores():
    form, refusal, status = {}, None, 200
    if request.method == "POST":
        form = posted("id", *STORE_FIELDS, checkboxes=("registered",))
        new_id, refusal = _save(commands.create_store, None, "id", form, StoreCreateSchema(), None, ())
        if refusal is None:
            flash(_("Ferretería %(id)s añadida al registro.", id=new_id), "success")
            return redirect(url_for("web.admin_registries_store", entry_id=new_id))
        status = refusal.status
    q, page = request.args.get("q", "").strip(), page_number()
    items, total = read(queries.list_stores, registered=_registered_filter(), q=q or None, page=page,
                        per_page=PER_PAGE)
    return render_template("web/admin/registry/stores.html", items=items, total=total, page=page,
                           pages=pages(total), q=q, registered=request.args.get("registered", ""),
                           form=form or {"registered": True}, refusal=refusal,
                           municipalities=read(queries.municipalities)), status


@bp.route("/admin/registries/stores/<string:entry_id>", methods=["GET", "POST"])
@allowed(access.administers)
def admin_registries_store(entry_id):
    return _correction_page(queries.get_store, commands.correct_store, entry_id, STORE_FIELDS, ("registered",), StorePatchSchema(),
                            "web/admin/registry/store.html", "web.admin_registries_store",
                            lambda: _("Ferretería %(id)s corregida.", id=entry_id))
