"""Legal parameters and the (manual) engine clock."""
from __future__ import annotations

from flask_smorest import Blueprint

from engine.commands import clock as clock_commands
from engine.commands import parameters as parameter_commands
from engine.queries import parameters as parameter_queries

from api.rest.auth import actor, engine
from api.rest.schemas import ClockSchema, ClockUpdateSchema, ParameterSchema, ParameterUpdateSchema

blp = Blueprint("admin", __name__, url_prefix="/api/v1", description="Parameters and clock")


@blp.route("/parameters", methods=["GET"])
@blp.response(200, ParameterSchema(many=True))
def list_parameters():
    return engine().read(parameter_queries.list_parameters)


@blp.route("/parameters/<string:name>", methods=["PUT"])
@blp.arguments(ParameterUpdateSchema())
@blp.response(200, ParameterSchema)
def set_parameter(args, name):
    """Change a parameter (admin); cases started afterwards use the new value."""
    return engine().execute(parameter_commands.set_parameter, actor(), name, args["value"])


def _clock():
    return {"now": engine().now().isoformat(), "mode": engine().clock.mode}


@blp.route("/admin/clock", methods=["GET"])
@blp.response(200, ClockSchema)
def get_clock():
    return _clock()


@blp.route("/admin/clock", methods=["PUT"])
@blp.arguments(ClockUpdateSchema())
@blp.response(200, ClockSchema)
def set_clock(args):
    """Move the manual clock forward, firing every timer that falls due on the way, in order."""
    clock_commands.move_clock(engine(), actor(), args["now"])
    return _clock()
