"""A signed-in user's own password: the page to change it (current + new), and the gate that sends a
user whose password an admin reset to that page before any other, at their next sign-in.

Changing it ends the user's other sessions and tokens (their generation moves on); this browser
carries on in a fresh session of the new generation.
"""
from __future__ import annotations

from flask import current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from engine.commands import accounts as commands

from api.web import labels
from api.web.blueprint import bp
from api.web.session import current_user, home_endpoint, log_in, login_required, safe_next
from api.web.views.common import Refusal, run

# What a user owing a new password may still open: this page, leaving, the language, the files.
OPEN_WHILE_OWED = frozenset({"web.password_change", "web.logout", "web.set_language", "web.static"})


@bp.before_request
def _password_owed():
    user = current_user()
    if user and user.get("must_change_password") and request.endpoint not in OPEN_WHILE_OWED:
        back = safe_next(request.full_path.rstrip("?")) if request.method == "GET" else None
        return redirect(url_for("web.password_change", next=back))
    return None


@bp.route("/password", methods=["GET", "POST"])
@login_required
def password_change():
    user = current_user()
    next_page = safe_next(request.values.get("next"))
    refusal, status = None, 200
    if request.method == "POST":
        renewed, refusal = run(commands.change_own_password, request.form.get("current_password", ""),
                               request.form.get("password", ""), request.form.get("confirmation", ""),
                               request.remote_addr or "unknown", current_app.config.get("TRAMITE_LOGIN_POLICY"))
        if renewed is not None and "refused" in renewed:  # a wrong current password, counted as a failed login
            renewed, refusal = None, Refusal(422, _("Revise los campos marcados."),
                                             labels.friendly_errors(renewed["refused"]))
        if refusal is None:
            log_in(renewed)  # this browser stays signed in; every other session and token ended
            flash(_("Contraseña cambiada: se cerraron sus demás sesiones."), "success")
            return redirect(next_page or url_for(home_endpoint(renewed)))
        status = refusal.status
    return render_template("web/password.html", forced=user.get("must_change_password"), refusal=refusal,
                           next_page=next_page), status
