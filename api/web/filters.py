"""Jinja filters: instants on Puerto Rico's clock, days left, values of any JSON shape."""
from __future__ import annotations

import json

from babel.numbers import format_decimal
from flask import Flask
from flask_babel import gettext as _

from engine.rules.money import money as exact_money

from api.web import deadlines, i18n


def pretty_json(value) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True, default=str)


def plain(value) -> str:
    """A variable's value in one line: yes/no for booleans, lists joined, objects as JSON."""
    if value is None:
        return "—"
    if value is True:
        return _("Sí")
    if value is False:
        return _("No")
    if isinstance(value, list):
        return ", ".join(plain(v) for v in value) if all(not isinstance(v, (dict, list)) for v in value) \
            else json.dumps(value, ensure_ascii=False, default=str)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, default=str)
    return str(value)


def money(value) -> str:
    """An amount as Puerto Rico writes it ("$1,200.50"); what is no amount shows as it is."""
    try:
        amount = exact_money(value)
    except ValueError:
        return str(value)
    return "$" + format_decimal(amount, "#,##0.00", locale=i18n.format_locale())


def install(app: Flask) -> None:
    app.jinja_env.filters.update(
        instant=i18n.instant, day=i18n.day, pretty_json=pretty_json, plain=plain, money=money,
        days_left=i18n.days_left_text)
    app.jinja_env.filters.update(last_day=deadlines.last_day, days_to_act=deadlines.days_to_act)
    app.jinja_env.globals.update(due_status=i18n.due_status, days_left_number=i18n.days_left)
