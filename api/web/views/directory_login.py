"""Signing in with the agency's directory (OpenID Connect): to the provider and back."""
from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _

from engine.commands import directory as directory_commands
from engine.identity.actor import Actor

from api.web import directory
from api.web.blueprint import bp
from api.web.session import engine, home_endpoint, log_in, safe_next


@bp.route("/login/directory")
def directory_login():
    if directory.settings() is None:
        abort(404)
    session["directory_next"] = safe_next(request.args.get("next"))
    return directory.start(url_for("web.directory_callback", _external=True))


@bp.route("/login/directory/callback")
def directory_callback():
    config = directory.settings()
    if config is None:
        abort(404)
    try:
        claims = directory.claims()
    except directory.DirectoryRefused:
        return render_template("web/login.html", next_page=None, username="", error=_(
            "El directorio no confirmó su acceso. Vuelva a intentarlo.")), 401
    username = claims.get(config.username_claim) or claims.get("sub")
    office = claims.get(config.office_claim)
    user = engine().execute(directory_commands.sign_in, Actor(f"directory:{username}"), str(username),
                            str(claims.get("name") or ""), office if isinstance(office, str) and office else None,
                            config.roles_for(claims.get(config.groups_claim)))
    if user is None:
        return render_template("web/login.html", next_page=None, username="", error=_(
            "Su cuenta del directorio no tiene ningún rol de Trámite.")), 403
    next_page = safe_next(session.pop("directory_next", None))
    log_in(user)
    flash(_("Bienvenido, %(name)s.", name=user["full_name"]), "success")
    return redirect(next_page or url_for(home_endpoint(user)))
