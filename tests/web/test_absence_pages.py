"""The absence page (API.md "Work management"): a user sets and ends their own absence, a
supervisor or admin anyone's; each refusal sits beside its field, in Spanish or English; the
substitute must hold the absent user's lanes, as the API says. And the user's own account page."""
from __future__ import annotations

from html import unescape

from engine.commands.tasks import claim
from tests.conftest import USERS
from tests.support.spanish_check import untranslated
from tests.web.conftest import actor, text_of


def field_error(html: str, field: str) -> str:
    start = html.index(f'id="err-{field}"')
    return unescape(text_of(html[html.rindex("<p", 0, start):html.index("</p>", start)])).strip()


def absence_row(html: str, username: str) -> str:
    start = html.index(f'data-absence="{username}"')
    return text_of(html[start:html.index("</tr>", start)])


def test_a_user_sets_their_own_absence_the_substitute_takes_over_and_they_end_it(web, web_case, engine):
    task_id = web_case["open_tasks"][0]["id"]
    engine.execute(claim, actor("reviewer"), task_id)
    reviewer = web("reviewer")
    assert "No hay ausencias fijadas" in text_of(reviewer.get("/web/absences"))
    done = reviewer.post("/web/absences", {"from": "2024-04-01", "until": "2024-04-10", "substitute": "both",
                                           "username": "boss"})  # not theirs to choose: their own is set
    assert done.headers["Location"].endswith("/web/absences")
    page = reviewer.get("/web/absences")
    assert "Ausencia de reviewer guardada: both la sustituye" in text_of(page)
    row = absence_row(page, "reviewer")
    assert "1 abr 2024" in row and "10 abr 2024" in row and "both" in row and "En curso" in row
    assert 'data-absence="boss"' not in page
    assert "suplencia de reviewer" in text_of(web("both").get("/web/tasks"))
    reviewer.post("/web/absences/reviewer/end")
    assert "No hay ausencias fijadas" in text_of(reviewer.get("/web/absences"))
    assert "suplencia de reviewer" not in text_of(web("both").get("/web/tasks"))


def test_each_field_says_what_is_wrong_in_spanish_and_in_english(web, web_case, engine):
    engine.execute(claim, actor("reviewer"), web_case["open_tasks"][0]["id"])
    reviewer = web("reviewer")
    empty = reviewer.post("/web/absences", {}, expect=422).get_data(as_text=True)
    assert field_error(empty, "from") == "Escriba el primer día de la ausencia."
    assert field_error(empty, "until") == "Escriba el último día de la ausencia."
    assert field_error(empty, "substitute") == "Elija quién la sustituye."
    backwards = reviewer.post("/web/absences", {"from": "2024-04-10", "until": "2024-04-01", "substitute": "both"},
                              expect=422).get_data(as_text=True)
    assert field_error(backwards, "until") == "El último día no puede ser anterior al primero."
    bad_day = reviewer.post("/web/absences", {"from": "2024-02-30", "until": "2024-04-01", "substitute": "both"},
                            expect=422).get_data(as_text=True)
    assert field_error(bad_day, "from") == "Escriba una fecha válida (AAAA-MM-DD)."
    lane = reviewer.post("/web/absences", {"from": "2024-04-01", "until": "2024-04-05", "substitute": "clerk"},
                         expect=422).get_data(as_text=True)
    assert field_error(lane, "substitute") == \
        "No tiene el rol «Revisor de prueba», que tienen las tareas de la persona ausente."
    assert 'value="2024-04-01"' in lane  # what was typed stays
    themself = reviewer.post("/web/absences", {"from": "2024-04-01", "until": "2024-04-05", "substitute": "reviewer"},
                             expect=422).get_data(as_text=True)
    assert field_error(themself, "substitute") == "La persona sustituta tiene que ser otra."
    reviewer.get("/web/lang/en", expect=302)
    english = reviewer.post("/web/absences", {"from": "2024-04-01", "until": "2024-04-05", "substitute": "clerk"},
                            expect=422).get_data(as_text=True)
    assert field_error(english, "substitute") == "Does not hold the role «Test reviewer» of the absent user's tasks."
    assert "Absences and substitutes" in text_of(english)
    assert "No absence" in text_of(reviewer.get("/web/absences"))


def test_a_supervisor_sets_and_ends_someone_elses_and_a_user_cannot_end_theirs(web, web_case, engine):
    boss = web("boss")
    boss.post("/web/absences", {"username": "clerk", "from": "2024-04-02", "until": "2024-04-03",
                                "substitute": "clerk2"})
    assert "Por empezar" in absence_row(boss.get("/web/absences"), "clerk")
    clerk2 = web("clerk2")
    assert 'data-absence="clerk"' not in clerk2.get("/web/absences")
    clerk2.post("/web/absences/clerk/end")
    assert "Solo un supervisor o un administrador" in text_of(clerk2.get("/web/absences"))
    assert "clerk2" in absence_row(boss.get("/web/absences"), "clerk")
    admin = web("admin")
    admin.post("/web/absences/clerk/end")
    assert 'data-absence="clerk"' not in admin.get("/web/absences")
    missing = boss.post("/web/absences", {"username": "", "from": "2024-04-02", "until": "2024-04-03",
                                          "substitute": "clerk2"}, expect=422).get_data(as_text=True)
    assert field_error(missing, "username") == "Elija a la persona ausente."


def test_the_account_page_shows_the_email_and_a_supervisor_chooses_the_digest(web, engine, api):
    api.put("/api/v1/users/boss", "admin", {"email": "boss@agencia.pr.gov"})
    boss = web("boss")
    page = boss.get("/web/account")
    assert "boss@agencia.pr.gov" in text_of(page) and "No lo recibe." in text_of(page)
    boss.post("/web/account/digest", {"daily_digest": "1"})
    page = boss.get("/web/account")
    assert "Lo recibe." in text_of(page) and "Recibirá el resumen diario" in text_of(page)
    assert next(u for u in api.get("/api/v1/users", "admin") if u["username"] == "boss")["daily_digest"] is True
    clerk = web("clerk").get("/web/account")
    assert "Sin correo: no recibe recordatorios" in text_of(clerk) and "Resumen diario" not in text_of(clerk)
    assert 'href="/web/account"' in web("clerk").get("/web/tasks")


def test_the_admin_pages_take_check_and_change_the_email(web):
    admin = web("admin")
    bad = admin.post("/web/admin/users", {"username": "ana", "password": "secreto-123", "roles": ["test_clerk"],
                                          "email": "ana@agencia"}, expect=422).get_data(as_text=True)
    assert "No es una dirección de correo electrónico válida" in field_error(bad, "email")
    admin.post("/web/admin/users", {"username": "ana", "password": "secreto-123", "roles": ["test_clerk"],
                                    "email": "ana@agencia.pr.gov"})
    assert 'value="ana@agencia.pr.gov"' in admin.get("/web/admin/users/ana")
    admin.post("/web/admin/users/ana", {"full_name": "Ana", "roles": ["test_clerk"], "email": "nada"}, expect=422)
    admin.post("/web/admin/users/ana", {"full_name": "Ana", "roles": ["test_clerk"], "email": "ana.r@agencia.pr.gov"})
    assert 'value="ana.r@agencia.pr.gov"' in admin.get("/web/admin/users/ana")


def test_the_new_pages_read_in_spanish(web, web_case, engine):
    engine.execute(claim, actor("reviewer"), web_case["open_tasks"][0]["id"])
    boss = web("boss")
    boss.post("/web/absences", {"username": "reviewer", "from": "2024-04-01", "until": "2024-04-10",
                                "substitute": "both"})
    names = [*USERS, *(u.title() for u in USERS)]
    for path in ("/web/absences", "/web/account"):
        assert untranslated(boss.get(path), allow=names) == [], path
    refused = boss.post("/web/absences", {"username": "reviewer", "from": "2024-04-01", "until": "2024-04-10",
                                          "substitute": "clerk"}, expect=422).get_data(as_text=True)
    assert untranslated(refused, allow=names) == []
