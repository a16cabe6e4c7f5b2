"""Absences on the web (API.md "Work management"): a user sets their own absence (from, until,
substitute), a supervisor or admin anyone's, and ends it. The engine's command decides (the same
rules as PUT /users/{u}/absence: the substitute holds the absent user's lanes); this page puts
each refusal beside its field, in the reader's language."""
from __future__ import annotations

import re

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from engine.commands import absences as absence_commands
from engine.errors import EngineError, Forbidden, NotFound, ValidationFailed
from engine.queries import work_people
from engine.rules.calendar import PUERTO_RICO, last_day_of, local_date

from api.web.blueprint import bp
from api.web.session import engine, login_required, web_actor
from api.web.views.common import read, role_labels

FIELDS = ("username", "from", "until", "substitute")
_LANE = re.compile(r"^does not hold the role (.+)$")


def _field_message(field: str, message: str) -> str:
    """The engine's per-field words (the API's, in English) as the page says them."""
    lane = _LANE.match(message)
    if lane:
        role = lane.group(1)
        return _("No tiene el rol «%(role)s», que tienen las tareas de la persona ausente.",
                 role=role_labels().get(role, role))
    known = {"no such user": _("No hay ningún usuario con ese nombre."),
             "must be someone else": _("La persona sustituta tiene que ser otra."),
             "must be after from": _("El último día no puede ser anterior al primero."),
             "expected YYYY-MM-DD or an ISO instant": _("Escriba una fecha válida (AAAA-MM-DD).")}
    if message in known:
        return known[message]
    return _("Escriba una fecha válida (AAAA-MM-DD).") if field in ("from", "until") else message


def _last_day(until):
    """The last day of an absence (it ends at 00:00 of the next day) or its end instant."""
    return last_day_of(until) or until.astimezone(PUERTO_RICO)


def _page(form=None, errors=None, status=200):
    actor = web_actor()
    data = read(work_people.absences_page, actor, engine().now())
    for absence in data["absences"]:
        absence["last_day"] = _last_day(absence["until"])
        absence["first_day"] = local_date(absence["from"])
    form = form or {"username": actor.username}
    return render_template("web/absences.html", form=form, errors=errors or {}, me=actor.username, **data), status


def _checked(form: dict, manages: bool) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}
    if manages and not form["username"]:
        errors["username"] = [_("Elija a la persona ausente.")]
    if not form["from"]:
        errors["from"] = [_("Escriba el primer día de la ausencia.")]
    if not form["until"]:
        errors["until"] = [_("Escriba el último día de la ausencia.")]
    if not form["substitute"]:
        errors["substitute"] = [_("Elija quién la sustituye.")]
    return errors


@bp.route("/absences", methods=["GET", "POST"])
@login_required
def absences():
    if request.method == "GET":
        return _page()
    actor = web_actor()
    manages = work_people.manages_absences(actor)
    form = {name: request.form.get(name, "").strip() for name in FIELDS}
    if not manages:
        form["username"] = actor.username  # the others' absences are a supervisor's or admin's to set
    errors = _checked(form, manages)
    if errors:
        return _page(form, errors, 422)
    try:
        engine().execute(absence_commands.set_absence, actor, form["username"], form["from"], form["until"],
                         form["substitute"])
    except ValidationFailed as exc:
        return _page(form, {f: [_field_message(f, m) for m in ms] for f, ms in exc.errors.items()}, 422)
    except NotFound:
        return _page(form, {"username": [_("No hay ningún usuario con ese nombre.")]}, 422)
    except Forbidden:
        return _page(form, {"username": [_("Solo un supervisor o un administrador fija la ausencia de otra persona.")]},
                     403)
    flash(_("Ausencia de %(user)s guardada: %(substitute)s la sustituye.", user=form["username"],
            substitute=form["substitute"]), "success")
    return redirect(url_for("web.absences"))


@bp.route("/absences/<string:username>/end", methods=["POST"])
@login_required
def absence_end(username):
    try:
        engine().execute(absence_commands.end_absence, web_actor(), username)
    except Forbidden:
        flash(_("Solo un supervisor o un administrador termina la ausencia de otra persona."), "error")
        return redirect(url_for("web.absences"))
    except EngineError as exc:
        flash(exc.message, "error")
        return redirect(url_for("web.absences"))
    flash(_("Ausencia de %(user)s terminada: sus tareas vuelven a ser solo suyas.", user=username), "success")
    return redirect(url_for("web.absences"))
