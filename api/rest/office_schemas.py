"""Schemas of the office list's routes and of an admin's password reset."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.rest.schemas import UserSchema, _Strict

TOWNS = fields.List(fields.String(validate=validate.Length(min=1, max=100)), validate=validate.Length(max=200))


class OfficeSchema(Schema):
    id = fields.String()
    name_es = fields.String()
    name_en = fields.String()
    municipalities = fields.List(fields.String())
    active = fields.Boolean()
    users = fields.Integer()
    running_cases = fields.Integer()


class OfficeListArgs(_Strict):
    all = fields.Boolean(load_default=False, metadata={"description": "deactivated offices too, with their "
                                                                       "users and running cases (admin)"})


class OfficeCreateSchema(_Strict):
    id = fields.String(required=True, validate=validate.Length(min=1, max=100))
    name_es = fields.String(required=True, validate=validate.Length(min=1, max=200))
    name_en = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=200))
    municipalities = TOWNS


class OfficeChangeSchema(_Strict):
    name_es = fields.String(validate=validate.Length(min=1, max=200))
    name_en = fields.String(validate=validate.Length(max=200))
    municipalities = TOWNS
    active = fields.Boolean()


class PasswordResetSchema(_Strict):
    temporary_password = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=8, max=200))


class PasswordResetResultSchema(Schema):
    user = fields.Nested(UserSchema)
    temporary_password = fields.String()
