"""Admin pages for users (edit, deactivate, reactivate) and for the bidder, beneficiary and store
registries; the session cookie's flags. Through Flask's test client; the browser suite drives the
same pages in chromium."""
from __future__ import annotations

from api.web.site import secure_cookies_wanted
from tests.conftest import PASSWORD
from tests.web.conftest import text_of


def test_an_admin_corrects_a_user_s_name_office_and_roles(web):
    admin = web("admin")
    admin.post("/web/admin/users/clerk", {"full_name": "Carmen Rivera", "office": "Caguas",
                                          "roles": ["test_clerk", "test_reviewer"]})
    page = text_of(admin.get("/web/admin/users"))
    assert "Usuario clerk actualizado." in page and "clerk Carmen Rivera" in page and "Caguas" in page
    assert 'value="test_reviewer" checked' in admin.get("/web/admin/users/clerk")
    refused = admin.post("/web/admin/users/clerk", {"full_name": "X", "roles": []}, expect=422)
    assert "Elija al menos un rol" in text_of(refused.get_data(as_text=True))
    refused = admin.post("/web/admin/users/admin", {"full_name": "Admin", "roles": ["supervisor"]}, expect=422)
    assert "keep your own admin role" in refused.get_data(as_text=True)
    admin.get("/web/admin/users/nadie", expect=404)


def test_a_deactivated_user_can_neither_log_in_nor_use_a_token_until_reactivated(web, api):
    token = api.token("clerk")
    clerk = web("clerk")
    admin = web("admin")
    admin.post("/web/admin/users/clerk/active", {"active": "0"})
    assert "Usuario clerk desactivado" in text_of(admin.get("/web/admin/users"))
    assert clerk.client.get("/web/tasks").status_code == 302  # the open session ends at once
    web().login("clerk", expect=401)
    assert api.client.get("/api/v1/me", headers={"Authorization": f"Bearer {token}"}).status_code == 401
    assert api.client.post("/api/v1/auth/token", json={"username": "clerk", "password": PASSWORD}).status_code == 401
    admin.post("/web/admin/users/clerk/active", {"active": "1"})
    web("clerk")
    # Reactivating does not bring the old token back; a new login gives a new one.
    assert api.client.get("/api/v1/me", headers={"Authorization": f"Bearer {token}"}).status_code == 401
    assert api.client.post("/api/v1/auth/token", json={"username": "clerk", "password": PASSWORD}).status_code == 200


def test_an_admin_cannot_deactivate_themselves(web):
    admin = web("admin")
    admin.post("/web/admin/users/admin/active", {"active": "0"})
    assert "No puede desactivar su propia cuenta." in admin.get("/web/admin/users")


def test_the_bidder_registry_adds_bans_lists_and_lifts_them(web):
    admin = web("admin")
    refused = admin.post("/web/admin/registries/bidders", {"id": "mal id", "name": "", "sanction_kind": "ban",
                                                           "sanction_reason": "colusión"}, expect=422)
    html = refused.get_data(as_text=True)
    assert "Este campo es obligatorio." in html and 'value="mal id"' in html and 'aria-invalid="true"' in html
    admin.post("/web/admin/registries/bidders", {"id": "LIC-7", "name": "Constructora Sol", "sanction_kind": "ban",
                                                 "sanction_from": "2024-03-01", "sanction_months": "12",
                                                 "sanction_reason": "colusión"})
    admin.post("/web/admin/registries/bidders", {"id": "LIC-8", "name": "Ferre Luna"})
    admin.get("/web/admin/registries/bidders/LIC-8")  # the page the flash was meant for
    html = admin.get("/web/admin/registries/bidders?banned=1")
    assert "LIC-7 Constructora Sol Inhabilitado hasta el 28 feb 2025 colusión" in text_of(html)
    assert 'data-bidder="LIC-8"' not in html
    assert "LIC-8 Ferre Luna Habilitado" in text_of(admin.get("/web/admin/registries/bidders?banned=0"))
    refused = admin.post("/web/admin/registries/bidders/LIC-8", {"_action": "sanction", "kind": "ban",
                                                                 "from": "2024-04-01", "reason": "x"}, expect=422)
    assert "Una inhabilitación dura un número de meses." in refused.get_data(as_text=True)
    admin.post("/web/admin/registries/bidders/LIC-8", {"_action": "rename", "name": "Ferretería Luna"})
    admin.post("/web/admin/registries/bidders/LIC-7", {"_action": "lift"})
    page = text_of(admin.get("/web/admin/registries/bidders/LIC-7"))
    assert "Se levantaron 1 sanciones en vigor." in page and "Habilitado: puede licitar hoy." in page
    assert "Ferretería Luna" in admin.get("/web/admin/registries/bidders/LIC-8")


def test_beneficiaries_are_searched_added_and_corrected(web):
    admin = web("admin")
    admin.post("/web/admin/registries/beneficiaries", {"id": "REC-0001", "name": "Luis Ortiz",
                                                       "municipality": "Cidra", "last_use_date": "2023-05-02"})
    admin.post("/web/admin/registries/beneficiaries", {"id": "REC-0002", "name": "Ana Vélez"})
    html = admin.get("/web/admin/registries/beneficiaries?q=ortiz")
    assert "REC-0001 Luis Ortiz Cidra 2 may 2023" in text_of(html) and 'data-beneficiary="REC-0002"' not in html
    refused = admin.post("/web/admin/registries/beneficiaries/REC-0001", {"name": "", "last_use_date": "ayer"},
                         expect=422)
    assert "Escriba una fecha válida" in refused.get_data(as_text=True)
    admin.post("/web/admin/registries/beneficiaries/REC-0001", {"name": "Luis Ortiz Rosa", "municipality": "",
                                                                "last_use_date": "2023-06-01"})
    page = text_of(admin.get("/web/admin/registries/beneficiaries/REC-0001"))
    assert "Beneficiario REC-0001 corregido." in page and "Luis Ortiz Rosa" in page and "1 jun 2023" in page
    taken = admin.post("/web/admin/registries/beneficiaries", {"id": "REC-0002", "name": "Otra"}, expect=409)
    assert "REGISTRY_ID_TAKEN" in taken.get_data(as_text=True)


def test_hardware_stores_are_filtered_added_and_marked_out_of_the_registro(web):
    admin = web("admin")
    admin.post("/web/admin/registries/stores", {"id": "RL-1001", "name": "Ferretería Cidra", "registered": "true",
                                                "municipality": "Cidra"})
    admin.post("/web/admin/registries/stores", {"id": "RL-1002", "name": "Materiales Caguas", "registered": "true"})
    admin.post("/web/admin/registries/stores/RL-1002", {"name": "Materiales Caguas"})  # box unticked
    assert 'data-registered="false"' in admin.get("/web/admin/registries/stores/RL-1002")
    html = admin.get("/web/admin/registries/stores?registered=1")
    assert "RL-1001 Ferretería Cidra Cidra Sí" in text_of(html) and 'data-store="RL-1002"' not in html
    assert 'data-store="RL-1002"' in admin.get("/web/admin/registries/stores?q=caguas")
    assert 'href="/web/admin/registries/stores"' in admin.get("/web/admin/registries")


def test_registry_and_user_pages_are_for_admins(web):
    boss = web("boss")
    for path in ("/web/admin/users/clerk", "/web/admin/registries/bidders", "/web/admin/registries/stores",
                 "/web/admin/registries/beneficiaries"):
        boss.get(path, expect=403)


def test_the_session_cookie_is_httponly_lax_and_secure_when_asked(web, app, monkeypatch):
    response = web().client.get("/web/login")
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie
    secure = app.test_client().get("/web/login", base_url="https://localhost")
    assert "Secure" in secure.headers["Set-Cookie"]
    assert secure_cookies_wanted({"TRAMITE_SECURE_COOKIES": "1"}) and not secure_cookies_wanted({})
    app.config["SESSION_COOKIE_SECURE"] = True
    assert "Secure" in web().client.get("/web/login").headers["Set-Cookie"]


def test_the_login_page_is_throttled_like_the_api(web, api):
    """Failed logins on the page count in the database with the API's (no per-process memory)."""
    page = web()
    for _ in range(5):
        page.login("clerk", "wrong-password", expect=401)
    page.client.get("/web/login")
    response = page.client.post("/web/login", data={"username": "clerk", "password": PASSWORD,
                                                    "_csrf": page.csrf()})
    assert response.status_code == 429 and int(response.headers["Retry-After"]) > 0
    assert "Demasiados intentos fallidos" in response.get_data(as_text=True)
    api.call("POST", "/api/v1/auth/token", None, 429, json={"username": "clerk", "password": PASSWORD})
