"""The farmer registry's letters through the real engine: the denial on `notify_denial` (FAR-12's
20 days computed by the calendar, rolled past a weekend) and the admission letter."""
from __future__ import annotations

from tests.letters.support import letters_of, pdfa_part


def test_the_denial_letter_states_each_reason_its_article_and_the_review_deadline(far):
    case = far.evaluate(far.apply(name="Elena Ruiz", documents=[]), "deny")
    far.day("2024-04-02")
    case = far.notify(case)
    [letter] = letters_of(far.api, case["id"], "denial")
    text = letter["text"]
    assert case["case_number"] in text and "Elena Ruiz" in text
    assert "Se deniega la solicitud de ingreso de Elena Ruiz" in text
    assert "certificación que acredita la actividad" in text and "FAR-06, FAR-07" in text
    assert "revisión al Comisionado" in text and "20 días" in text
    assert "22 de abril de 2024 (2024-04-22)" in text and case["variables"]["review_deadline"] == "2024-04-22"
    assert "2 de abril de 2024 (2024-04-02)" in text  # the notice date
    assert "Correo certificado" in text and "Comisionado" in text
    assert "Ley núm. 170 de 12 de agosto de 1978, Ley de Procedimiento Uniforme" in text
    assert pdfa_part(letter["bytes"]) == ("3", "B")
    assert letter["document"]["source"] == "generated" and letter["notice"]["element_id"] == "notify_denial"
