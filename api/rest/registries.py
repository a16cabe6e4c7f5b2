"""Registries that outlive a case: the farmer registry (API.md §Registries)."""
from __future__ import annotations

from flask_smorest import Blueprint

from engine.commands import registries as commands
from engine.queries import registries as queries

from api.rest.auth import actor, engine
from api.rest.pagination import page_response
from api.rest.registry_schemas import FarmerCreateSchema, FarmerListArgs, FarmerPatchSchema, FarmerSchema

blp = Blueprint("registries", __name__, url_prefix="/api/v1/registries", description="Registries")


@blp.route("/farmers", methods=["GET"])
@blp.arguments(FarmerListArgs(), location="query")
@blp.response(200, FarmerSchema(many=True))
def list_farmers(args):
    """Registered bona fide producers, in registry order; filter by status and producer type."""
    page, per_page = args.pop("page"), args.pop("per_page")
    items, total = engine().read(queries.list_farmers, page=page, per_page=per_page, **args)
    return page_response(items, total, page, per_page)


@blp.route("/farmers/<string:registry_id>", methods=["GET"])
@blp.response(200, FarmerSchema)
def get_farmer(registry_id):
    return engine().read(queries.get_farmer, registry_id)


@blp.route("/farmers", methods=["POST"])
@blp.arguments(FarmerCreateSchema())
@blp.response(201, FarmerSchema)
def create_farmer(args):
    """Add an entry (admin), e.g. a producer imported from the paper registry with its own id."""
    return engine().execute(commands.create_farmer, actor(), **args)


@blp.route("/farmers/<string:registry_id>", methods=["PATCH"])
@blp.arguments(FarmerPatchSchema())
@blp.response(200, FarmerSchema)
def correct_farmer(args, registry_id):
    """Correct an entry (admin); every change is written to the audit log."""
    return engine().execute(commands.correct_farmer, actor(), registry_id, args)
