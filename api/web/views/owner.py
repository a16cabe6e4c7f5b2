"""Process owner pages: procedures and versions, the modeler that deploys, form editing, version diffs."""
from __future__ import annotations

import json

from flask import Response, abort, jsonify, render_template, request, url_for
from flask_babel import gettext as _
from sqlalchemy import select

from engine.definitions import form_files, forms, version_diff
from engine.queries import cases as queries
from engine.commands.deploy import deploy
from engine.definitions import repository
from engine.errors import BadRequest, EngineError
from engine.persistence.models import ProcessDefinition

from api.web import formkit
from api.web.i18n import selected_language
from api.web.modeler_i18n import PANEL_ES
from api.web.blueprint import bp
from api.web.session import allowed, engine, is_owner, login_required, web_actor
from api.web.views.common import read

def _versions(session) -> dict[str, list[dict]]:
    rows = session.execute(select(ProcessDefinition.key, ProcessDefinition.version, ProcessDefinition.name,
                                  ProcessDefinition.deployed_at, ProcessDefinition.deployed_by,
                                  ProcessDefinition.hash).order_by(ProcessDefinition.key,
                                                                   ProcessDefinition.version.desc()))
    out: dict[str, list[dict]] = {}
    for r in rows:
        out.setdefault(r.key, []).append({"version": r.version, "name": r.name, "deployed_at": r.deployed_at,
                                          "deployed_by": r.deployed_by, "hash": r.hash[:12]})
    return out


@bp.route("/processes")
@allowed(is_owner)
def processes():
    listed = read(queries.list_processes)
    return render_template("web/processes.html", processes=listed, versions=read(_versions))


def _version(session, key, version):
    definition = repository.get_version(session, key, version)
    return {"key": definition.key, "version": definition.version, "name": definition.name,
            "files": dict(definition.files), "summary": dict(definition.summary)}


@bp.route("/processes/<string:key>/versions/<int:version>/bpmn")
@login_required
def version_bpmn(key, version):
    definition = read(_version, key, version)
    return Response(definition["files"][definition["summary"]["process"]["file"]], mimetype="application/xml")


def modeler_labels() -> dict[str, str]:
    """The modeler's own words, translated here so the bundled JavaScript needs no catalogue."""
    return {"script": _("Script (Python restringido)"), "condition": _("Condición de la rama"),
            "scriptHelp": _("Solo funciones de la lista blanca del motor."),
            "editForm": _("Editar formulario"), "formHelp": _("Formulario de la tarea:"),
            "group": "Trámite", "deployed": _("Desplegada la versión %(version)s."),
            "unchanged": _("Sin cambios: ya existía como versión %(version)s."),
            "refused": _("El motor rechazó el despliegue:"), "saving": _("Desplegando…"),
            "previewError": _("Vista previa no disponible:"), "noTasks": _("El diagrama no tiene tareas de usuario."),
            "open": _("Ver procesos"),
            "instructions": _("Instrucciones para quien hace la tarea"),
            "instructionsHelp": _("Markdown; se muestran encima del formulario (spiffworkflow:instructionsForEndUser)."),
            "preScript": _("Script antes de la tarea (preScript)"),
            "postScript": _("Script después de la tarea (postScript)"),
            "formFiles": _("Archivos del formulario:"),
            "panel": PANEL_ES if selected_language() == "es" else {}}


@bp.route("/processes/<string:key>/versions/<int:version>/edit")
@allowed(is_owner)
def modeler(key, version):
    definition = read(_version, key, version)
    stored_forms = {n: c for n, c in definition["files"].items() if form_files.is_form_file(n)}
    return render_template("web/modeler.html", definition=definition, form_files=stored_forms,
                           labels=modeler_labels())


def _clean_forms(edited: dict) -> dict[str, str]:
    out = {}
    for name, content in (edited or {}).items():
        if not isinstance(name, str) or "/" in name or not form_files.is_form_file(name):
            raise BadRequest(f"{name}: not a form file", {str(name): ["UNSUPPORTED_FILE"]})
        out[name] = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
    return out


@bp.route("/processes/<string:key>/deploy", methods=["POST"])
@allowed(is_owner)
def deploy_version(key):
    """JSON in: {"xml", "forms": {file: text or ""}, "base_version"}; the rest of the base version is kept."""
    body = request.get_json(silent=True) or {}
    try:
        base = read(_version, key, int(body.get("base_version") or 0) or None)
        files = dict(base["files"])
        if not isinstance(body.get("xml"), str) or not body["xml"].strip():
            raise BadRequest("the diagram is empty", {key: ["EMPTY_DIAGRAM"]})
        files[base["summary"]["process"]["file"]] = body["xml"]
        for name, content in _clean_forms(body.get("forms")).items():
            if content.strip():
                files[name] = content
            else:
                files.pop(name, None)

        def command(ctx):
            definition, created = deploy(ctx, key, files)
            return {"key": definition.key, "version": definition.version, "created": created}
        result = engine().execute(command, web_actor())
    except EngineError as exc:
        return jsonify({"message": exc.message, "errors": exc.errors}), exc.status
    result["processes_url"] = url_for("web.processes")
    result["edit_url"] = url_for("web.modeler", key=key, version=result["version"])
    return jsonify(result), 201 if result["created"] else 200


@bp.route("/forms/preview", methods=["POST"])
@allowed(is_owner)
def form_preview():
    """The form as staff will see it, drawn by the same renderer as the task pages."""
    body = request.get_json(silent=True) or {}
    problems = []
    try:
        schema = json.loads(body.get("schema") or "{}")
        ui = json.loads(body.get("ui") or "{}")
    except ValueError as exc:
        return render_template("web/form/preview.html", tree=None, problems=[str(exc)]), 200
    problem = forms.check_schema(json.dumps(schema))
    if problem:
        problems.append(problem)
    if not isinstance(schema, dict) or not isinstance(ui, dict):
        return render_template("web/form/preview.html", tree=None, problems=[_("El JSON debe ser un objeto.")]), 200
    return render_template("web/form/preview.html", tree=formkit.build(schema, ui), problems=problems)


@bp.route("/processes/<string:key>/diff")
@allowed(is_owner)
def diff(key):
    versions = [v["version"] for v in read(_versions).get(key, [])]
    if not versions:
        abort(404)
    newest = versions[0]
    new = request.args.get("to", type=int) or newest
    old = request.args.get("from", type=int) or max([v for v in versions if v < new] or [new])
    a, b = read(_version, key, old), read(_version, key, new)
    result = version_diff.compare(a["summary"], a["files"], b["summary"], b["files"])
    return render_template("web/diff.html", key=key, old=a, new=b, diff=result, versions=versions)
