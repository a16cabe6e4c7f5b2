"""Schemas of the sign-in routes: passwords, agency API tokens, second factors."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.rest.schemas import _Strict


class PasswordChangeSchema(_Strict):
    password = fields.String(required=True, validate=validate.Length(min=8, max=200))
    current_password = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=200))


class AgencyTokenCreateSchema(_Strict):
    name = fields.String(required=True, validate=validate.Length(min=1, max=64))
    roles = fields.List(fields.String(validate=validate.Length(max=64)), required=True,
                        validate=validate.Length(min=1, max=50))
    expires_in_days = fields.Integer(load_default=90, strict=True)
    office = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=100))


class AgencyTokenSchema(Schema):
    id = fields.Integer()
    name = fields.String()
    actor = fields.String(metadata={"description": "the name its actions are recorded under"})
    roles = fields.List(fields.String())
    office = fields.String(allow_none=True)
    created_by = fields.String()
    created_at = fields.String()
    expires_at = fields.String()
    revoked_at = fields.String(allow_none=True)
    state = fields.String(metadata={"enum": ["active", "expired", "revoked"]})


class NewAgencyTokenSchema(AgencyTokenSchema):
    token = fields.String(metadata={"description": "shown this once; only its hash is kept"})
