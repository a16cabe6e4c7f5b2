"""The filing receipt as a PDF (WeasyPrint): the access code's receipt, and one for each filing the
applicant makes (a document or a message) with its date and time, folio and hash."""
from __future__ import annotations

from datetime import datetime
from html import escape

from engine.rules.calendar import PUERTO_RICO

_PAGE = """<!doctype html><html lang="es"><head><meta charset="utf-8"><title>{title}</title>
<style>@page {{ size: letter; margin: 2cm }} body {{ font-family: sans-serif; font-size: 11pt }}
h1 {{ font-size: 16pt }} dt {{ font-weight: bold; margin-top: .6em }} .code {{ font-size: 16pt;
font-family: monospace; letter-spacing: .1em }}</style></head><body><h1>{title}</h1><dl>{rows}</dl>
<p>{footer}</p></body></html>"""


def _when(instant: datetime) -> str:
    return instant.astimezone(PUERTO_RICO).strftime("%Y-%m-%d %H:%M (hora de Puerto Rico)")


def render(title: str, rows: list[tuple[str, str]], footer: str = "") -> bytes:
    from weasyprint import HTML  # imported when a receipt is made: it is slow to load

    body = "".join(f"<dt>{escape(k)}</dt><dd{' class=code' if k == 'Código de acceso' else ''}>{escape(v)}</dd>"
                   for k, v in rows)
    return HTML(string=_PAGE.format(title=escape(title), rows=body, footer=escape(footer))).write_pdf()


def access_receipt(case_number: str, process_name: str, filed: str, code: str, status_url: str,
                   office: str | None, at: datetime) -> bytes:
    rows = [("Número de caso", case_number), ("Procedimiento", process_name), ("Lo presentado", filed),
            ("Código de acceso", code), ("Página de estado", status_url), ("Fecha y hora", _when(at))]
    if office:
        rows.append(("Oficina", office))
    return render("Recibo de radicación", rows,
                  "Con el número de caso y este código puede ver el estado de su caso, descargar sus cartas y "
                  "presentar documentos y solicitudes. Guarde este código: la oficina no lo conserva.")


def filing_receipt(case_number: str, what: str, at: datetime, folio: int | None, sha256: str) -> bytes:
    rows = [("Número de caso", case_number), ("Lo presentado", what), ("Fecha y hora", _when(at)),
            ("Folio", str(folio) if folio else "—"), ("Huella SHA-256", sha256)]
    return render("Recibo de presentación", rows, "Presentado por la persona solicitante en la página de estado.")
