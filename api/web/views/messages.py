"""Recording a message a case waits for (documents arrived, a review asked for) through its form."""
from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from engine.commands.messages import send_message
from engine.queries import case_files

from api.web import formkit, labels
from api.web.blueprint import bp
from api.web.session import engine, login_required, web_actor
from api.web.views.common import form_post, read, run


@bp.route("/cases/<int:instance_id>/messages/<string:name>", methods=["GET", "POST"])
@login_required
def message(instance_id, name):
    page = read(case_files.message_page, engine().versions, web_actor(), instance_id, name)
    record, schema, expected = page["record"], page["schema"], page["expected"]
    ui = labels.message_ui(record.process_key, name, schema, page["ui"], labels.catalogue(page["definition"]))
    title = labels.message_title(record.process_key, name, schema.get("title"))
    data, refusal, status = {}, None, 200
    if request.method == "POST":
        data, rows_changed = form_post(schema, ui)
        if not rows_changed:
            _case, refusal = run(send_message, instance_id, name, data)
            if refusal is None:
                flash(_("Mensaje «%(name)s» registrado en el caso %(case)s.", name=title, case=record.case_number),
                      "success")
                return redirect(url_for("web.case", instance_id=instance_id))
            status = refusal.status
    errors = refusal.errors if refusal else {}
    tree = formkit.build(schema, ui, data, errors)
    return render_template("web/message.html", record=record, name=name, title=title, tree=tree, refusal=refusal,
                           expected=expected, unplaced=formkit.unplaced_errors(tree, errors),
                           error_fields=formkit.fields_with_errors(tree)), status
