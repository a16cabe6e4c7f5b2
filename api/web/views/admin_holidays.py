"""Admin: the holiday calendar (issue 19) — one year's legal holidays with their law, add a day (checked,
then confirmed: it may move running deadlines that end on it), remove a day (confirmed)."""
from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from engine.commands import holidays as commands
from engine.kernel import access
from engine.queries import holidays as queries
from engine.rules import calendar

from api.web.blueprint import bp
from api.web.session import allowed, engine
from api.web.views.common import read, run

FIELDS = ("date", "name_es", "name_en", "legal_source")


def _year() -> int:
    try:
        year = int(request.values.get("year", ""))
    except ValueError:
        year = 0
    return year if 1900 <= year <= 2200 else calendar.local_date(engine().now()).year


@bp.route("/admin/holidays", methods=["GET", "POST"])
@allowed(access.administers)
def admin_holidays():
    form, refusal, status = {}, None, 200
    year = _year()
    if request.method == "POST":
        form = {k: request.form.get(k, "").strip() for k in FIELDS}
        confirmed = request.form.get("confirm") == "1"
        command = commands.add_holiday if confirmed else commands.preview_holiday
        result, refusal = run(command, form["date"], form["name_es"], form["legal_source"],
                              name_en=form["name_en"] or None)
        if refusal is None and not confirmed:
            return render_template("web/admin/holiday_confirm.html", change=result, action="add", year=year)
        if refusal is None:
            flash(_("Feriado %(day)s añadido (%(name)s); plazos en curso movidos: %(n)d.", day=result["date"],
                    name=result["name_es"], n=len(result["deadlines_moved"])), "success")
            return redirect(url_for("web.admin_holidays", year=result["date"][:4]))
        status = refusal.status
    years = sorted({*read(queries.years), year})
    return render_template("web/admin/holidays.html", holidays=read(queries.list_holidays, year), year=year,
                           years=years, form=form, refusal=refusal), status


@bp.route("/admin/holidays/<string:day>/remove", methods=["GET", "POST"])
@allowed(access.administers)
def admin_holidays_remove(day):
    holiday = next((h for h in read(queries.list_holidays) if h["date"] == day), None)
    if holiday is None:
        flash(_("Ese día no está en el calendario de feriados."), "error")
        return redirect(url_for("web.admin_holidays"))
    if request.method == "GET":
        return render_template("web/admin/holiday_confirm.html", change=holiday, action="remove", year=int(day[:4]))
    _done, refusal = run(commands.remove_holiday, day)
    if refusal is not None:
        flash(refusal.message, "error")
    else:
        flash(_("Feriado %(day)s quitado: los plazos que se calculen desde ahora lo cuentan como laborable.",
                day=day), "success")
    return redirect(url_for("web.admin_holidays", year=day[:4]))
