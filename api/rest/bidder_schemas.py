"""Marshmallow schemas of the bidder registry (API.md §Registries), for validation and OpenAPI; the
admin pages read their forms through the same ones."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from engine.queries.registries import BIDDER_ID_PATTERN, SANCTION_KINDS

from api.rest.schemas import PageArgs, _Strict

BIDDER_ID = validate.Regexp(BIDDER_ID_PATTERN.pattern, error="letters, digits and . _ - (up to 40)")


class SanctionSchema(Schema):
    id = fields.Integer()
    bidder_id = fields.String()
    kind = fields.String(metadata={"enum": list(SANCTION_KINDS)})
    months = fields.Integer(allow_none=True)
    from_ = fields.String(data_key="from", attribute="from", metadata={"format": "date"})
    through = fields.String(allow_none=True, metadata={"format": "date"})
    eligible_again = fields.String(allow_none=True, metadata={"format": "date"})
    lifted_on = fields.String(allow_none=True, metadata={"format": "date"})
    reason = fields.String(allow_none=True)
    case_id = fields.Integer(allow_none=True)


class BidderSchema(Schema):
    id = fields.String()
    name = fields.String()
    banned = fields.Boolean()
    banned_until = fields.String(allow_none=True, metadata={"format": "date", "description": "last day of the ban"})
    eligible_again = fields.String(allow_none=True, metadata={"format": "date"})
    reason = fields.String(allow_none=True)
    case_id = fields.Integer(allow_none=True)
    sanctions = fields.List(fields.Nested(SanctionSchema))
    updated_at = fields.String()


class BidderListArgs(PageArgs):
    banned = fields.Boolean(metadata={"description": "true: only bidders under a ban or withdrawal today"})


class NewSanctionSchema(_Strict):
    kind = fields.String(load_default="ban", validate=validate.OneOf(SANCTION_KINDS))
    from_ = fields.Date(data_key="from", required=True)
    months = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(min=1, max=120))
    reason = fields.String(required=True, validate=validate.Length(min=1, max=2000))


class BidderCreateSchema(_Strict):
    id = fields.String(required=True, validate=BIDDER_ID)
    name = fields.String(required=True, validate=validate.Length(min=1, max=200))
    sanction = fields.Nested(NewSanctionSchema, load_default=None, allow_none=True)


class BidderPatchSchema(_Strict):
    name = fields.String(validate=validate.Length(min=1, max=200))
    sanction = fields.Nested(NewSanctionSchema, allow_none=True)
    lift_sanctions = fields.Boolean(metadata={"description": "end every sanction in force, as of today"})


class PurchaseLockArgs(_Strict):
    matter = fields.String(required=True, validate=validate.Length(min=1, max=300))
    emergency_justification = fields.String(load_default=None)


class PurchaseLockSchema(Schema):
    matter = fields.String()
    allowed = fields.Boolean()
    locks = fields.List(fields.Dict())
