"""Work management (supervisors): many tasks assigned or released at once, each as a single one;
absences and their substitutes; the cycle-time report."""
from __future__ import annotations

from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from engine.commands import absences as absence_commands, work as commands
from engine.queries import reports

from api.rest.auth import actor, engine, read_rows
from api.rest.responses import answer
from api.rest.schemas import MAX_ID, _Strict

blp = Blueprint("work", __name__, url_prefix="/api/v1", description="Work management (supervisors)")

# A bulk request is one screen of tasks, not the whole table: each task is its own transaction.
MAX_BULK = 500
_TASK_IDS = fields.List(fields.Integer(validate=validate.Range(min=1, max=MAX_ID)), required=True,
                        validate=validate.Length(min=1, max=MAX_BULK))


class BulkAssignSchema(_Strict):
    task_ids = _TASK_IDS
    username = fields.String(required=True, validate=validate.Length(min=1, max=100))


class BulkReleaseSchema(_Strict):
    task_ids = _TASK_IDS


class RefusedSchema(Schema):
    id = fields.Integer()
    code = fields.String()
    message = fields.String()


class BulkAssignResultSchema(Schema):
    assigned = fields.List(fields.Integer())
    refused = fields.List(fields.Nested(RefusedSchema))


class BulkReleaseResultSchema(Schema):
    released = fields.List(fields.Integer())
    refused = fields.List(fields.Nested(RefusedSchema))


@blp.route("/tasks/bulk-assign", methods=["POST"])
@blp.arguments(BulkAssignSchema())
@blp.response(200, BulkAssignResultSchema)
def bulk_assign(args):
    """Assign (or reassign) each task to `username`; the refused ones say why, the others stand."""
    return answer(commands.bulk_assign(engine(), actor(), args["task_ids"], args["username"]))


@blp.route("/tasks/bulk-release", methods=["POST"])
@blp.arguments(BulkReleaseSchema())
@blp.response(200, BulkReleaseResultSchema)
def bulk_release(args):
    """Release each task back to its lane; the refused ones say why, the others stand."""
    return answer(commands.bulk_release(engine(), actor(), args["task_ids"]))


class AbsenceSchema(_Strict):
    from_ = fields.String(required=True, data_key="from", validate=validate.Length(min=10, max=40),
                          metadata={"description": "YYYY-MM-DD (from that day's start, Puerto Rico) or an ISO instant"})
    until = fields.String(required=True, validate=validate.Length(min=10, max=40),
                          metadata={"description": "YYYY-MM-DD (through that whole day) or an ISO instant"})
    substitute = fields.String(required=True, validate=validate.Length(min=1, max=100))


class AbsenceResultSchema(Schema):
    username = fields.String()
    substitute = fields.String()
    from_ = fields.String(data_key="from")
    until = fields.String()


@blp.route("/users/<string:username>/absence", methods=["PUT"])
@blp.arguments(AbsenceSchema())
@blp.response(200, AbsenceResultSchema)
def set_absence(args, username):
    """While the absence lasts, the substitute (who holds the user's lanes) lists and completes the user's tasks."""
    return answer(engine().execute(absence_commands.set_absence, actor(), username, args["from_"], args["until"],
                                   args["substitute"]))


@blp.route("/users/<string:username>/absence", methods=["DELETE"])
@blp.response(204)
def end_absence(username):
    """The absence ends now: the substitute no longer lists or acts on the user's tasks."""
    engine().execute(absence_commands.end_absence, actor(), username)


class CycleTimeArgs(_Strict):
    process = fields.String(validate=validate.Length(min=1, max=100))
    from_ = fields.String(data_key="from", validate=validate.Length(equal=10),
                          metadata={"description": "YYYY-MM-DD: tasks completed from that day (Puerto Rico)"})
    to = fields.String(validate=validate.Length(equal=10),
                       metadata={"description": "YYYY-MM-DD: tasks completed through that day"})
    office = fields.String(validate=validate.Length(min=1, max=100),
                           metadata={"description": "only the cases of that office"})


class _TimesSchema(Schema):
    process = fields.String()
    count = fields.Integer()
    median_hours = fields.Float()
    p90_hours = fields.Float()
    with_due_date = fields.Integer()
    on_time_pct = fields.Float(allow_none=True)


class CycleTimeRowSchema(_TimesSchema):
    element_id = fields.String()
    name = fields.String()


class StageTimeRowSchema(_TimesSchema):
    stage = fields.String()


class DeadlineRowSchema(Schema):
    process = fields.String()
    element_id = fields.String()
    name = fields.String()
    count = fields.Integer()
    met = fields.Integer()
    missed = fields.Integer()
    on_time_pct = fields.Float(allow_none=True)


class SuspensionRowSchema(Schema):
    process = fields.String()
    count = fields.Integer(metadata={"description": "suspensions resumed in the window"})
    cases = fields.Integer()
    hours = fields.Float(metadata={"description": "hours the clock stood still (resumed suspensions)"})
    days_moved = fields.Integer(metadata={"description": "calendar days the deadlines moved"})
    running = fields.Integer(metadata={"description": "suspensions not resumed yet"})


class MonthRowSchema(Schema):
    month = fields.String(metadata={"description": "YYYY-MM, Puerto Rico"})
    office = fields.String(allow_none=True)
    opened = fields.Integer()
    closed = fields.Integer()


class CycleTimesSchema(Schema):
    process = fields.String(allow_none=True)
    from_ = fields.String(data_key="from", allow_none=True)
    to = fields.String(allow_none=True)
    office = fields.String(allow_none=True)
    tasks = fields.List(fields.Nested(CycleTimeRowSchema))
    stages = fields.List(fields.Nested(StageTimeRowSchema))
    deadlines = fields.List(fields.Nested(DeadlineRowSchema))
    suspensions = fields.List(fields.Nested(SuspensionRowSchema))
    months = fields.List(fields.Nested(MonthRowSchema))


@blp.route("/reports/cycle-times", methods=["GET"])
@blp.arguments(CycleTimeArgs(), location="query")
@blp.response(200, CycleTimesSchema)
def cycle_times(args):
    """Per task element and per stage: count, median and p90 hours, % done by the due date; legal
    deadlines met, time suspended, cases opened and closed per month and office."""
    return answer(read_rows(reports.cycle_times, actor(), args.get("process"), args.get("from_"), args.get("to"),
                            office=args.get("office")))
