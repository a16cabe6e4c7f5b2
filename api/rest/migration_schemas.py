"""Request and answer shapes of running-case repair: migration between versions and a move."""
from __future__ import annotations

from marshmallow import fields, validate

from api.rest.schemas import MAX_ID, MAX_VERSION, _Strict

_ELEMENT = validate.Length(min=1, max=255)


class MigrationSchema(_Strict):
    from_version = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=MAX_VERSION))
    to_version = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=MAX_VERSION))
    instance_ids = fields.List(fields.Integer(strict=True, validate=validate.Range(min=1, max=MAX_ID)),
                               load_default=None, allow_none=True, validate=validate.Length(max=100_000))
    dry_run = fields.Boolean(load_default=False)
    mapping = fields.Dict(keys=fields.String(validate=_ELEMENT), values=fields.String(validate=_ELEMENT),
                          load_default=None, allow_none=True,
                          metadata={"description": "old element id → new element id, for renamed elements"})
    reason = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=2000))


class BlockedSchema(_Strict):
    id = fields.Integer()
    reason = fields.String()


class MigrationResultSchema(_Strict):
    migrated = fields.List(fields.Integer())
    blocked = fields.List(fields.Nested(BlockedSchema))


class MoveSchema(_Strict):
    from_element = fields.String(required=True, validate=_ELEMENT)
    to_element = fields.String(required=True, validate=_ELEMENT)
    reason = fields.String(required=True, validate=validate.Length(min=1, max=2000))
