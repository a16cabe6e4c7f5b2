"""Process definitions: list, deploy a version, read a version and its BPMN."""
from __future__ import annotations

from flask import Response, request
from flask_smorest import Blueprint

from engine.commands.deploy import deploy_uploads
from engine.queries import cases as queries, processes

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
    uploads = [(upload.filename, upload.read()) for upload in request.files.getlist("files")]
    definition, created = engine().execute(deploy_uploads, actor(), key, uploads)
    return definition, 201 if created else 200


@blp.route(f"/<string:key>/versions/<{VERSION}:version>", methods=["GET"])
@blp.response(200, VersionSchema)
def get_version(key, version):
    return engine().read(processes.version_detail, key, version)


@blp.route(f"/<string:key>/versions/<{VERSION}:version>/bpmn", methods=["GET"])
@blp.response(200, description="the BPMN XML of the version", content_type="application/xml")
def get_bpmn(key, version):
    return Response(engine().read(processes.version_bpmn, key, version), mimetype="application/xml")
