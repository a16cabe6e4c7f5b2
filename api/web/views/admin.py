"""Admin pages: users and roles, offices, registries, legal parameters and the manual clock."""
from __future__ import annotations

import json
from datetime import datetime, timedelta

from flask import current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from sqlalchemy import select

from engine.identity import accounts
from engine.queries import dashboard, shapes as views
from engine.config import parameters
from engine.config.clock import parse_instant
from engine.errors import EngineError
from engine.persistence.models import Role, User
from engine.worker import move_clock

from api.web import i18n
from api.web.blueprint import bp
from api.web.session import allowed, engine, is_admin, web_actor
from api.web.views.common import PER_PAGE, Refusal, page_number, pages, read, role_labels, run

# The registries of DESIGN.md; each shows what exists today, the others say they are coming.
REGISTRIES = (("farmers", "Registro de Agricultores Bona Fide", "Bona fide farmer registry"),
              ("bidders", "Licitadores e inhabilitaciones", "Bidders and debarments"),
              ("beneficiaries", "Beneficiarios de ayuda de materiales", "Materials aid beneficiaries"),
              ("stores", "Ferreterías (Registro de Licitadores)", "Hardware stores (bidder registry)"))


def _users(session):
    return [views.user(u) for u in session.scalars(select(User).order_by(User.username))]


def _roles(session):
    return session.scalars(select(Role).order_by(Role.builtin.desc(), Role.id)).all()


@bp.route("/admin/users", methods=["GET", "POST"])
@allowed(is_admin)
def admin_users():
    form, refusal, status = {}, None, 200
    if request.method == "POST":
        form = {"username": request.form.get("username", "").strip(), "full_name": request.form.get("full_name", "").strip(),
                "office": request.form.get("office", "").strip() or None, "roles": request.form.getlist("roles")}
        _user, refusal = run(accounts.create_user, form["username"], request.form.get("password", ""), form["roles"],
                             full_name=form["full_name"], office=form["office"])
        if refusal is None:
            flash(_("Usuario %(user)s creado.", user=form["username"]), "success")
            return redirect(url_for("web.admin_users"))
        status = refusal.status
    return render_template("web/admin/users.html", users=read(_users), roles=read(_roles), labels=role_labels(),
                           form=form, refusal=refusal), status


@bp.route("/admin/roles", methods=["GET", "POST"])
@allowed(is_admin)
def admin_roles():
    form, refusal, status = {}, None, 200
    if request.method == "POST":
        form = {k: request.form.get(k, "").strip() for k in ("id", "label_es", "label_en")}
        if not all(form.values()):
            flash(_("Escriba el identificador y las dos etiquetas."), "error")
            status = 422
        else:
            _role, refusal = run(accounts.add_role, form["id"], form["label_es"], form["label_en"])
            if refusal is None:
                flash(_("Rol %(role)s creado.", role=form["id"]), "success")
                return redirect(url_for("web.admin_roles"))
            status = refusal.status
    return render_template("web/admin/roles.html", roles=read(_roles), form=form, refusal=refusal), status


@bp.route("/admin/offices")
@allowed(is_admin)
def admin_offices():
    return render_template("web/admin/offices.html", offices=read(dashboard.offices))


def _api_registries() -> set[str]:
    prefix = "/api/v1/registries/"
    return {rule.rule[len(prefix):].split("/")[0] for rule in current_app.url_map.iter_rules()
            if rule.rule.startswith(prefix)}


def _registry_page(name: str, available: set[str]) -> str | None:
    if name == "farmers" or name not in available:
        return None  # the farmers are listed on the overview page itself
    return url_for(f"web.admin_registries_{name}")


@bp.route("/admin/registries")
@allowed(is_admin)
def admin_registries():
    english = i18n.selected_language() == "en"
    available = _api_registries()
    registries = [{"name": name, "label": en if english else es, "api": f"/api/v1/registries/{name}",
                   "available": name in available, "page": _registry_page(name, available)}
                  for name, es, en in REGISTRIES]
    farmers, total, page = None, 0, page_number()
    if "farmers" in available:
        from engine.registries import farmers as farmer_registry
        farmers, total = read(farmer_registry.list_entries, status=request.args.get("status") or None,
                              page=page, per_page=PER_PAGE)
    return render_template("web/admin/registries.html", registries=registries, farmers=farmers, total=total,
                           page=page, pages=pages(total), status=request.args.get("status") or "")


def _parameter_value(entry: dict, raw: str):
    raw = raw.strip()
    if raw == "":
        return None
    if entry["type"] == "bool":
        return {"true": True, "false": False}.get(raw, raw)
    if entry["type"] in ("list", "object"):
        try:
            return json.loads(raw)
        except ValueError:
            return raw
    return raw


@bp.route("/admin/parameters", methods=["GET", "POST"])
@allowed(is_admin)
def admin_parameters():
    catalogue = read(parameters.describe)
    errors, submitted, status = {}, {}, 200
    if request.method == "POST":
        name = request.form.get("name", "")
        entry = next((p for p in catalogue if p["name"] == name), None)
        if entry is not None:
            submitted[name] = request.form.get("value", "")
            _result, refusal = run(parameters.set_value, name, _parameter_value(entry, submitted[name]))
            if refusal is None:
                flash(_("Parámetro %(name)s actualizado; aplica a los casos que empiecen desde ahora.", name=name),
                      "success")
                return redirect(url_for("web.admin_parameters") + f"#p-{name}")
            errors[name] = [m for ms in refusal.errors.values() for m in ms] or [refusal.message]
            status = refusal.status
    english = i18n.selected_language() == "en"
    return render_template("web/admin/parameters.html", parameters=catalogue, errors=errors, submitted=submitted,
                           english=english), status


@bp.route("/admin/clock", methods=["GET", "POST"])
@allowed(is_admin)
def admin_clock():
    clock = engine().clock
    if request.method == "POST" and clock.manual:
        now = engine().now()
        try:
            if request.form.get("days"):
                target = now + timedelta(days=int(request.form["days"]))
            else:
                typed = request.form.get("instant", "").strip()
                # datetime-local sends Puerto Rico's wall clock without an offset.
                target = parse_instant(typed + ":00" + i18n.PR_OFFSET if len(typed) == 16 else typed)
        except ValueError:
            flash(_("Escriba una fecha y hora válidas."), "error")
            return redirect(url_for("web.admin_clock"))
        fired, refusal = run_clock(target)
        if refusal:
            flash(refusal.message, "error")
        else:
            flash(_("Reloj movido a %(when)s; se dispararon %(n)d plazos.", when=i18n.instant(target), n=fired),
                  "success")
        return redirect(url_for("web.admin_clock"))
    now = engine().now()
    return render_template("web/admin/clock.html", manual=clock.manual, now=now,
                           local_now=i18n.local(now).strftime("%Y-%m-%dT%H:%M"))


def run_clock(target: datetime):
    """move_clock runs its own transactions (one per timer fired), so it is not an engine command."""
    try:
        return move_clock(engine(), web_actor(), target), None
    except EngineError as exc:
        return 0, Refusal(exc.status, exc.message)
