"""The second step of a local login: the TOTP code, or setting the second factor up (a QR code)
and keeping the recovery codes. The QR code is inline SVG markup: no script, no data: image."""
from __future__ import annotations

import segno
from flask import current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup

from engine.commands import second_factor as commands
from engine.errors import Unauthorized
from engine.identity.actor import Actor
from engine.identity.login_throttle import TooManyLogins

from api.web.blueprint import bp
from api.web.session import engine, home_endpoint, log_in, pending_login, safe_next


def _qr(uri: str) -> Markup:
    # segno writes plain SVG elements; the URI is its own (issuer, username, secret), escaped by segno.
    return Markup(segno.make(uri, error="m").svg_inline(scale=4, title=_("Código QR para la aplicación")))


def _run(command, pending, *args):
    return engine().execute(command, Actor(f"pending:{pending['uid']}"), pending["uid"], pending["gen"], *args)


@bp.route("/login/second-factor", methods=["GET", "POST"])
def second_factor():
    pending = pending_login()
    next_page = safe_next(request.values.get("next"))
    if pending is None:
        flash(_("El acceso caducó; vuelva a entrar."), "error")
        return redirect(url_for("web.login", next=next_page))
    enrolling = pending["step"] == "enrol"
    error, status = None, 200
    try:
        if request.method == "POST":
            code, address = request.form.get("code", ""), request.remote_addr or "unknown"
            policy = current_app.config.get("TRAMITE_LOGIN_POLICY")
            if enrolling:
                done = _run(commands.confirm_enrolment, pending, code, address, policy)
                if done is not None:
                    log_in(done["user"])
                    return render_template("web/second_factor_codes.html", codes=done["recovery_codes"],
                                           next_page=next_page or url_for(home_endpoint(done["user"])))
            else:
                user = _run(commands.finish_login, pending, code, address, policy)
                if user is not None:
                    log_in(user)
                    flash(_("Bienvenido, %(name)s.", name=user["full_name"]), "success")
                    return redirect(next_page or url_for(home_endpoint(user)))
            error, status = _("El código no es correcto."), 401
        setup = _run(commands.begin_enrolment, pending) if enrolling else None
    except TooManyLogins as exc:
        error = _("Demasiados intentos fallidos. Vuelva a intentarlo en %(n)s segundos.", n=exc.retry_after)
        setup = None
        return (render_template("web/second_factor.html", enrolling=enrolling, setup=setup, qr=None, error=error,
                                next_page=next_page), 429, {"Retry-After": str(exc.retry_after)})
    except Unauthorized:
        return redirect(url_for("web.login", next=next_page))
    return render_template("web/second_factor.html", enrolling=enrolling, setup=setup, error=error,
                           qr=_qr(setup["uri"]) if setup else None, next_page=next_page), status
