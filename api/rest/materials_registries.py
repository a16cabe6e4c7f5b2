"""Registries of the materials aid programme (API.md §Registries): beneficiaries, hardware stores,
and the Regional Offices that serve each town."""
from __future__ import annotations

from flask_smorest import Blueprint

from engine.commands import registries as commands
from engine.queries import registries as queries

from api.rest.auth import actor, engine
from api.rest.materials_registry_schemas import (
    BeneficiaryCreateSchema, BeneficiaryListArgs, BeneficiaryPatchSchema, BeneficiarySchema,
    RegionalOfficeSchema, StoreCreateSchema, StoreListArgs, StorePatchSchema, StoreSchema,
)
from api.rest.pagination import page_response

blp = Blueprint("materials_registries", __name__, url_prefix="/api/v1/registries",
                description="Materials aid registries")


@blp.route("/beneficiaries", methods=["GET"])
@blp.arguments(BeneficiaryListArgs(), location="query")
@blp.response(200, BeneficiarySchema(many=True))
def list_beneficiaries(args):
    """Materials-aid beneficiaries and their last use of materials (MAT-30); `q` searches id and name."""
    page, per_page = args.pop("page"), args.pop("per_page")
    items, total = engine().read(queries.list_beneficiaries, page=page, per_page=per_page, **args)
    return page_response(items, total, page, per_page)


@blp.route("/beneficiaries/<string:applicant_id>", methods=["GET"])
@blp.response(200, BeneficiarySchema)
def get_beneficiary(applicant_id):
    return engine().read(queries.get_beneficiary, applicant_id)


@blp.route("/beneficiaries", methods=["POST"])
@blp.arguments(BeneficiaryCreateSchema())
@blp.response(201, BeneficiarySchema)
def create_beneficiary(args):
    """Add an entry (admin), e.g. a beneficiary imported from the paper files with its last use date."""
    return engine().execute(commands.create_beneficiary, actor(), **args)


@blp.route("/beneficiaries/<string:applicant_id>", methods=["PATCH"])
@blp.arguments(BeneficiaryPatchSchema())
@blp.response(200, BeneficiarySchema)
def correct_beneficiary(args, applicant_id):
    """Correct an entry (admin); every change is written to the audit log."""
    return engine().execute(commands.correct_beneficiary, actor(), applicant_id, args)


@blp.route("/stores", methods=["GET"])
@blp.arguments(StoreListArgs(), location="query")
@blp.response(200, StoreSchema(many=True))
def list_stores(args):
    """Hardware stores and whether they are inscribed in the Registro de Licitadores (MAT-15)."""
    page, per_page = args.pop("page"), args.pop("per_page")
    items, total = engine().read(queries.list_stores, page=page, per_page=per_page, **args)
    return page_response(items, total, page, per_page)


@blp.route("/stores/<string:store_id>", methods=["GET"])
@blp.response(200, StoreSchema)
def get_store(store_id):
    return engine().read(queries.get_store, store_id)


@blp.route("/stores", methods=["POST"])
@blp.arguments(StoreCreateSchema())
@blp.response(201, StoreSchema)
def create_store(args):
    """Add a store (admin) with its number in the Registro de Licitadores."""
    return engine().execute(commands.create_store, actor(), **args)


@blp.route("/stores/<string:store_id>", methods=["PATCH"])
@blp.arguments(StorePatchSchema())
@blp.response(200, StoreSchema)
def correct_store(args, store_id):
    """Correct a store (admin), e.g. mark one that left the Registro; audited."""
    return engine().execute(commands.correct_store, actor(), store_id, args)


@blp.route("/regional_offices", methods=["GET"])
@blp.response(200, RegionalOfficeSchema(many=True))
def list_regional_offices():
    """The Regional Offices and the municipalities each serves (MAT-08); staff `office` is the id."""
    return engine().read(queries.regional_offices)
