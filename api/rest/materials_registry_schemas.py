"""Marshmallow schemas of the materials-aid registries (API.md §Registries), for validation and OpenAPI."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.rest.schemas import PageArgs, _Strict

REGISTRY_ID = validate.Regexp(r"^\S{1,60}$", error="an id has no spaces (e.g. REC-0001, RL-1001)")


class BeneficiarySchema(Schema):
    id = fields.String(metadata={"description": "the applicant's `applicant.id`"})
    name = fields.String()
    municipality = fields.String(allow_none=True)
    last_use_date = fields.String(allow_none=True, metadata={"format": "date",
                                                             "description": "start of the 2-year wait (MAT-30)"})
    last_outcome = fields.String(allow_none=True)
    case_ids = fields.List(fields.Integer())
    updated_at = fields.String()


class BeneficiaryListArgs(PageArgs):
    q = fields.String(metadata={"description": "part of the id or the name"})


class BeneficiaryCreateSchema(_Strict):
    id = fields.String(required=True, validate=REGISTRY_ID)
    name = fields.String(required=True, validate=validate.Length(min=1, max=200))
    municipality = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=100))
    last_use_date = fields.Date(load_default=None, allow_none=True)
    last_outcome = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=40))


class BeneficiaryPatchSchema(_Strict):
    name = fields.String(validate=validate.Length(min=1, max=200))
    municipality = fields.String(allow_none=True, validate=validate.Length(max=100))
    last_use_date = fields.Date(allow_none=True)
    last_outcome = fields.String(allow_none=True, validate=validate.Length(max=40))


class StoreSchema(Schema):
    id = fields.String(metadata={"description": "number in the Registro de Licitadores, e.g. RL-1001"})
    name = fields.String()
    registered = fields.Boolean(metadata={"description": "inscribed in the Registro de Licitadores (MAT-15)"})
    municipality = fields.String(allow_none=True)
    updated_at = fields.String()


class StoreListArgs(PageArgs):
    registered = fields.Boolean()
    q = fields.String(metadata={"description": "part of the id or the name"})


class StoreCreateSchema(_Strict):
    id = fields.String(required=True, validate=REGISTRY_ID)
    name = fields.String(required=True, validate=validate.Length(min=1, max=200))
    registered = fields.Boolean(load_default=True)
    municipality = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=100))


class StorePatchSchema(_Strict):
    name = fields.String(validate=validate.Length(min=1, max=200))
    registered = fields.Boolean()
    municipality = fields.String(allow_none=True, validate=validate.Length(max=100))


class RegionalOfficeSchema(Schema):
    id = fields.String(metadata={"description": "the `office` of the office's staff accounts"})
    name = fields.String()
    municipalities = fields.List(fields.String())
