"""Process owners: a preview of every letter kind the procedures generate, drawn from a sample case,
in Spanish or English, as the page shows it and as the PDF the case file would store."""
from __future__ import annotations

import io

from flask import render_template, request, send_file

from engine.kernel import access
from engine.queries import letters as queries

from api.web.blueprint import bp
from api.web.i18n import selected_language
from api.web.session import allowed, engine


def _language() -> str:
    asked = request.args.get("lang")
    return asked if asked in ("es", "en") else selected_language()


@bp.route("/processes/letters")
@allowed(access.owns_processes)
def letter_previews():
    language = _language()
    kinds = engine().read(queries.previews, engine().now(), language)
    return render_template("web/letters.html", kinds=kinds, letter_language=language)


@bp.route("/processes/letters/<string:kind>.pdf")
@allowed(access.owns_processes)
def letter_preview_pdf(kind):
    filename, content = engine().read(queries.preview_pdf, engine().now(), kind, _language())
    return send_file(io.BytesIO(content), mimetype="application/pdf", as_attachment=True, download_name=filename)
