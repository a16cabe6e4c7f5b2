"""Recording a message a case waits for (documents arrived, a review asked for) through its form."""
from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from engine.definitions import form_files
from engine.queries import cases as queries
from engine.commands.messages import send_message
from engine.definitions import repository
from engine.definitions.parsing import BPMN
from engine.definitions.xml_safety import parse_xml

from api.web import formkit
from api.web.blueprint import bp
from api.web.session import engine, login_required, web_actor
from api.web.views.common import form_post, read, run


def message_names(files: dict[str, str]) -> dict[str, str]:
    """{message id: message name} of a version's diagrams (the summary keeps only the names)."""
    names = {}
    for filename, content in files.items():
        if filename.endswith(".bpmn"):
            for message in parse_xml(content.encode("utf-8"), filename).iter(f"{{{BPMN}}}message"):
                names[message.get("id")] = message.get("name") or message.get("id")
    return names


def waiting_messages(record, definition) -> list[dict]:
    """The messages the case waits for now, each with the element that catches it and its lane."""
    elements = {e["id"]: e for e in definition.summary.get("elements", [])}
    names = message_names(definition.files)
    out = []
    for element_id in (record.workflow_meta or {}).get("tramite", {}).get("waiting_messages", []):
        element = elements.get(element_id) or {}
        name = names.get(element.get("message"), element.get("message"))
        if name:
            schema = form_files.message_form(definition.files, name).schema or {}
            out.append({"name": name, "element_id": element_id, "element_name": element.get("name", element_id),
                        "lane": element.get("lane"), "title": schema.get("title") or name})
    return out


def _message_page_data(session, instance_id, name):
    record = queries.get_instance(session, web_actor(), instance_id)
    definition = repository.info(engine().versions, session, record.definition_id)
    form = form_files.message_form(definition.files, name)
    schema, ui = form.schema or {"type": "object", "properties": {}}, form.ui or {}
    expected = any(m["name"] == name for m in waiting_messages(record, definition))
    return record, schema, ui, expected


@bp.route("/cases/<int:instance_id>/messages/<string:name>", methods=["GET", "POST"])
@login_required
def message(instance_id, name):
    record, schema, ui, expected = read(_message_page_data, instance_id, name)
    data, refusal, status = {}, None, 200
    if request.method == "POST":
        data, rows_changed = form_post(schema, ui)
        if not rows_changed:
            _case, refusal = run(send_message, instance_id, name, data)
            if refusal is None:
                flash(_("Mensaje «%(name)s» registrado en el caso %(case)s.", name=name, case=record.case_number),
                      "success")
                return redirect(url_for("web.case", instance_id=instance_id))
            status = refusal.status
    errors = refusal.errors if refusal else {}
    tree = formkit.build(schema, ui, data, errors)
    return render_template("web/message.html", record=record, name=name, tree=tree, refusal=refusal,
                           expected=expected, unplaced=formkit.unplaced_errors(tree, errors),
                           error_fields=formkit.fields_with_errors(tree)), status
