"""The bidder registry of the Junta de Subastas (API.md §Registries): bans and withdrawals, and the
fiscal-year locks on similar purchases. Everyone signed in may read it; admins correct it, audited."""
from __future__ import annotations

from flask_smorest import Blueprint

from engine.commands import registries as commands
from engine.queries import registries as queries

from api.rest.auth import actor, engine
from api.rest.bidder_schemas import (
    BidderCreateSchema, BidderListArgs, BidderPatchSchema, BidderSchema, PurchaseLockArgs, PurchaseLockSchema,
)
from api.rest.pagination import page_response

blp = Blueprint("bidder_registry", __name__, url_prefix="/api/v1/registries", description="Bidder registry")


@blp.route("/bidders", methods=["GET"])
@blp.arguments(BidderListArgs(), location="query")
@blp.response(200, BidderSchema(many=True))
def list_bidders(args):
    """Bidders of the registry; `banned=true` lists those who may not bid today."""
    page, per_page = args.pop("page"), args.pop("per_page")
    items, total = engine().read(queries.list_bidders, engine().now(), banned=args.get("banned"), page=page,
                                 per_page=per_page)
    return page_response(items, total, page, per_page)


@blp.route("/bidders/<string:bidder_id>", methods=["GET"])
@blp.response(200, BidderSchema)
def get_bidder(bidder_id):
    return engine().read(queries.get_bidder, engine().now(), bidder_id)


@blp.route("/bidders", methods=["POST"])
@blp.arguments(BidderCreateSchema())
@blp.response(201, BidderSchema)
def create_bidder(args):
    """Add a bidder (admin), e.g. from the paper Registro de Licitadores, with a sanction in force."""
    return engine().execute(commands.create_bidder, actor(), **args)


@blp.route("/bidders/<string:bidder_id>", methods=["PATCH"])
@blp.arguments(BidderPatchSchema())
@blp.response(200, BidderSchema)
def correct_bidder(args, bidder_id):
    """Correct a bidder (admin): rename, add a sanction, or lift those in force; each change audited."""
    return engine().execute(commands.correct_bidder, actor(), bidder_id, **args)


@blp.route("/purchase_locks", methods=["GET"])
@blp.arguments(PurchaseLockArgs(), location="query")
@blp.response(200, PurchaseLockSchema)
def purchase_lock(args):
    """BID-36: may a purchase similar to `matter` be made today, by any means (bid or quotes)?"""
    return engine().read(queries.purchase_lock, engine().now(), args["matter"], args.get("emergency_justification"))
