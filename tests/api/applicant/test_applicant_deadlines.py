"""What the applicant owes carries its own legal deadline (never the first one running), and every
deadline on the applicant's side carries the engine's explanation, as the staff case shows it."""
from __future__ import annotations

from datetime import datetime, timezone

from engine.applicants import status
from tests.api.applicant.conftest import Applicant, issue, session
from tests.procedures.farmer_registry.test_farmer_registry_review import elena


def _applicant(far, case):
    code = issue(far, case["id"])["access_code"]
    return Applicant(far.api.client, session(far, case["case_number"], code).get_json()["token"])


def test_the_documents_asked_for_are_due_on_their_own_deadline_with_its_explanation(far):
    case = far.evaluate(elena(far), "require_documents", required_documents=["secretario_agricultura"])
    applicant = _applicant(far, case)
    staff = {d["element_id"]: d for d in far.case(case["id"])["deadlines"]}["documents_deadline"]
    public = applicant.case()
    assert public["pending"] == [{"what": "Documentos adicionales solicitados por la oficina", "due": "2024-05-01",
                                  "explanation": staff["explanation"], "explanation_lang": "es"}]
    assert staff["explanation"].startswith("Último día para actuar: miércoles 1 de mayo de 2024.")
    assert public["deadlines"][0]["explanation"] == staff["explanation"]
    english = applicant.case("en")["pending"][0]
    assert english["what"] == "Additional documents requested by the office" and english["due"] == "2024-05-01"
    # The same arithmetic in English for the English page; the staff API's `explanation` stays Spanish.
    assert english["explanation_lang"] == "en"
    assert english["explanation"].startswith("Last day to act: Wednesday, May 1, 2024. 30 calendar days are counted")
    assert "Último" not in english["explanation"] and set(far.case(case["id"])["deadlines"][0]) == {
        "name", "element_id", "due_at", "explanation"}


def _row(element_id, name, due):
    return {"element_id": element_id, "name": name, "last_day": due, "explanation": f"expl {element_id}",
            "explanation_lang": "es"}


def test_a_pending_item_never_borrows_the_deadline_that_runs_first():
    running = [_row("validity_ended", "Vence la vigencia", "2024-04-10"), _row("docs", "Vencen los 30 días", "2024-05-01")]
    by_element = {d["element_id"]: d for d in running}
    item = {"es": "Documentos", "en": "Documents", "deadline": "docs"}
    assert status._pending(item, by_element, "es") == {"what": "Documentos", "due": "2024-05-01",
                                                       "explanation": "expl docs", "explanation_lang": "es"}
    no_timer = {"es": "Renovación (vencida)", "en": "Renewal (overdue)"}
    assert status._pending(no_timer, by_element, "en")["due"] is None


def test_the_last_day_is_the_day_before_the_timer_fires():
    assert status._last_day(datetime(2024, 5, 2, 4, 0, tzinfo=timezone.utc)) == "2024-05-01"
