"""Passwords in the web pages (issue 16, item 8): an admin resets one (a temporary password shown
once, or one the admin types) and the user must choose their own at the next sign-in before any
other page; a signed-in user changes their own (current + new). Each ends the user's other sessions
and tokens, and is audited."""
from __future__ import annotations

import re

from sqlalchemy import select

from engine.persistence.models import AuditEvent
from tests.conftest import PASSWORD
from tests.web.conftest import WebClient, text_of


def audited(engine, kind: str) -> list[dict]:
    return engine.read(lambda s: [e.data for e in s.scalars(select(AuditEvent).where(AuditEvent.type == kind))])


def lands_on(client: WebClient, path: str) -> str:
    response = client.client.get(path)
    return response.headers.get("Location", "") if response.status_code == 302 else str(response.status_code)


def token_works(api, token: str) -> bool:
    return api.client.get("/api/v1/me", headers={"Authorization": f"Bearer {token}"}).status_code == 200


def change(client: WebClient, current: str, new: str, confirmation: str | None = None, expect: int = 302):
    return client.post("/web/password", {"current_password": current, "password": new,
                                         "confirmation": new if confirmation is None else confirmation},
                       expect=expect)


def test_an_admin_reset_shows_a_temporary_password_once_and_the_user_must_change_it(app, api, engine, web):
    before = WebClient(app).login("clerk")
    token = api.token("clerk")
    admin = web("admin")
    page = admin.post("/web/admin/users/clerk/password", {"password": ""}, expect=200).get_data(as_text=True)
    temporary = re.search(r'<code class="temporary-password">([^<]+)</code>', page).group(1)
    assert len(temporary) >= 12 and "se muestra solo esta vez" in text_of(page)
    assert temporary not in admin.get("/web/admin/users/clerk")  # once: not on the page again
    assert lands_on(before, "/web/tasks").startswith("/web/login") and not token_works(api, token)
    assert audited(engine, "password_reset") == [{"username": "clerk"}]

    clerk = WebClient(app).login("clerk", temporary)
    for path in ("/web/tasks", "/web/cases", "/web/"):
        assert "/web/password" in lands_on(clerk, path)
    assert "Un administrador restableció su contraseña" in text_of(clerk.get("/web/password"))
    refused = change(clerk, "no-es-esta", "mi-clave-nueva-1", expect=422)
    assert "La contraseña actual no es correcta." in text_of(refused.get_data(as_text=True))
    refused = change(clerk, temporary, "mi-clave-nueva-1", "otra-cosa-123", expect=422)
    assert "La confirmación no coincide" in text_of(refused.get_data(as_text=True))
    assert "La contraseña debe tener al menos 8 caracteres." in text_of(
        change(clerk, temporary, "corta", expect=422).get_data(as_text=True))
    assert "debe ser distinta de la actual" in text_of(change(clerk, temporary, temporary, expect=422)
                                                       .get_data(as_text=True))
    change(clerk, temporary, "mi-clave-nueva-1")
    assert clerk.client.get("/web/tasks").status_code == 200
    WebClient(app).login("clerk", temporary, expect=401)
    assert lands_on(WebClient(app).login("clerk", "mi-clave-nueva-1"), "/web/tasks") == "200"
    assert {"username": "clerk"} in audited(engine, "password_changed")


def test_a_password_the_admin_types_is_a_reset_too(app, web):
    web("admin").post("/web/admin/users/reviewer/password", {"password": "temporal-del-admin"})
    reviewer = WebClient(app).login("reviewer", "temporal-del-admin")
    assert "/web/password" in lands_on(reviewer, "/web/tasks")
    change(reviewer, "temporal-del-admin", "la-mia-propia-9")
    assert lands_on(reviewer, "/web/tasks") == "200"


def test_a_user_changes_their_own_password_and_their_other_sessions_end(app, api, engine):
    here, elsewhere = WebClient(app).login("clerk"), WebClient(app).login("clerk")
    token = api.token("clerk")
    assert "Contraseña actual" in here.get("/web/password")
    assert "Un administrador restableció" not in here.get("/web/password")
    change(here, PASSWORD, "mi-clave-nueva-1")
    assert lands_on(here, "/web/tasks") == "200"  # this browser carries on
    assert lands_on(elsewhere, "/web/tasks").startswith("/web/login") and not token_works(api, token)
    assert lands_on(WebClient(app).login("clerk", "mi-clave-nueva-1"), "/web/tasks") == "200"
    assert audited(engine, "password_changed") == [{"username": "clerk"}]


def test_the_top_bar_links_to_the_own_password_page(web):
    html = web("boss").get("/web/dashboard")
    assert 'href="/web/password"' in html
    web().get("/web/password", expect=302)  # signed out: the login first


def test_guessing_the_current_password_on_the_page_is_throttled_like_a_login(app, web):
    clerk = web("clerk")
    for _ in range(5):  # the policy's failures per username
        change(clerk, "no-es-esta", "mi-clave-nueva-1", expect=422)
    change(clerk, PASSWORD, "mi-clave-nueva-1", expect=429)  # even the right one, for now
    WebClient(app).login("clerk", expect=429)  # the same count as the login's
