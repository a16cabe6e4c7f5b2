"""The Flask application factory: the engine, the REST blueprints, the OpenAPI document."""
from __future__ import annotations

import json
from decimal import Decimal

from flask import Flask
from flask.json.provider import DefaultJSONProvider
from flask_smorest import Api

from engine.bootstrap import deploy_directory, prepare
from engine.bootstrap import make_engine
from engine.kernel.engine import Engine
from engine.errors import BadRequest
from engine.config.settings import Settings

from api import errors
from api.rest.auth import authenticate_request, release_read_connection
from api.hostile_input import refuse_hostile_input
from api.rest import accounts, admin, instances, ops, processes, registries, tasks
from api.rest import materials_registries
from api.rest import bidder_registry
from api.rest import notifications
from api.web.site import install as install_web

MAX_REQUEST_BYTES = 20 * 1024 * 1024


class DecimalJSONProvider(DefaultJSONProvider):
    """Numbers arrive as Decimal, exactly (money is never a float); nesting is bounded."""

    sort_keys = False  # answers keep the order the views build; sorting every answer costs time

    def loads(self, s, **kwargs):
        try:
            return json.loads(s, parse_float=Decimal, **kwargs)
        except RecursionError:
            raise BadRequest("the JSON document is nested too deeply", {"json": ["TOO_DEEP"]}) from None

    @staticmethod
    def default(o):
        if isinstance(o, Decimal):
            return str(o)
        return DefaultJSONProvider.default(o)


def create_app(settings: Settings | None = None, *, engine: Engine | None = None, bootstrap: bool = True,
               deploy_processes: bool = True) -> Flask:
    settings = settings or Settings.from_env()
    app = Flask(__name__)
    app.json = DecimalJSONProvider(app)
    app.config.update(
        SECRET_KEY=settings.secret_key, MAX_CONTENT_LENGTH=MAX_REQUEST_BYTES,
        API_TITLE="Trámite", API_VERSION="v1", OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/api", OPENAPI_JSON_PATH="v1/openapi.json",
        OPENAPI_SWAGGER_UI_PATH="docs", OPENAPI_SWAGGER_UI_URL="/static/vendor/swagger-ui/",
        API_SPEC_OPTIONS={"components": {"securitySchemes": {
            "bearer": {"type": "http", "scheme": "bearer"}}}, "security": [{"bearer": []}]},
    )
    app.config["TRAMITE_LOGIN_POLICY"] = settings.login_policy()
    engine = engine or make_engine(settings.database_url, settings.clock())
    app.extensions["tramite"] = engine
    if bootstrap:
        prepare(engine)
        if deploy_processes:
            deploy_directory(engine)

    api = Api(app)
    for module in (accounts, processes, instances, tasks, admin, registries):
        api.register_blueprint(module.blp)
    api.register_blueprint(materials_registries.blp)
    api.register_blueprint(bidder_registry.blp)
    api.register_blueprint(notifications.blp)
    app.register_blueprint(ops.blp)
    from api.static import install as install_static
    install_static(app)
    install_web(app)
    app.before_request(authenticate_request)
    app.before_request(refuse_hostile_input)
    app.teardown_request(release_read_connection)
    errors.install(app)
    return app
