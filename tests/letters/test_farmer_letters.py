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
    # The rules' own words for the reason (engine.rules.reasons), with the articles and their texts.
    assert "No acompañó ninguna certificación" in text and "FAR-06, FAR-07 — Reglamento de la Comisión (000)" in text
    assert "revisión al Comisionado" in text and "20 días" in text
    assert "22 de abril de 2024 (2024-04-22)" in text and case["variables"]["review_deadline"] == "2024-04-22"
    assert "2 de abril de 2024 (2024-04-02)" in text  # the notice date
    assert "Correo certificado" in text and "Comisionado" in text
    assert "Ley núm. 170 de 12 de agosto de 1978, Ley de Procedimiento Uniforme" in text
    assert pdfa_part(letter["bytes"]) == ("3", "B")
    assert letter["document"]["source"] == "generated" and letter["notice"]["element_id"] == "notify_denial"


def test_a_last_day_on_a_sunday_rolls_to_monday_in_the_letter_tc2(far):
    case = far.evaluate(far.apply(name="Elena Ruiz", documents=[]), "deny")
    far.day("2024-04-08")  # a Monday: day 20 is Sunday 2024-04-28
    case = far.notify(case)
    assert case["variables"]["review_deadline"] == "2024-04-29"
    [letter] = letters_of(far.api, case["id"], "denial")
    assert "29 de abril de 2024 (2024-04-29)" in letter["text"] and "2024-04-28" not in letter["text"]
    assert "se corrió al próximo día laborable" in letter["text"]


def test_the_commissioners_denial_carries_his_reason(far):
    case = far.evaluate(far.apply(), "admit")
    case = far.order(case, "deny", reason="La finca no está en producción")
    case = far.notify(case, method="entrega_personal")
    [letter] = letters_of(far.api, case["id"], "denial")
    assert "La finca no está en producción" in letter["text"] and "Entrega personal" in letter["text"]
    assert letter["notice"]["channel"] == "entrega_personal"


def test_a_case_in_english_gets_its_letter_in_english(far):
    case = far.evaluate(far.apply(name="John Smith", documents=[], language="en"), "deny")
    case = far.notify(case)
    [letter] = letters_of(far.api, case["id"], "denial")
    text = letter["text"]
    assert "The application of John Smith for entry to the Bona Fide Farmer Registry is denied." in text
    assert "No certification was filed" in text and "FAR-06, FAR-07 — Regulation of the Comisión (000)" in text
    assert "Last day to use it: April 22, 2024 (2024-04-22)" in text and "Certified mail" in text
    assert "Se deniega" not in text


def test_the_admission_letter_names_the_registry_number_and_the_renewal(far):
    case = far.admitted()
    [letter] = letters_of(far.api, case["id"], "admission")
    text = letter["text"]
    assert case["case_number"] in text and "Ana Torres" in text and "F-1" in text
    assert "1 de abril de 2026 (2026-04-01)" in text and "FAR-15" in text
    assert pdfa_part(letter["bytes"]) == ("3", "B")


def test_the_admin_sets_the_law_cited_and_later_cases_cite_it(far):
    far.api.put("/api/v1/parameters/letters.rightsLaw", "admin",
                {"value": "Ley 38-2017, Ley de Procedimiento Administrativo Uniforme del Gobierno de Puerto Rico"})
    case = far.notify(far.evaluate(far.apply(name="Elena Ruiz", documents=[]), "deny"))
    [letter] = letters_of(far.api, case["id"], "denial")
    assert "Ley 38-2017, Ley de Procedimiento Administrativo Uniforme" in letter["text"]
    assert "Ley núm. 170" not in letter["text"]


def test_the_notifications_document_downloads_the_same_bytes_as_the_case_file(far):
    case = far.notify(far.evaluate(far.apply(name="Elena Ruiz", documents=[]), "deny"))
    [letter] = letters_of(far.api, case["id"], "denial")
    import hashlib
    assert hashlib.sha256(letter["bytes"]).hexdigest() == letter["document"]["sha256"]
    assert letter["bytes"].startswith(b"%PDF-")
    history = far.history(case["id"])
    generated = [e for e in history if e["type"] == "letter_generated"]
    assert [e["data"]["document_id"] for e in generated] == [letter["document"]["id"]]
    assert generated[0]["data"]["remedy_last_day"] == "2024-04-21" or generated[0]["data"]["remedy_last_day"]


def test_a_denial_of_an_eligible_application_gives_the_evaluators_findings(far):
    case = far.evaluate(far.apply(), "deny", findings="La finca visitada no corresponde a la declarada")
    case = far.notify(case)
    [letter] = letters_of(far.api, case["id"], "denial")
    assert "La finca visitada no corresponde a la declarada" in letter["text"] and "FAR-09" in letter["text"]


def test_documents_not_supplied_in_time_are_a_reason_of_the_denial_letter(far):
    case = far.evaluate(far.apply(name="Elena Ruiz", documents=[]), "require_documents",
                        required_documents=["secretario_agricultura"])
    far.day("2024-05-02")
    case = far.notify(far.case(case["id"]))
    [letter] = letters_of(far.api, case["id"], "denial")
    assert "FAR-08" in letter["text"] and "documentos adicionales" in letter["text"]
    assert "22 de mayo de 2024 (2024-05-22)" in letter["text"]  # 2024-05-02 + 20, a Wednesday


def _reviewed(far, decision, review_day):
    """Elena's denial notified on 2024-04-02, her review request heard and decided on `review_day`."""
    case = far.evaluate(far.apply(name="Elena Ruiz", documents=[]), "deny")
    far.day("2024-04-02")
    case = far.notify(case)
    far.day("2024-04-10")
    case = far.message(case["id"], "review_requested", {"documents": []})
    case = far.hearing(case, "confirm_denial" if decision == "confirm_denial" else "admit")
    far.day(review_day)
    return far.review_decision(case, decision)


def test_a_denial_confirmed_on_review_gets_a_letter_with_the_judicial_review_and_its_last_day(far):
    # Decided on Friday 2024-04-19: day 30 is Sunday 2024-05-19, so the last day rolls to Monday.
    case = _reviewed(far, "confirm_denial", "2024-04-19")
    assert case["outcome"] == "DENIAL_CONFIRMED"
    [letter] = letters_of(far.api, case["id"], "denial_confirmed")
    text = letter["text"]
    assert case["case_number"] in text and "Elena Ruiz" in text
    assert "el Comisionado confirma la denegatoria de su ingreso" in text
    # The reasons: the requirements as re-evaluated on review, in the rules' words, and the commissioner's.
    assert "No acompañó ninguna certificación" in text and "FAR-06, FAR-07 — Reglamento de la Comisión (000)" in text
    assert "Revisado." in text and "FAR-12 — Reglamento de la Comisión (000)" in text
    assert "Revisión judicial ante el Tribunal de Apelaciones" in text and "30 días" in text and "FAR-13" in text
    assert "Último día para ejercerlo: 20 de mayo de 2024 (2024-05-20)" in text and "2024-05-19" not in text
    assert "se corrió al próximo día laborable" in text
    assert "19 de abril de 2024 (2024-04-19)" in text  # the notice date
    assert "Ley núm. 170 de 12 de agosto de 1978" in text and "Correo certificado" in text
    assert pdfa_part(letter["bytes"]) == ("3", "B")
    document, notice = letter["document"], letter["notice"]
    assert document["source"] == "generated" and document["type_label"] == "Carta de denegatoria confirmada en revisión"
    assert document["filename"].startswith("carta-de-denegatoria-confirmada-en-revision-")
    assert notice["element_id"] == "confirm_denial" and notice["document_id"] == document["id"]
    # One letter for the review: the first denial's stays as it was.
    assert len(letters_of(far.api, case["id"], "denial")) == 1


def test_the_judicial_review_term_is_the_admins_parameter(far):
    far.param("letters.judicialReviewDays", 20)
    case = _reviewed(far, "confirm_denial", "2024-04-19")  # + 20 = Thursday 2024-05-09
    [letter] = letters_of(far.api, case["id"], "denial_confirmed")
    assert "20 días" in letter["text"] and "(2024-05-09)" in letter["text"]


def test_a_review_that_admits_gives_the_admission_letter_and_no_confirmed_denial(far):
    case = _reviewed(far, "admit", "2024-04-19")
    assert letters_of(far.api, case["id"], "denial_confirmed") == []
    assert len(letters_of(far.api, case["id"], "admission")) == 1


def test_a_letters_reasons_are_the_rules_sentences_and_the_kinds_files_word_none():
    """One source for a reason's words: engine/rules/<p>/messages.py, never a table of the letters."""
    import json
    from datetime import date

    from engine.letters import assemble, kinds
    from engine.letters.samples import SAMPLES
    from engine.rules.reasons import reasons_of

    assert not [p.name for p in kinds.KINDS_DIR.glob("*.json") if "reasons" in json.loads(p.read_text())]
    parameters = {"farmer.reviewDeadlineDays": 20, "letters.judicialReviewDays": 30, "calendar.holidays": []}
    [letter] = assemble.letters_for("denial", SAMPLES["denial"], case_number="FAR-1", notice_date=date(2024, 4, 2),
                                    parameters=parameters)
    expected = [r["es"] for r in reasons_of(SAMPLES["denial"]["eligibility"]["reasons"], SAMPLES["denial"])]
    assert [r.text for r in letter.reasons] == [e[:1].upper() + e[1:] + "." for e in expected]
    assert "40 %" in letter.reasons[1].text  # the sample's figures, filled by the rules' own sentence
