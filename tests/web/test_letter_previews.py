"""The process owner's preview of each letter kind, drawn from a sample case: on the page in Spanish
and English, and as the PDF/A a real step would store. Staff may not see it."""
from __future__ import annotations

from engine.letters.kinds import all_kinds
from tests.letters.support import pdfa_part, text_of as pdf_text
from tests.web.conftest import text_of

KINDS = ("denial", "admission", "ineligibility", "purchase_order", "award", "sale")


def test_the_preview_page_shows_every_letter_kind_from_a_sample_case(web):
    owner = web("owner")
    assert "/web/processes/letters" in owner.get("/web/processes")
    html = owner.get("/web/processes/letters")
    assert set(KINDS) <= set(all_kinds())
    for kind in all_kinds():
        assert f'data-kind="{kind}"' in html and f"letter.{kind}" in html
    text = text_of(html)
    assert "Se deniega la solicitud de ingreso de Ana Torres" in text and "FAR-06, FAR-07" in text
    assert "Ley núm. 170 de 12 de agosto de 1978" in text and "notify_denial" in text
    english = text_of(owner.get("/web/processes/letters?lang=en"))
    assert "The application of Ana Torres for entry to the Bona Fide Farmer Registry is denied." in english


def test_each_kinds_sample_downloads_as_a_pdf_a(web):
    owner = web("owner")
    for kind in KINDS:
        response = owner.client.get(f"/web/processes/letters/{kind}.pdf")
        assert response.status_code == 200 and response.mimetype == "application/pdf"
        assert "attachment" in response.headers["Content-Disposition"]
        content = response.get_data()
        assert pdfa_part(content) == ("3", "B")
        assert "Caso núm." in pdf_text(content)
    assert owner.client.get("/web/processes/letters/nothing.pdf").status_code == 404


def test_staff_do_not_see_the_preview(web):
    assert web("clerk").client.get("/web/processes/letters").status_code == 403
