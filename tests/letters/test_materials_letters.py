"""Materials aid: the ineligibility letter on `notify_ineligibility` (reasons, LPAU orientation and
the reconsideration term by the calendar) and the purchase order letter."""
from __future__ import annotations

from tests.letters.support import letters_of, pdfa_part
from tests.procedures.materials_aid.test_materials_eligibility import GLORIA

OTHER_PROPERTY = {**GLORIA, "property": {**GLORIA["property"], "other_properties": True}}


def test_the_ineligibility_letter_gives_the_reason_the_law_and_the_last_day(mat):
    case = mat.filed(**OTHER_PROPERTY)
    mat.day("2024-04-03")  # a Wednesday: day 20 is Tuesday 2024-04-23
    case = mat.notify(case)
    [letter] = letters_of(mat.api, case["id"], "ineligibility")
    text = letter["text"]
    assert case["case_number"] in text and "Gloria Santiago" in text
    assert "no cualifica para la ayuda de materiales" in text
    assert "El solicitante tiene otra propiedad." in text and "MAT-05 — Reglamento del Programa de Ayuda de Materiales" in text
    assert "reconsideración" in text and "23 de abril de 2024 (2024-04-23)" in text
    assert "3 de abril de 2024 (2024-04-03)" in text and "Correo certificado" in text
    assert "Ley núm. 170 de 12 de agosto de 1978" in text and "Oficina Regional de Caguas" in text
    assert pdfa_part(letter["bytes"]) == ("3", "B")


def test_a_reconsideration_term_ending_on_a_saturday_rolls_to_monday(mat):
    case = mat.filed(**OTHER_PROPERTY)
    mat.day("2024-04-07")  # a Sunday: day 20 is Saturday 2024-04-27
    case = mat.notify(case)
    [letter] = letters_of(mat.api, case["id"], "ineligibility")
    assert "29 de abril de 2024 (2024-04-29)" in letter["text"]


def test_an_english_case_gets_an_english_ineligibility_letter(mat):
    case = mat.notify(mat.filed(**OTHER_PROPERTY, language="en"))
    [letter] = letters_of(mat.api, case["id"], "ineligibility")
    assert "is found not to qualify for the materials aid" in letter["text"]
    assert "The applicant owns another property." in letter["text"] and "MAT-05" in letter["text"]
    assert "You are advised of your rights under the Ley núm. 170" in letter["text"]


def test_the_purchase_order_letter_names_the_order_the_amount_and_the_store(mat):
    case = mat.purchase_order(mat.central_review(mat.at_central_review()))
    [letter] = letters_of(mat.api, case["id"], "purchase_order")
    text = letter["text"]
    assert case["case_number"] in text and "María Rivera" in text
    assert "OC-2024-0001" in text and "$4150.00" in text and "Ferretería Borinquen" in text
    assert "MAT-34" in text and "Secretaría Auxiliar de Administración" in text


def test_documents_not_filed_in_time_close_the_application_with_a_written_notice(mat):
    case = mat.apply()
    assert case["variables"]["docs_deadline"] == "2024-05-01"
    mat.day("2024-05-02")  # the deadline timer fires: INCOMPLETE_CLOSED (AMB-24)
    case = mat.case(case["id"])
    assert case["outcome"] == "INCOMPLETE_CLOSED"
    [letter] = letters_of(mat.api, case["id"], "closure")
    text = letter["text"]
    assert case["case_number"] in text and "María Rivera" in text and "Se archiva la solicitud" in text
    assert "MAT-11" in text and "Ley núm. 170" in text
    assert "22 de mayo de 2024 (2024-05-22)" in text  # 2024-05-02 + 20


def test_an_application_inside_the_two_year_wait_is_refused_by_letter_at_its_start(mat, api):
    from tests.procedures.materials_aid.test_materials_offices_and_reapply import previous_beneficiary
    previous_beneficiary(api, "2022-05-01")  # the clock reads 2024-04-01
    case = mat.apply()
    assert case["outcome"] == "REJECTED_WAIT_PERIOD"
    [letter] = letters_of(mat.api, case["id"], "closure")
    assert "No se admite la solicitud de María Rivera" in letter["text"] and "MAT-30" in letter["text"]
    assert "1 de mayo de 2024 (2024-05-01)" in letter["text"]  # reapply_earliest
