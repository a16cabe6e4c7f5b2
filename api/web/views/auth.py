"""Log in, log out, the language switch and the landing page of each kind of user."""
from __future__ import annotations

from flask import abort, current_app, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _

from engine.identity.login_throttle import TooManyLogins

from api.web import i18n
from api.web.blueprint import bp
from api.web.session import (
    begin_pending, check_credentials, current_user, home_endpoint, log_in, log_out, login_required, safe_next,
)


@bp.route("/")
@login_required
def home():
    return redirect(url_for(home_endpoint(current_user())))


@bp.route("/login", methods=["GET", "POST"])
def login():
    next_page = safe_next(request.values.get("next"))
    if request.method == "GET":
        if current_user() is not None:
            return redirect(next_page or url_for("web.home"))
        return render_template("web/login.html", next_page=next_page, username="")
    if not _local_passwords():
        abort(403)
    username = request.form.get("username", "")
    try:
        user = check_credentials(username, request.form.get("password", ""))
    except TooManyLogins as exc:
        response = render_template("web/login.html", next_page=next_page, username=username, error=_(
            "Demasiados intentos fallidos. Vuelva a intentarlo en %(n)s segundos.", n=exc.retry_after))
        return response, 429, {"Retry-After": str(exc.retry_after)}
    if user is None:
        return render_template("web/login.html", next_page=next_page, username=username,
                               error=_("Usuario o contraseña incorrectos.")), 401
    if user["second_factor"]:
        begin_pending(user)
        return redirect(url_for("web.second_factor", next=next_page))
    log_in(user)
    flash(_("Bienvenido, %(name)s.", name=user["full_name"]), "success")
    return redirect(next_page or url_for(home_endpoint(user)))


def _local_passwords() -> bool:
    policy = current_app.config.get("TRAMITE_LOGIN_POLICY")
    return policy is None or policy.local_passwords


@bp.app_context_processor
def _login_choices():
    if request.blueprint != "web":
        return {}
    return {"directory_login": current_app.config.get("TRAMITE_OIDC") is not None,
            "local_passwords": _local_passwords()}


@bp.route("/logout", methods=["POST"])
def logout():
    log_out()
    flash(_("Sesión cerrada."), "success")
    return redirect(url_for("web.login"))


@bp.route("/lang/<string:language>")
def set_language(language):
    if language in i18n.LANGUAGES:
        session["lang"] = language
    return redirect(safe_next(request.args.get("next")) or url_for("web.home"))
