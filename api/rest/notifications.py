"""The notifications outbox of a case (notices to producers, Hacienda, buyers): who may read the
case may read its notices (supervisors all; staff the cases in their roles)."""
from __future__ import annotations

from flask_smorest import Blueprint
from marshmallow import Schema, fields

from engine.queries import cases as queries
from engine.queries.registries import NOTICE_CHANNELS, NOTICE_STATUSES

from api.rest.auth import actor, read_rows
from api.rest.responses import answer
from api.rest import ID

blp = Blueprint("notifications", __name__, url_prefix="/api/v1", description="Notifications outbox")


class NotificationSchema(Schema):
    id = fields.Integer()
    case_id = fields.Integer(allow_none=True)
    recipient = fields.String()
    address = fields.String(allow_none=True)
    channel = fields.String(metadata={"enum": list(NOTICE_CHANNELS)})
    subject = fields.String()
    body = fields.String()
    element_id = fields.String(allow_none=True)
    created_at = fields.String()
    sent_at = fields.String(allow_none=True)
    status = fields.String(metadata={"enum": list(NOTICE_STATUSES)})
    error = fields.String(allow_none=True)
    document_id = fields.Integer(allow_none=True, metadata={"description": "the generated letter this notice carries"})


@blp.route(f"/instances/<{ID}:instance_id>/notifications", methods=["GET"])
@blp.response(200, NotificationSchema(many=True))
def case_notifications(instance_id):
    """The notices a case wrote to the outbox, oldest first, with their sending status."""
    return answer(read_rows(queries.case_notifications, actor(), instance_id))
