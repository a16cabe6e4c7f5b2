"""Offices as a managed list and users that need a role, through the HTTP API (issue 16, item 8):
POST /users refuses an office not on the list (422 errors.office, in Spanish) and resolves
"caguas " to Caguas, never a second office; no role is 422 errors.roles; the office routes add,
rename and deactivate; an admin's password reset answers a temporary password once."""
from __future__ import annotations

from engine.identity import accounts
from tests.conftest import PASSWORD


def user_body(username: str, **changes) -> dict:
    return {"username": username, "password": PASSWORD, "roles": ["test_clerk"], **changes}


def test_an_office_not_on_the_list_is_refused_and_no_office_is_made(api):
    before = api.get("/api/v1/offices", "admin")
    refused = api.post("/api/v1/users", "admin", user_body("rosa", office="Gotham"), expect=422)
    assert refused["errors"]["office"] == ["La oficina «Gotham» no está en la lista de oficinas; elija una de la lista."]
    assert api.get("/api/v1/offices", "admin") == before
    assert "rosa" not in {u["username"] for u in api.get("/api/v1/users", "admin")}


def test_caguas_in_any_spelling_is_the_one_caguas(api, engine):
    spellings = ["caguas", "Caguas ", " CAGUAS", "Oficina Regional de Caguas"]
    for n, spelling in enumerate(spellings):
        assert api.post("/api/v1/users", "admin", user_body(f"u{n}", office=spelling), expect=201)["office"] == "Caguas"
    assert [o["id"] for o in api.get("/api/v1/offices", "clerk")].count("Caguas") == 1
    listing = {o["id"]: o for o in api.get("/api/v1/offices?all=true", "admin")}
    assert listing["Caguas"]["users"] == len(spellings)
    assert "mayaguez" not in listing and api.post("/api/v1/users", "admin", user_body("m", office="mayaguez"),
                                                  expect=201)["office"] == "Mayagüez"


def test_a_user_needs_a_role(api):
    for body in (user_body("rosa", roles=[]), {"username": "rosa", "password": PASSWORD}):
        refused = api.post("/api/v1/users", "admin", body, expect=422)
        assert refused["errors"]["roles"] == ["Elija al menos un rol: un usuario sin rol no puede hacer nada."]
    assert "rosa" not in {u["username"] for u in api.get("/api/v1/users", "admin")}


def test_the_office_routes_add_rename_and_deactivate(api):
    made = api.post("/api/v1/offices", "admin", {"id": "Culebra", "name_es": "Oficina de Culebra"}, expect=201)
    assert made == {"id": "Culebra", "name_es": "Oficina de Culebra", "name_en": "Oficina de Culebra",
                    "municipalities": [], "active": True}
    assert api.post("/api/v1/offices", "admin", {"id": "culebra ", "name_es": "Otra"}, expect=409)["code"] == 409
    api.post("/api/v1/offices", "clerk", {"id": "X", "name_es": "X"}, expect=403)
    taken = api.call("PATCH", "/api/v1/offices/Culebra", "admin", 422, json={"municipalities": ["Culebra"]})
    assert "Culebra (Oficina Regional de Carolina)" in taken.get_json()["errors"]["municipalities"][0]
    renamed = api.call("PATCH", "/api/v1/offices/Culebra", "admin", 200,
                       json={"name_es": "Oficina Isla Culebra", "active": False}).get_json()
    assert renamed["name_es"] == "Oficina Isla Culebra" and renamed["active"] is False
    assert "Culebra" not in {o["id"] for o in api.get("/api/v1/offices", "clerk")}
    refused = api.post("/api/v1/users", "admin", user_body("rosa", office="Culebra"), expect=422)
    assert "desactivada" in refused["errors"]["office"][0]
    api.call("PATCH", "/api/v1/offices/Nada", "admin", 404, json={"active": True})
    api.get("/api/v1/offices?all=true", "clerk", expect=403)


def test_an_admin_reset_answers_a_temporary_password_once_and_ends_the_tokens(api, engine):
    token = api.token("clerk")
    reset = api.post("/api/v1/users/clerk/password-reset", "admin", {}, expect=200)
    assert reset["user"]["username"] == "clerk" and len(reset["temporary_password"]) >= 12
    assert api.client.get("/api/v1/me", headers={"Authorization": f"Bearer {token}"}).status_code == 401
    assert api.client.post("/api/v1/auth/token", json={"username": "clerk", "password": reset["temporary_password"]}
                           ).status_code == 200
    assert engine.read(lambda s: accounts.get_user(s, "clerk").must_change_password) is True
    chosen = api.post("/api/v1/users/reviewer/password-reset", "admin", {"temporary_password": "elegida-por-admin"})
    assert chosen["temporary_password"] == "elegida-por-admin"
    api.post("/api/v1/users/admin/password-reset", "admin", {}, expect=409)  # one's own: the password page
    api.post("/api/v1/users/reviewer/password-reset", "boss", {}, expect=403)


def test_an_agency_token_s_office_is_one_on_the_list(api):
    body = {"name": "sistema-hacienda", "roles": ["test_clerk"], "expires_in_days": 30, "office": "norte "}
    assert api.post("/api/v1/api-tokens", "admin", body, expect=201)["office"] == "Norte"
    refused = api.post("/api/v1/api-tokens", "admin", {**body, "name": "otro", "office": "Gotham"}, expect=422)
    assert refused["errors"]["office"][0].startswith("La oficina «Gotham» no está en la lista")
