"""Admin pages: users and roles, registries, legal parameters and the manual clock (offices:
admin_offices.py)."""
from __future__ import annotations

import json
from datetime import timedelta

from flask import current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from engine.commands import accounts as account_commands
from engine.commands import clock as clock_commands
from engine.commands import parameters as parameter_commands
from engine.config.clock import parse_instant
from engine.config.parameters import LIVE
from engine.errors import EngineError
from engine.kernel import access
from engine.queries import accounts as account_queries, parameters as parameter_queries
from engine.queries import offices as office_queries, registries as registry_queries

from api.web import i18n
from api.web.blueprint import bp
from api.web.session import allowed, engine, web_actor
from api.web.views.common import PER_PAGE, page_number, pages, read, role_labels, run

# The registries of DESIGN.md; each shows what exists today, the others say they are coming.
REGISTRIES = (("farmers", "Registro de Agricultores Bona Fide", "Bona fide farmer registry"),
              ("bidders", "Licitadores e inhabilitaciones", "Bidders and debarments"),
              ("beneficiaries", "Beneficiarios de ayuda de materiales", "Materials aid beneficiaries"),
              ("stores", "Ferreterías (Registro de Licitadores)", "Hardware stores (bidder registry)"))


def _roles():
    return read(account_queries.list_roles, builtin_first=True)


@bp.route("/admin/users", methods=["GET", "POST"])
@allowed(access.administers)
def admin_users():
    form, refusal, status = {}, None, 200
    if request.method == "POST":
        form = {"username": request.form.get("username", "").strip(), "full_name": request.form.get("full_name", "").strip(),
                "office": request.form.get("office", "").strip() or None, "roles": request.form.getlist("roles"),
                "email": request.form.get("email", "").strip()}
        _user, refusal = run(account_commands.create_user, form["username"], request.form.get("password", ""),
                             form["roles"], full_name=form["full_name"], office=form["office"], email=form["email"])
        if refusal is None:
            flash(_("Usuario %(user)s creado.", user=form["username"]), "success")
            return redirect(url_for("web.admin_users"))
        status = refusal.status
    return render_template("web/admin/users.html", users=read(account_queries.list_users, web_actor()),
                           roles=_roles(), labels=role_labels(), offices=read(office_queries.choices), form=form,
                           refusal=refusal), status


@bp.route("/admin/roles", methods=["GET", "POST"])
@allowed(access.administers)
def admin_roles():
    form, refusal, status = {}, None, 200
    if request.method == "POST":
        form = {k: request.form.get(k, "").strip() for k in ("id", "label_es", "label_en")}
        if not all(form.values()):
            flash(_("Escriba el identificador y las dos etiquetas."), "error")
            status = 422
        else:
            _role, refusal = run(account_commands.add_role, form["id"], form["label_es"], form["label_en"])
            if refusal is None:
                flash(_("Rol %(role)s creado.", role=form["id"]), "success")
                return redirect(url_for("web.admin_roles"))
            status = refusal.status
    return render_template("web/admin/roles.html", roles=_roles(), form=form, refusal=refusal), status


def _api_registries() -> set[str]:
    prefix = "/api/v1/registries/"
    return {rule.rule[len(prefix):].split("/")[0] for rule in current_app.url_map.iter_rules()
            if rule.rule.startswith(prefix)}


def _registry_page(name: str, available: set[str]) -> str | None:
    if name == "farmers" or name not in available:
        return None  # the farmers are listed on the overview page itself
    return url_for(f"web.admin_registries_{name}")


@bp.route("/admin/registries")
@allowed(access.administers)
def admin_registries():
    english = i18n.selected_language() == "en"
    available = _api_registries()
    registries = [{"name": name, "label": en if english else es, "api": f"/api/v1/registries/{name}",
                   "available": name in available, "page": _registry_page(name, available)}
                  for name, es, en in REGISTRIES]
    farmers, total, page = None, 0, page_number()
    if "farmers" in available:
        farmers, total = read(registry_queries.list_farmers, status=request.args.get("status") or None,
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
@allowed(access.administers)
def admin_parameters():
    """A change is checked first and shown for confirmation (before, after, who keeps the old
    value); only the confirmed post saves it."""
    catalogue = read(parameter_queries.list_parameters)
    errors, submitted, status = {}, {}, 200
    if request.method == "POST":
        name = request.form.get("name", "")
        entry = next((p for p in catalogue if p["name"] == name), None)
        if entry is None:
            flash(_("No hay ningún parámetro legal con ese nombre; escoja uno de la lista."), "error")
            status = 404
        else:
            submitted[name] = request.form.get("value", "")
            value = _parameter_value(entry, submitted[name])
            confirmed = request.form.get("confirm") == "1"
            command = parameter_commands.set_parameter if confirmed else parameter_commands.preview_parameter
            result, refusal = run(command, name, value)
            if refusal is None and not confirmed:
                return render_template("web/admin/parameter_confirm.html", change=result, raw=submitted[name],
                                       english=i18n.selected_language() == "en")
            if refusal is None:
                label = entry["label_en" if i18n.selected_language() == "en" else "label_es"]
                if name in LIVE:  # read when used: running cases follow it too (a holiday moves their deadlines)
                    flash(_("Parámetro %(name)s actualizado; aplica ya, también a los casos en curso.",
                            name=f"«{label}»"), "success")
                else:
                    flash(_("Parámetro %(name)s actualizado; aplica a los casos que empiecen desde ahora.",
                            name=f"«{label}»"), "success")
                return redirect(url_for("web.admin_parameters") + f"#p-{name}")
            errors[name] = [m for ms in refusal.errors.values() for m in ms] or [refusal.message]
            status = refusal.status
    english = i18n.selected_language() == "en"
    names = {p["name"]: p["label_en" if english else "label_es"] for p in catalogue}
    changes = [{**c, "label": names.get(c["name"])} for c in read(parameter_queries.parameter_changes)]
    return render_template("web/admin/parameters.html", parameters=catalogue, errors=errors, submitted=submitted,
                           english=english, changes=changes), status


@bp.route("/admin/clock", methods=["GET", "POST"])
@allowed(access.administers)
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
        fired, refusal = _move_clock(target)
        if refusal:
            flash(refusal, "error")
        else:
            flash(_("Reloj movido a %(when)s; se dispararon %(n)d plazos.", when=i18n.instant(target), n=fired),
                  "success")
        return redirect(url_for("web.admin_clock"))
    now = engine().now()
    return render_template("web/admin/clock.html", manual=clock.manual, now=now,
                           local_now=i18n.local(now).strftime("%Y-%m-%dT%H:%M"))


def _move_clock(target):
    """(timers fired, None) or (0, the engine's refusal as it said it). A move is several
    transactions (one per timer fired), so it takes the engine rather than one command's context."""
    try:
        return clock_commands.move_clock(engine(), web_actor(), target), None
    except EngineError as exc:
        return 0, exc.message
