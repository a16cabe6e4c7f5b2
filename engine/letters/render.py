"""A letter's data → PDF bytes: Jinja HTML per kind, laid out by WeasyPrint as PDF/A-3b.

Pure apart from reading the templates and the system fonts: no database, no clock. PDF/A-3b
(ISO 19005-3, level B) is the archival profile of the case file: every font embedded (DejaVu,
shipped with Debian's fontconfig), sRGB output intent, XMP metadata naming the part and level.
WeasyPrint turns HTML into PDF itself (Pango for the text); no browser prints anything.
"""
from __future__ import annotations

from datetime import date
from functools import lru_cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from engine.letters.model import Letter
from engine.letters.wording import long_date, text

TEMPLATES = Path(__file__).resolve().parent / "templates"
PDF_VARIANT = "pdf/a-3b"


@lru_cache(maxsize=1)
def _environment() -> Environment:
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=select_autoescape(["html"]),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["long_date"] = long_date
    return env


def template_name(kind: str) -> str:
    """The kind's own template when it has one, else the common letter."""
    own = f"{kind}.html"
    return own if (TEMPLATES / own).is_file() else "letter.html"


def html(letter: Letter) -> str:
    """The letter as HTML (the renderer's input; also what the preview's text view shows)."""
    template = _environment().get_template(template_name(letter.kind))
    return template.render(letter=letter, t=lambda key: text(key, letter.language), date=date)


def pdf(letter: Letter) -> bytes:
    """The letter as a PDF/A-3b document."""
    from weasyprint import HTML  # imported on first use: it loads Pango and fonts (~0.3 s)

    document = HTML(string=html(letter), base_url=str(TEMPLATES))
    return document.write_pdf(pdf_variant=PDF_VARIANT, uncompressed_pdf=False,
                              custom_metadata=False)
