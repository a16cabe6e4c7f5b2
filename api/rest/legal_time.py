"""Legal time: a supervisor suspends and resumes a case's deadlines (API.md §Legal time)."""
from __future__ import annotations

from flask_smorest import Blueprint
from marshmallow import fields, validate

from engine.commands.legal_time import resume_case, suspend_case

from api.rest import ID
from api.rest.auth import actor, engine
from api.rest.responses import answer
from api.rest.schemas import CaseSchema, _Strict

blp = Blueprint("legal_time", __name__, url_prefix="/api/v1", description="Legal time: suspended deadlines")


class SuspendSchema(_Strict):
    reason = fields.String(required=True, validate=validate.Length(min=1, max=2000))
    legal_basis = fields.String(required=True, validate=validate.Length(min=1, max=2000))
    until = fields.Date(load_default=None, allow_none=True,
                        metadata={"description": "the last day suspended; the case resumes by itself after it"})


@blp.route(f"/instances/<{ID}:instance_id>/suspend", methods=["POST"])
@blp.arguments(SuspendSchema())
@blp.response(200, CaseSchema)
def suspend(args, instance_id):
    """Stop the case's legal clock (supervisors): no timer of it fires until it resumes."""
    return answer(engine().execute(suspend_case, actor(), instance_id, args["reason"], args["legal_basis"],
                                   args["until"]))


@blp.route(f"/instances/<{ID}:instance_id>/resume", methods=["POST"])
@blp.response(200, CaseSchema)
def resume(instance_id):
    """Start the clock again (supervisors): every running deadline moves later by the days suspended."""
    return answer(engine().execute(resume_case, actor(), instance_id))
