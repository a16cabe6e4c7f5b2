"""Marshmallow schemas of the registry endpoints (API.md §Registries), for validation and OpenAPI."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from engine.queries.registries import FARMER_STATUSES as STATUSES, PRODUCER_TYPES

from api.rest.schemas import PageArgs, _Strict

FARMER_ID = validate.Regexp(r"^F-[1-9][0-9]{0,8}$", error="a registry id looks like F-17")


class FarmerSchema(Schema):
    id = fields.String()
    name = fields.String()
    producer_type = fields.String()
    address = fields.String(allow_none=True)
    municipality = fields.String(allow_none=True)
    status = fields.String(metadata={"enum": list(STATUSES)})
    registered_on = fields.String(metadata={"format": "date"})
    renewal_due = fields.String(allow_none=True, metadata={"format": "date"})
    case_ids = fields.List(fields.Integer())
    updated_at = fields.String()


class FarmerListArgs(PageArgs):
    status = fields.String(validate=validate.OneOf(STATUSES))
    producer_type = fields.String(validate=validate.OneOf(PRODUCER_TYPES))


class FarmerCreateSchema(_Strict):
    id = fields.String(load_default=None, allow_none=True, validate=FARMER_ID,
                       metadata={"description": "kept as given (records imported from the paper registry); "
                                                "omitted: the next free F-<n>"})
    name = fields.String(required=True, validate=validate.Length(min=1, max=200))
    producer_type = fields.String(required=True, validate=validate.OneOf(PRODUCER_TYPES))
    address = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=300))
    municipality = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=100))
    status = fields.String(load_default="ACTIVE", validate=validate.OneOf(STATUSES))
    registered_on = fields.Date(metadata={"description": "default: today (the clock's date)"})
    renewal_due = fields.Date(allow_none=True, metadata={
        "description": "default: registered_on + farmer.renewalYears; null when unknown"})
    start_membership = fields.Boolean(load_default=False, metadata={
        "description": "also open the producer's membership case, so its renewals are followed"})


class FarmerPatchSchema(_Strict):
    name = fields.String(validate=validate.Length(min=1, max=200))
    producer_type = fields.String(validate=validate.OneOf(PRODUCER_TYPES))
    address = fields.String(allow_none=True, validate=validate.Length(max=300))
    municipality = fields.String(allow_none=True, validate=validate.Length(max=100))
    status = fields.String(validate=validate.OneOf(STATUSES))
    registered_on = fields.Date()
    renewal_due = fields.Date(allow_none=True)
