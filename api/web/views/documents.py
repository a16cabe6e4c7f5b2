"""The case file on the case and task pages: upload (a form, or drag and drop with progress), the
index with downloads, voiding for supervisors, internal notes and the certified export.

The partials `_documents_case.html` and `_documents_task.html` read their data through the
template global `case_file(...)`, so the shared pages only include them."""
from __future__ import annotations

from flask import flash, jsonify, redirect, request, url_for
from flask_babel import gettext as _

from engine.commands import documents as commands
from engine.queries import documents as queries

from api.rest.documents import download, export_zip
from api.web.blueprint import bp
from api.web.session import engine, login_required, safe_next, web_actor
from api.web.views.common import run


@bp.app_template_global()
def case_file(instance_id: int, task_element: str | None = None) -> dict:
    data = engine().read_rows(queries.case_file, web_actor(), instance_id, task_element)
    # For documents.js, which puts each box's documents beside the box itself.
    data["checklist_links"] = {
        path: [{"label": f"{_('folio')} {d['folio']}" + (f" ({_('anulado')})" if d["voided"] else ""),
                "url": url_for("web.document_content", document_id=d["id"])} for d in box["documents"]]
        for path, box in data["checklist"].items()}
    return data


def _back(instance_id):
    return safe_next(request.form.get("next")) or url_for("web.case", instance_id=instance_id) + "#documentos"


def _wants_json() -> bool:
    return request.accept_mimetypes.best == "application/json"


@bp.route("/cases/<int:instance_id>/documents", methods=["POST"])
@login_required
def upload_document(instance_id):
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        return _answer(instance_id, None, 422, _("Elija el archivo que desea añadir."))
    task_id = request.form.get("task_id", type=int)
    document, refusal = run(commands.upload_document, instance_id, upload.stream, type=request.form.get("type", ""),
                            filename=upload.filename, task_id=task_id,
                            description=request.form.get("description") or None)
    if refusal:
        return _answer(instance_id, None, refusal.status, _refusal_text(refusal))
    return _answer(instance_id, document, 201, _("Documento añadido al expediente como folio %(folio)s.",
                                                  folio=document["folio"]))


def _refusal_text(refusal) -> str:
    type_errors = (refusal.errors or {}).get("type") or []
    if refusal.status == 422 and "GENERATED_ONLY" in type_errors:
        return type_errors[-1]  # the engine's own Spanish: a letter type is the engine's to file
    status_texts = {413: _("El archivo está vacío o es más grande de lo permitido."),
                    415: _("El archivo no es PDF, PNG, JPEG, TIFF, ODT ni DOCX (se juzga por su contenido, no por el nombre)."),
                    422: _("Elija un tipo de documento del procedimiento.")}
    return status_texts.get(refusal.status, refusal.message)


def _answer(instance_id, document, status, message):
    if _wants_json():
        return jsonify({"message": message, "document": document, "next": _back(instance_id)}), status
    flash(message, "success" if document else "error")
    return redirect(_back(instance_id))


@bp.route("/documents/<int:document_id>/content")
@login_required
def document_content(document_id):
    return download(web_actor(), document_id)


@bp.route("/documents/<int:document_id>/void", methods=["POST"])
@login_required
def void_document(document_id):
    instance_id = request.form.get("instance_id", type=int)
    reason = request.form.get("reason", "").strip()
    if not reason:
        flash(_("Escriba la razón para anular el documento."), "error")
    else:
        _doc, refusal = run(commands.void_document, document_id, reason)
        flash(refusal.message if refusal else _("Documento anulado; sigue en el expediente, marcado."),
              "error" if refusal else "success")
    return redirect(_back(instance_id) if instance_id else url_for("web.inbox"))


@bp.route("/cases/<int:instance_id>/notes", methods=["POST"])
@login_required
def add_note(instance_id):
    _note, refusal = run(commands.add_note, instance_id, request.form.get("text", ""))
    flash(refusal.message if refusal else _("Nota interna añadida."), "error" if refusal else "success")
    return redirect(safe_next(request.form.get("next")) or url_for("web.case", instance_id=instance_id) + "#notas")


@bp.route("/cases/<int:instance_id>/expediente.zip")
@login_required
def expediente(instance_id):
    return export_zip(web_actor(), instance_id)
