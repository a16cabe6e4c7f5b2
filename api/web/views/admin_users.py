"""Admin: correcting a user (name, office, roles) and deactivating or reactivating them.

Creating users stays on the list page (admin.py); this module is the per-user page. A
deactivated user is not deleted: their name stays on the cases they touched, they cannot log in,
and their API tokens are revoked (engine.commands.accounts.set_active).
"""
from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from engine.commands import accounts as account_commands
from engine.commands import second_factor as second_factor_commands
from engine.kernel import access
from engine.queries import accounts as account_queries, offices as office_queries

from api.web.blueprint import bp
from api.web.session import allowed, current_user, web_actor
from api.web.views.common import read, role_labels, run


@bp.route("/admin/users/<string:username>", methods=["GET", "POST"])
@allowed(access.administers)
def admin_users_edit(username):
    user = read(account_queries.get_user, web_actor(), username)
    form, refusal, status = user, None, 200
    if request.method == "POST":
        form = {**user, "full_name": request.form.get("full_name", "").strip(),
                "office": request.form.get("office", "").strip(), "roles": request.form.getlist("roles"),
                "email": request.form.get("email", "").strip()}
        _done, refusal = run(account_commands.update_user, username, full_name=form["full_name"],
                             office=form["office"], roles=form["roles"], email=form["email"])
        if refusal is None:
            flash(_("Usuario %(user)s actualizado.", user=username), "success")
            return redirect(url_for("web.admin_users"))
        status = refusal.status
    return _user_page(user, form, refusal, status)


def _user_page(user: dict, form: dict, refusal=None, status: int = 200, temporary: str | None = None):
    offices = read(office_queries.choices)
    if user["office"] and user["office"] not in {o["id"] for o in offices}:  # theirs, though deactivated
        offices += [o for o in read(office_queries.admin_listing, web_actor()) if o["id"] == user["office"]]
    return render_template("web/admin/user.html", user=user, roles=read(account_queries.list_roles, builtin_first=True),
                           labels=role_labels(), form=form, offices=offices, refusal=refusal,
                           is_self=user["username"] == current_user()["username"], temporary=temporary), status


@bp.route("/admin/users/<string:username>/active", methods=["POST"])
@allowed(access.administers)
def admin_users_active(username):
    active = request.form.get("active") == "1"
    _done, refusal = run(account_commands.set_active, username, active)  # refuses deactivating oneself
    if refusal is not None:
        flash(refusal.message, "error")
    elif active:
        flash(_("Usuario %(user)s reactivado: puede volver a entrar.", user=username), "success")
    else:
        flash(_("Usuario %(user)s desactivado: ya no puede entrar y sus fichas de acceso quedaron revocadas.",
                user=username), "success")
    return redirect(request.form.get("back") == "user" and url_for("web.admin_users_edit", username=username)
                    or url_for("web.admin_users"))


@bp.route("/admin/users/<string:username>/password", methods=["POST"])
@allowed(access.administers)
def admin_users_password(username):
    """A reset: the password the admin typed, or (left blank) a temporary one shown on this answer
    alone; the user chooses their own at the next sign-in. An admin's own goes through set_password."""
    typed = request.form.get("password", "")
    if username == current_user()["username"]:
        _done, refusal = run(account_commands.set_password, username, typed)
        reset = None
    else:
        reset, refusal = run(account_commands.reset_password, username, typed or None)
    if refusal is not None:
        flash("; ".join([refusal.message, *(m for ms in refusal.errors.values() for m in ms)]), "error")
        return redirect(url_for("web.admin_users_edit", username=username))
    if reset is not None and not typed:
        # Shown once, in this page only (never in the flash cookie, never stored in clear).
        return _user_page(reset["user"], reset["user"], temporary=reset["temporary_password"])
    flash(_("Contraseña de %(user)s cambiada: sus sesiones quedaron cerradas.", user=username)
          + ("" if reset is None else " " + _("Deberá elegir una nueva al entrar.")), "success")
    return redirect(url_for("web.admin_users_edit", username=username))


@bp.route("/admin/users/<string:username>/second-factor/reset", methods=["POST"])
@allowed(access.administers)
def admin_users_second_factor_reset(username):
    _done, refusal = run(second_factor_commands.reset, username)
    if refusal is not None:
        flash(refusal.message, "error")
    else:
        flash(_("Segundo factor de %(user)s restablecido: lo configurará en su próximo acceso.", user=username),
              "success")
    return redirect(url_for("web.admin_users_edit", username=username))
