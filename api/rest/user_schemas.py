"""Schemas of a user's changes: an admin's correction of a user, a user's own preferences."""
from __future__ import annotations

from marshmallow import fields, validate

from api.rest.schemas import _Strict


class UserUpdateSchema(_Strict):
    """Only what is given changes; `office` or `email` "" (or null) clears it."""
    full_name = fields.String(validate=validate.Length(max=200))
    office = fields.String(allow_none=True, validate=validate.Length(max=100))
    roles = fields.List(fields.String(validate=validate.Length(max=64)), validate=validate.Length(min=1, max=50))
    email = fields.String(allow_none=True, metadata={"format": "email"})


class PreferencesSchema(_Strict):
    daily_digest = fields.Boolean(required=True, metadata={
        "description": "supervisors: one e-mail a Puerto Rico day listing the overdue and due-soon tasks"})
