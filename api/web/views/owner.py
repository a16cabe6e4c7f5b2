"""Process owner pages: procedures and versions, the modeler that deploys, form editing, version diffs."""
from __future__ import annotations

import json

from flask import abort, jsonify, render_template, request, url_for
from flask_babel import gettext as _

from engine.commands.deploy import deploy_edit
from engine.definitions import form_files
from engine.definitions import form_limits, forms
from engine.errors import EngineError
from engine.kernel import access
from engine.queries import processes as queries

from api.errors import http_status
from api.headers import uploaded_text
from api.web import deploy_texts, formkit
from api.web.i18n import selected_language
from api.web.modeler_i18n import PANEL_ES
from api.web.blueprint import bp
from api.web.session import allowed, engine, login_required, web_actor
from api.web.views.common import read


@bp.route("/processes")
@allowed(access.owns_processes)
def processes():
    return render_template("web/processes.html", **read(queries.catalogue))


@bp.route("/processes/<string:key>/versions/<int:version>/bpmn")
@login_required
def version_bpmn(key, version):
    return uploaded_text(read(queries.version_bpmn, key, version))


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
@allowed(access.owns_processes)
def modeler(key, version):
    definition = read(queries.version_files, key, version)
    stored_forms = {n: c for n, c in definition["files"].items() if form_files.is_form_file(n)}
    return render_template("web/modeler.html", definition=definition, form_files=stored_forms,
                           labels=modeler_labels())


@bp.route("/processes/<string:key>/deploy", methods=["POST"])
@allowed(access.owns_processes)
def deploy_version(key):
    """JSON in: {"xml", "forms": {file: text or ""}, "base_version"}; the rest of the base version is kept."""
    body = request.get_json(silent=True) or {}
    try:
        answer, created = engine().execute(deploy_edit, web_actor(), key, int(body.get("base_version") or 0) or None,
                                           body.get("xml"), body.get("forms"))
    except EngineError as exc:
        return jsonify(deploy_texts.refusal(key, exc.message, exc.errors)), http_status(exc)[0]
    result = {"key": answer["key"], "version": answer["version"], "created": created}
    result["processes_url"] = url_for("web.processes")
    result["edit_url"] = url_for("web.modeler", key=key, version=result["version"])
    return jsonify(result), 201 if result["created"] else 200


@bp.route("/forms/preview", methods=["POST"])
@allowed(access.owns_processes)
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
    # A form that never ends or fills no page is not drawn; other problems still show the form.
    tree = None if form_limits.form_problem(schema) else formkit.build(schema, ui)
    return render_template("web/form/preview.html", tree=tree, problems=problems)


@bp.route("/processes/<string:key>/diff")
@allowed(access.owns_processes)
def diff(key):
    compared = read(queries.version_comparison, key, request.args.get("from", type=int),
                    request.args.get("to", type=int))
    if compared is None:
        abort(404)
    return render_template("web/diff.html", key=key, **compared)
