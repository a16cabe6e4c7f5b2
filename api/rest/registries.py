"""Registries that outlive a case: the farmer registry (API.md §Registries)."""
from __future__ import annotations

from flask_smorest import Blueprint

from engine.errors import ValidationFailed
from engine.registries import farmers
from engine.procedures.farmer_registry.bindings import start_membership_case

from api.rest.auth import actor, engine, require_admin
from api.rest.pagination import page_response
from api.rest.registry_schemas import FarmerCreateSchema, FarmerListArgs, FarmerPatchSchema, FarmerSchema

blp = Blueprint("registries", __name__, url_prefix="/api/v1/registries", description="Registries")


@blp.route("/farmers", methods=["GET"])
@blp.arguments(FarmerListArgs(), location="query")
@blp.response(200, FarmerSchema(many=True))
def list_farmers(args):
    """Registered bona fide producers, in registry order; filter by status and producer type."""
    page, per_page = args.pop("page"), args.pop("per_page")
    items, total = engine().read(farmers.list_entries, page=page, per_page=per_page, **args)
    return page_response(items, total, page, per_page)


@blp.route("/farmers/<string:registry_id>", methods=["GET"])
@blp.response(200, FarmerSchema)
def get_farmer(registry_id):
    return engine().read(lambda s: farmers.view(farmers.get(s, registry_id)))


@blp.route("/farmers", methods=["POST"])
@blp.arguments(FarmerCreateSchema())
@blp.response(201, FarmerSchema)
def create_farmer(args):
    """Add an entry (admin), e.g. a producer imported from the paper registry with its own id."""
    require_admin()
    follow = args.pop("start_membership")
    if follow and (args.get("renewal_due", True) is None or args["status"] == farmers.REMOVED):
        raise ValidationFailed("a membership needs a renewal date and an entry that is not removed",
                               {"start_membership": ["needs renewal_due and a status other than REMOVED"]})

    def command(ctx):
        record = farmers.import_entry(ctx, **args)
        if follow:
            start_membership_case(ctx, record.id)
        return farmers.view(farmers.get(ctx.session, record.id))
    return engine().execute(command, actor())


@blp.route("/farmers/<string:registry_id>", methods=["PATCH"])
@blp.arguments(FarmerPatchSchema())
@blp.response(200, FarmerSchema)
def correct_farmer(args, registry_id):
    """Correct an entry (admin); every change is written to the audit log."""
    require_admin()
    return engine().execute(lambda ctx: farmers.view(farmers.update(ctx, registry_id, args)), actor())
