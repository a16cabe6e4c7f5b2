"""The managed holiday calendar (issue 19): anyone signed in reads it; an admin adds and removes days.

GET /holidays?year=YYYY, POST /holidays, DELETE /holidays/{date}. Adding a day moves the running
deadlines that end on it (engine/commands/holiday_deadlines.py); removing one never shortens a deadline.
"""
from __future__ import annotations

from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from engine.commands import holidays as commands
from engine.queries import holidays as queries

from api.rest.auth import actor, engine
from api.rest.schemas import _Strict

blp = Blueprint("holidays", __name__, url_prefix="/api/v1", description="The holiday calendar")


class HolidaySchema(Schema):
    date = fields.String(metadata={"description": "YYYY-MM-DD"})
    name_es = fields.String()
    name_en = fields.String()
    legal_source = fields.String()
    added_by = fields.String()
    added_at = fields.String()


class MovedDeadlineSchema(Schema):
    case_number = fields.String()
    element_id = fields.String()
    name = fields.String()
    before = fields.String()
    after = fields.String()


class HolidayAddedSchema(HolidaySchema):
    deadlines_moved = fields.List(fields.Nested(MovedDeadlineSchema))


class HolidayListArgs(_Strict):
    year = fields.Integer(load_default=None, validate=validate.Range(min=1900, max=2200))


class HolidayCreateSchema(_Strict):
    # Checked by the engine, which answers 422 per field with the same words as the web page.
    date = fields.String(required=True, metadata={"description": "YYYY-MM-DD"})
    name_es = fields.String(required=True)
    name_en = fields.String(load_default=None, allow_none=True, metadata={"description": "default: name_es"})
    legal_source = fields.String(required=True, metadata={"description": "the law or order that sets the day"})


@blp.route("/holidays", methods=["GET"])
@blp.arguments(HolidayListArgs(), location="query")
@blp.response(200, HolidaySchema(many=True))
def list_holidays(args):
    """The holidays of `year` (all without it), in date order."""
    return engine().read(queries.list_holidays, args["year"])


@blp.route("/holidays", methods=["POST"])
@blp.arguments(HolidayCreateSchema())
@blp.response(201, HolidayAddedSchema)
def add_holiday(args):
    """Add a legal holiday (admin). Running deadlines whose last day it is roll to the next business day."""
    return engine().execute(commands.add_holiday, actor(), args["date"], args["name_es"], args["legal_source"],
                            name_en=args["name_en"])


@blp.route("/holidays/<string:day>", methods=["DELETE"])
@blp.response(200, HolidaySchema)
def remove_holiday(day):
    """Remove a holiday (admin): deadlines computed from now on count it as a working day."""
    return engine().execute(commands.remove_holiday, actor(), day)
