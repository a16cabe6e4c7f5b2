"""Schemas of the sign-in routes: passwords, agency API tokens, second factors."""
from __future__ import annotations

from marshmallow import validate, fields

from api.rest.schemas import _Strict


class PasswordChangeSchema(_Strict):
    password = fields.String(required=True, validate=validate.Length(min=8, max=200))
    current_password = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=200))
