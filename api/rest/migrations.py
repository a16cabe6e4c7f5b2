"""Running cases repaired: migration to another version, and a supervisor's move (API.md)."""
from __future__ import annotations

from flask_smorest import Blueprint

from engine.commands.migrations import migrate_cases
from engine.commands.moves import move_case

from api.rest import ID
from api.rest.auth import actor, engine
from api.rest.migration_schemas import MigrationResultSchema, MigrationSchema, MoveSchema
from api.rest.responses import answer
from api.rest.schemas import CaseSchema

blp = Blueprint("migrations", __name__, url_prefix="/api/v1", description="Running cases: migration and repair")


@blp.route("/processes/<string:key>/migrations", methods=["POST"])
@blp.arguments(MigrationSchema())
@blp.response(200, MigrationResultSchema)
def migrate(args, key):
    """Move running cases of `key` from one version to another (process owners, admin); each case
    in its own transaction; `dry_run` answers what a run would do and changes nothing."""
    return answer(migrate_cases(engine(), actor(), key, args["from_version"], args["to_version"],
                                args["instance_ids"], args["dry_run"], args["mapping"], args["reason"]))


@blp.route(f"/instances/<{ID}:instance_id>/move", methods=["POST"])
@blp.arguments(MoveSchema())
@blp.response(200, CaseSchema)
def move(args, instance_id):
    """Cancel the open work at one element and make another active (supervisors), with a reason."""
    return answer(engine().execute(move_case, actor(), instance_id, args["from_element"], args["to_element"],
                                   args["reason"]))
