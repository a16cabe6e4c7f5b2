"""The case page's legal time (issue 19): a supervisor suspends the deadlines with a reason and its
legal basis, the page says so, and resumes them; staff see the notice but not the forms."""
from __future__ import annotations

from tests.web.conftest import text_of


def test_a_supervisor_suspends_and_resumes_from_the_case_page(web, web_case):
    boss = web("boss")
    page = boss.get(f"/web/cases/{web_case['id']}")
    assert "Suspender los plazos del caso" in page
    boss.post(f"/web/cases/{web_case['id']}/suspend", {"reason": "Orden del tribunal", "legal_basis": ""})
    refused = text_of(boss.get(f"/web/cases/{web_case['id']}"))
    assert "Revise los campos" in refused and "Plazos suspendidos desde el" not in refused
    boss.post(f"/web/cases/{web_case['id']}/suspend", {"reason": "Orden del tribunal",
                                                      "legal_basis": "Sentencia KLRA-2024-0012",
                                                      "until": "2024-04-10"})
    suspended = text_of(boss.get(f"/web/cases/{web_case['id']}"))
    assert "Plazos suspendidos desde el" in suspended and "Sentencia KLRA-2024-0012" in suspended
    assert "hasta el 10 abr 2024 inclusive" in suspended
    staff = text_of(web("reviewer").get(f"/web/cases/{web_case['id']}"))
    assert "Plazos suspendidos desde el" in staff and "Reanudar los plazos" not in staff
    web("reviewer").post(f"/web/cases/{web_case['id']}/resume", expect=403)
    boss.post(f"/web/cases/{web_case['id']}/resume")
    resumed = text_of(boss.get(f"/web/cases/{web_case['id']}"))
    assert "Plazos reanudados" in resumed and "Plazos suspendidos desde el" not in resumed


def test_the_case_list_marks_a_suspended_case(web, web_case, api):
    boss = web("boss")
    assert "data-suspended" not in boss.get("/web/cases")
    api.post(f"/api/v1/instances/{web_case['id']}/suspend", "boss", {"reason": "orden", "legal_basis": "art. 1"})
    assert "plazos suspendidos" in boss.get("/web/cases")
    listed = api.get("/api/v1/instances", "boss")
    assert [c["suspended"] for c in listed] == [True]
