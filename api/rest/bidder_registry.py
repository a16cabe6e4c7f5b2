"""The bidder registry of the Junta de Subastas (API.md §Registries): bans and withdrawals, and the
fiscal-year locks on similar purchases. Everyone signed in may read it; admins correct it, audited."""
from __future__ import annotations

from datetime import date

from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from engine.rules.calendar import add_months, local_date
from engine.errors import ValidationFailed
from engine.config.parameters import snapshot, typed_value
from engine.registries import bidders
from engine.rules.bid_adjudication import similar_purchase_allowed

from api.rest.auth import actor, engine, require_admin
from api.rest.pagination import page_response
from api.rest.schemas import PageArgs, _Strict

blp = Blueprint("bidder_registry", __name__, url_prefix="/api/v1/registries", description="Bidder registry")
BIDDER_ID = validate.Regexp(bidders.ID_PATTERN.pattern, error="letters, digits and . _ - (up to 40)")


class SanctionSchema(Schema):
    id = fields.Integer()
    bidder_id = fields.String()
    kind = fields.String(metadata={"enum": list(bidders.SANCTION_KINDS)})
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
    kind = fields.String(load_default="ban", validate=validate.OneOf(bidders.SANCTION_KINDS))
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


def _add_sanction(ctx, bidder_id: str, sanction: dict) -> None:
    months = sanction.get("months")
    if sanction["kind"] == "ban" and months is None:
        raise ValidationFailed("a ban runs for a number of months", {"sanction.months": ["required for a ban"]})
    eligible = add_months(sanction["from_"], months) if months is not None else None
    bidders.add_sanction(ctx, bidder_id, kind=sanction["kind"], from_date=sanction["from_"], eligible_again=eligible,
                         months=months, reason=sanction["reason"])


def _view(ctx, bidder_id: str) -> dict:
    return bidders.view(ctx.session, bidders.get(ctx.session, bidder_id), local_date(ctx.now))


@blp.route("/bidders", methods=["GET"])
@blp.arguments(BidderListArgs(), location="query")
@blp.response(200, BidderSchema(many=True))
def list_bidders(args):
    """Bidders of the registry; `banned=true` lists those who may not bid today."""
    today = local_date(engine().now())
    page, per_page = args.pop("page"), args.pop("per_page")
    items, total = engine().read(bidders.list_entries, today, banned=args.get("banned"), page=page,
                                 per_page=per_page)
    return page_response(items, total, page, per_page)


@blp.route("/bidders/<string:bidder_id>", methods=["GET"])
@blp.response(200, BidderSchema)
def get_bidder(bidder_id):
    today = local_date(engine().now())
    return engine().read(lambda s: bidders.view(s, bidders.get(s, bidder_id), today))


@blp.route("/bidders", methods=["POST"])
@blp.arguments(BidderCreateSchema())
@blp.response(201, BidderSchema)
def create_bidder(args):
    """Add a bidder (admin), e.g. from the paper Registro de Licitadores, with a sanction in force."""
    require_admin()

    def command(ctx):
        bidders.create(ctx, id=args["id"], name=args["name"])
        if args.get("sanction"):
            _add_sanction(ctx, args["id"], args["sanction"])
        return _view(ctx, args["id"])
    return engine().execute(command, actor())


@blp.route("/bidders/<string:bidder_id>", methods=["PATCH"])
@blp.arguments(BidderPatchSchema())
@blp.response(200, BidderSchema)
def correct_bidder(args, bidder_id):
    """Correct a bidder (admin): rename, add a sanction, or lift those in force; each change audited."""
    require_admin()

    def command(ctx):
        bidders.get(ctx.session, bidder_id)
        if args.get("name"):
            bidders.rename(ctx, bidder_id, args["name"])
        if args.get("lift_sanctions"):
            bidders.lift_sanctions(ctx, bidder_id, local_date(ctx.now))
        if args.get("sanction"):
            _add_sanction(ctx, bidder_id, args["sanction"])
        return _view(ctx, bidder_id)
    return engine().execute(command, actor())


@blp.route("/purchase_locks", methods=["GET"])
@blp.arguments(PurchaseLockArgs(), location="query")
@blp.response(200, PurchaseLockSchema)
def purchase_lock(args):
    """BID-36: may a purchase similar to `matter` be made today, by any means (bid or quotes)?"""
    today: date = local_date(engine().now())

    def query(session):
        scope = typed_value("bid.noSimilarPurchaseScope", snapshot(session.connection()), session)
        locks = bidders.purchase_locks(session, args["matter"])
        decision = similar_purchase_allowed(args["matter"], today, locks, args.get("emergency_justification"), scope)
        return {"matter": args["matter"], "allowed": bool(decision.outcome), "locks": locks}
    return engine().read(query)
