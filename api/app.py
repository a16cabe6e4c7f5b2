"""The composition root: one engine, the list of blueprints (the REST resources of API.md, then
the operations routes), the web application, the request guards and the error mapping.

`api/rest/` holds the REST routes and their schemas, `api/web/` the pages, `api/cli.py` the
command line and `api/demo/` the demo seed; each route or page is one call of an engine command
or query, and each refusal takes its HTTP status from `api/errors.py`.
"""
from __future__ import annotations

import json
from decimal import Decimal

import orjson
from flask import Flask, Response
from flask.json.provider import DefaultJSONProvider
from flask_smorest import Api

from engine.bootstrap import deploy_directory, prepare
from engine.bootstrap import make_engine
from engine.kernel.engine import Engine
from engine.errors import BadRequest
from engine.config.settings import Settings

from api import errors
from api.headers import install as install_headers
from api.hostile_input import refuse_hostile_input
from api.rest import (  # one per line, so that branches adding resources merge cleanly
    accounts,
    admin,
    bidder_registry,
    docs,
    documents,
    holidays,
    instances,
    legal_time,
    materials_registries,
    migrations,
    notifications,
    ops,
    processes,
    public,
    registries,
    tasks,
    work,
)
from api.rest.auth import authenticate_request, release_read_connection
from api.static import install as install_static
from api.web.site import install as install_web
from api.web.views.public import bp as public_pages

MAX_REQUEST_BYTES = 20 * 1024 * 1024
# The REST resources, in the order the OpenAPI document lists them; a new resource is one line here.
API_BLUEPRINTS = (
    accounts.blp,
    processes.blp,
    instances.blp,
    tasks.blp,
    admin.blp,
    registries.blp,
    materials_registries.blp,
    bidder_registry.blp,
    notifications.blp,
    migrations.blp,
    documents.blp,
    legal_time.blp,
    holidays.blp,
    public.blp,
    work.blp,
)
# Routes outside the OpenAPI document: the landing page, health, metrics and the API's documentation.
PLAIN_BLUEPRINTS = (ops.blp, docs.blp, public_pages)


# Non-string keys become strings as json.dumps makes them; datetimes and dataclasses reach `default`
# (Flask's HTTP dates and asdict) instead of orjson's own forms.
ORJSON_OPTIONS = (orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
                  | orjson.OPT_APPEND_NEWLINE)


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

    def response(self, *args, **kwargs) -> Response:
        """Answers are encoded by orjson, in C: the stdlib encoder was the largest part of a list's
        or a case's serialization (issue 21). Datetimes and dataclasses still go through `default`,
        so the bytes mean what the stdlib made of them (UTF-8 text instead of \\u escapes); what
        orjson refuses (integers past 64 bits) goes the stdlib way."""
        if self.compact is False or (self.compact is None and self._app.debug):
            return super().response(*args, **kwargs)
        try:
            body = orjson.dumps(self._prepare_response_obj(args, kwargs), default=self.default,
                                option=ORJSON_OPTIONS)
        except TypeError:  # orjson.JSONEncodeError is a TypeError
            return super().response(*args, **kwargs)
        return self._app.response_class(body, mimetype=self.mimetype)


def create_app(settings: Settings | None = None, *, engine: Engine | None = None, bootstrap: bool = True,
               deploy_processes: bool = True) -> Flask:
    settings = settings or Settings.from_env()
    app = Flask(__name__)
    app.json = DecimalJSONProvider(app)
    app.config.update(
        SECRET_KEY=settings.secret_key, MAX_CONTENT_LENGTH=MAX_REQUEST_BYTES,
        API_TITLE="Trámite", API_VERSION="v1", OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/api", OPENAPI_JSON_PATH="v1/openapi.json",  # /api/docs: api/rest/docs.py
        API_SPEC_OPTIONS={"components": {"securitySchemes": {
            "bearer": {"type": "http", "scheme": "bearer"}}}, "security": [{"bearer": []}]},
    )
    app.config["TRAMITE_LOGIN_POLICY"] = settings.login_policy()
    app.config["TRAMITE_PUBLIC_URL"] = (settings.public_url or "").rstrip("/") or None
    app.config["TRAMITE_METRICS_TOKEN"] = settings.metrics_token
    engine = engine or make_engine(settings.database_url, settings.clock(), replica_url=settings.replica_url,
                                   prepared_statements=settings.prepared_statements)
    app.extensions["tramite"] = engine
    if bootstrap:
        prepare(engine)
        if deploy_processes:
            deploy_directory(engine)

    app.before_request(documents.raise_upload_limit)  # first: before anything reads a body
    api = Api(app)
    for blueprint in API_BLUEPRINTS:
        api.register_blueprint(blueprint)
    for blueprint in PLAIN_BLUEPRINTS:
        app.register_blueprint(blueprint)
    install_static(app)
    install_web(app)
    app.before_request(authenticate_request)
    app.before_request(public.authenticate_applicant)
    app.before_request(refuse_hostile_input)
    app.teardown_request(release_read_connection)
    errors.install(app)
    install_headers(app)
    return app
