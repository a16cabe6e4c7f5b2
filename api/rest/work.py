"""Work management (supervisors): many tasks assigned or released at once, each as a single one."""
from __future__ import annotations

from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from engine.commands import work as commands

from api.rest.auth import actor, engine
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
