"""Staff pages through real HTTP (Flask's client): log in, inbox, claim, start and complete by forms."""
from __future__ import annotations

from engine.commands.tasks import claim
from engine.persistence.models import Task
from tests.web.conftest import actor, text_of


def evaluate_task(case) -> dict:
    return next(t for t in case["open_tasks"] if t["element_id"] == "evaluate")


def test_a_wrong_password_is_refused_and_the_right_one_opens_the_inbox(web):
    browser = web()
    browser.login("clerk", "no-es-esta", expect=401)
    assert browser.get("/web/tasks", expect=302)
    browser.login("clerk")
    assert "Bandeja de trabajo" in browser.get("/web/tasks")


def test_each_kind_of_user_lands_on_its_own_page(web):
    for username, page in (("clerk", "/web/tasks"), ("boss", "/web/dashboard"), ("owner", "/web/processes"),
                           ("admin", "/web/dashboard")):
        assert web(username).client.get("/web/").headers["Location"].endswith(page), username


def test_a_post_without_the_csrf_token_changes_nothing(web, web_case, engine):
    reviewer = web("reviewer")
    task = evaluate_task(web_case)
    response = reviewer.client.post(f"/web/tasks/{task['id']}/claim", data={})
    assert response.status_code == 302
    assert "caducó" in text_of(reviewer.get(f"/web/tasks/{task['id']}"))
    assert engine.read(lambda s: s.get(Task, task["id"]).assignee) is None


def test_logout_ends_the_session(web):
    clerk = web("clerk")
    clerk.post("/web/logout")
    assert clerk.get("/web/tasks", expect=302)


def test_the_inbox_counts_mine_and_available_and_marks_what_is_due(web, web_case, engine):
    reviewer = web("reviewer")
    page = text_of(reviewer.get("/web/tasks"))
    assert "Mis tareas 0" in page and "Disponibles para mi rol 1" in page
    assert "quedan 21 días" in page  # to the last day to act, the 21st day from today
    task = evaluate_task(web_case)
    reviewer.post(f"/web/tasks/{task['id']}/claim", {"next": "/web/tasks"})
    page = text_of(reviewer.get("/web/tasks"))
    assert "Mis tareas 1" in page and "Disponibles para mi rol 0" in page
    engine.execute(lambda ctx: engine.clock.move_to(ctx.conn, ctx.now.replace(day=20)), actor("admin"))
    assert "Vence pronto" in text_of(reviewer.get("/web/tasks"))


def test_the_inbox_filters_by_procedure_and_case_number(web, web_case):
    reviewer = web("reviewer")
    assert "Disponibles para mi rol 1" in text_of(reviewer.get(f"/web/tasks?case={web_case['case_number'].lower()}"))
    assert "Disponibles para mi rol 0" in text_of(reviewer.get("/web/tasks?case=TES-2024-999999"))
    assert "Disponibles para mi rol 0" in text_of(reviewer.get("/web/tasks?process=test_rules"))


def test_a_clerk_starts_a_case_with_the_start_form(web, web_case):
    clerk = web("clerk")
    assert "Solicitud de prueba" in clerk.get("/web/start")
    response = clerk.post("/web/start/test_web", {
        "applicant.name": "Luis Rivera", "applicant.municipality": "", "kind": "renewal", "amount": "$2,500.00",
        "filed_on": "2024-03-30", "urgent": "true",
        "lines.0.__row": "1", "lines.0.description": "Madera", "lines.0.quantity": "3", "lines.0.price": "10.5",
        "lines.3.__row": "1", "lines.3.description": "Clavos", "lines.3.price": "2"})
    assert "/web/cases/" in response.headers["Location"]
    page = text_of(clerk.get(response.headers["Location"]))
    assert "TES-2024-000002" in page and "Luis Rivera" in page and "Renovación" in page
    assert '"price": "2"' in clerk.get(response.headers["Location"]).replace("&#34;", '"')


def test_form_errors_are_shown_beside_their_fields_and_what_was_typed_is_kept(web, web_case):
    clerk = web("clerk")
    response = clerk.post("/web/start/test_web", {
        "applicant.name": "", "kind": "new", "amount": "doce dólares", "notes": "Línea 1\r\nLínea 2",
        "lines.0.__row": "1", "lines.0.description": "Zinc", "lines.0.quantity": "muchos", "lines.0.price": "5"},
        expect=422)
    html = response.get_data(as_text=True)
    assert 'id="f-applicant-name-errors"' in html and "Este campo es obligatorio." in html
    assert '<a href="#f-applicant-name">Nombre completo</a>' in html  # the error summary links to the field
    assert 'id="f-amount-errors"' in html and 'value="doce dólares"' in html
    assert 'id="f-lines-0-quantity-errors"' in html and 'value="muchos"' in html
    assert "Línea 1\nLínea 2</textarea>" in html and 'value="Zinc"' in html
    assert "TES-2024-000002" not in clerk.get("/web/tasks")


def test_an_evaluator_completes_the_task_and_the_case_decides(web, web_case):
    reviewer = web("reviewer")
    task = evaluate_task(web_case)
    response = reviewer.post(f"/web/tasks/{task['id']}", {
        "recommendation": "approve", "findings": "Todo en orden", "visit_date": "2024-04-02",
        "checks": ["identity", "income"],
        "quotes.0.__row": "1", "quotes.0.store": "Ferretería Cidra", "quotes.0.amount": "1,150.00"})
    assert response.headers["Location"].endswith("/web/tasks")
    case = text_of(web("boss").get(f"/web/cases/{web_case['id']}"))
    assert "APPROVED" in case and "Terminado" in case and "Ferretería Cidra" in case


def test_a_rule_refusal_names_the_rule_and_keeps_the_form(web, web_case):
    reviewer = web("reviewer")
    task = evaluate_task(web_case)
    response = reviewer.post(f"/web/tasks/{task['id']}", {"recommendation": "approve", "findings": "Sin cotizar"},
                             expect=422)
    page = text_of(response.get_data(as_text=True))
    assert "Una regla rechazó la acción" in page and "QUOTE_REQUIRED" in page and "TEST-07" in page
    assert "Sin cotizar</textarea>" in response.get_data(as_text=True)
    history = text_of(web("boss").get(f"/web/cases/{web_case['id']}"))
    assert "Tarea rechazada por una regla" in history


def test_rows_can_be_added_and_removed_without_javascript(web, web_case):
    reviewer = web("reviewer")
    task = evaluate_task(web_case)
    html = reviewer.post(f"/web/tasks/{task['id']}", {"findings": "x", "_add_row": "quotes"}, expect=200) \
        .get_data(as_text=True)
    assert 'name="quotes.0.store"' in html
    html = reviewer.post(f"/web/tasks/{task['id']}", {
        "findings": "x", "quotes.0.__row": "1", "quotes.0.store": "A", "quotes.1.__row": "1", "quotes.1.store": "B",
        "_remove_row": "quotes.0"}, expect=200).get_data(as_text=True)
    assert 'value="B"' in html and 'value="A"' not in html


def test_a_task_claimed_by_someone_else_is_shown_read_only(web, web_case, engine):
    task = evaluate_task(web_case)
    engine.execute(claim, actor("both"), task["id"])
    page = text_of(web("reviewer").get(f"/web/tasks/{task['id']}"))
    assert "Esta tarea la tiene both" in page and "Completar tarea" not in page


def test_the_task_page_shows_the_case_context_with_labels_from_the_forms(web, web_case):
    page = text_of(web("reviewer").get(f"/web/tasks/{evaluate_task(web_case)['id']}"))
    assert "Solicitante: Nombre completo Ana Torres" in page
    assert "Cantidad solicitada $1,200.50" in page and "Tipo de solicitud Nueva" in page


def test_staff_cannot_open_supervisor_owner_or_admin_pages(web):
    clerk = web("clerk")
    for path in ("/web/dashboard", "/web/processes", "/web/admin/users"):
        assert "Sin permiso" in clerk.get(path, expect=403)
    clerk.get("/web/cases")  # the cases they may see (tests/search)


def test_a_clerk_records_a_message_the_case_waits_for_through_its_form(web, engine):
    from engine.commands.cases import start_case
    from engine.commands.deploy import deploy
    from tests.support.diagrams import message_flow
    engine.execute(deploy, actor("owner"), "test_message", message_flow())
    case = engine.execute(start_case, actor("clerk"), "test_message", {})
    clerk = web("clerk")
    page = clerk.get(f"/web/cases/{case['id']}")
    assert 'data-message="documents_received"' in page
    path = f"/web/cases/{case['id']}/messages/documents_received"
    refused = clerk.post(path, {}, expect=422).get_data(as_text=True)
    assert 'id="f-documents-errors"' in refused
    clerk.post(path, {"documents.0.__row": "1", "documents.0": "cedula.pdf"})
    page = text_of(clerk.get(f"/web/cases/{case['id']}"))
    assert "Mensaje «documents_received» registrado" in page and "Mensaje recibido" in page
    assert 'data-message="documents_received"' not in clerk.get(f"/web/cases/{case['id']}")
