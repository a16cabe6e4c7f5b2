"""Process definitions: list, deploy a version, read a version and its BPMN."""
from __future__ import annotations

from flask import Response, request
from flask_smorest import Blueprint

from engine.queries import cases as queries, shapes as views
from engine.commands.deploy import deploy
from engine.definitions import repository
from engine.errors import BadRequest, Forbidden

from api.rest.auth import actor, engine
from api.rest.schemas import DeployFilesSchema, DeployResultSchema, ProcessSchema, VersionSchema
from api.rest import VERSION

blp = Blueprint("processes", __name__, url_prefix="/api/v1/processes", description="Process definitions")


@blp.route("", methods=["GET"])
@blp.response(200, ProcessSchema(many=True))
def list_processes():
    return engine().read(queries.list_processes)


@blp.route("/<string:key>/versions", methods=["POST"])
@blp.arguments(DeployFilesSchema(), location="files")
@blp.response(201, DeployResultSchema)
@blp.alt_response(200, schema=DeployResultSchema, description="identical content: the existing version")
def deploy_version(_files, key):
    """Deploy BPMN/DMN files and forms (multipart, field `files`) as a new version of `key`."""
    if not (actor().is_admin or "process_owner" in actor().roles):
        raise Forbidden("only a process owner may deploy")
    uploads = request.files.getlist("files")
    if not uploads:
        raise BadRequest("no files uploaded", {"files": ["upload one or more files under the field 'files'"]})
    files = {}
    for upload in uploads:
        name = (upload.filename or "").rsplit("/", 1)[-1]
        if not name:
            raise BadRequest("a file has no name", {"files": ["every file needs a file name"]})
        files[name] = upload.read()
    definition, created = engine().execute(
        lambda ctx: (lambda d: ({"key": d[0].key, "version": d[0].version, "hash": d[0].hash}, d[1]))(
            deploy(ctx, key, files)), actor())
    return definition, 201 if created else 200


@blp.route(f"/<string:key>/versions/<{VERSION}:version>", methods=["GET"])
@blp.response(200, VersionSchema)
def get_version(key, version):
    return engine().read(lambda s: views.definition(repository.get_version(s, key, version), with_files=True))


@blp.route(f"/<string:key>/versions/<{VERSION}:version>/bpmn", methods=["GET"])
@blp.response(200, description="the BPMN XML of the version", content_type="application/xml")
def get_bpmn(key, version):
    def read(session):
        definition = repository.get_version(session, key, version)
        main = definition.summary["process"]["file"]
        return definition.files[main]
    return Response(engine().read(read), mimetype="application/xml")
