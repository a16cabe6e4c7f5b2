"""API tokens for other agencies' systems: named, scoped to roles (never `admin`), expiring,
listed and revoked by admins, shown once and stored only as a hash."""
from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

from sqlalchemy import select, text, update

from engine.identity.accounts import token_hash
from engine.persistence.models import AgencyToken
from tests.web.conftest import WebClient

BODY = {"name": "hacienda-sistema", "roles": ["test_clerk"], "expires_in_days": 30, "office": "Norte"}


def bearer(api, token, method="GET", path="/api/v1/me", **kw):
    return api.client.open(path, method=method, headers={"Authorization": f"Bearer {token}"}, **kw)


def test_an_admin_makes_a_token_that_acts_with_its_roles_only(api):
    before = datetime.now(timezone.utc)
    made = api.post("/api/v1/api-tokens", "admin", BODY, expect=201)
    assert made["token"].startswith("tra_") and len(made["token"]) > 40
    assert made["roles"] == ["test_clerk"] and made["office"] == "Norte" and made["state"] == "active"
    assert made["created_by"] == "admin" and made["actor"] == "token:hacienda-sistema"
    expires = datetime.fromisoformat(made["expires_at"])
    assert before + timedelta(days=30) <= expires <= datetime.now(timezone.utc) + timedelta(days=30)
    me = bearer(api, made["token"]).get_json()
    assert me["username"] == "token:hacienda-sistema" and me["roles"] == ["test_clerk"] and me["office"] == "Norte"
    assert bearer(api, made["token"], path="/api/v1/tasks").status_code == 200
    # What its roles do not allow stays refused: it administers nothing.
    assert bearer(api, made["token"], path="/api/v1/users").status_code == 403
    assert bearer(api, made["token"], "POST", "/api/v1/api-tokens", json={**BODY, "name": "otro"}).status_code == 403


def test_the_token_is_shown_once_and_stored_only_as_a_hash(api, engine):
    made = api.post("/api/v1/api-tokens", "admin", BODY, expect=201)
    listed = api.get("/api/v1/api-tokens", "admin")
    assert [t["name"] for t in listed] == ["hacienda-sistema"] and "token" not in listed[0]
    assert made["token"] not in str(listed)
    rows = engine.read(lambda s: [tuple(r) for r in s.execute(text("SELECT * FROM agency_token")).all()])
    assert made["token"] not in str(rows) and token_hash(made["token"]) in str(rows)


def test_only_admins_make_list_and_revoke_tokens(api):
    made = api.post("/api/v1/api-tokens", "admin", BODY, expect=201)
    for user in ("clerk", "boss", "owner"):
        api.post("/api/v1/api-tokens", user, {**BODY, "name": f"by-{user}"}, expect=403)
        api.get("/api/v1/api-tokens", user, expect=403)
        api.call("DELETE", f"/api/v1/api-tokens/{made['id']}", user, 403)
    assert bearer(api, made["token"]).status_code == 200


def test_a_token_cannot_hold_admin_or_unknown_roles_or_last_for_ever(api):
    for body, field in (({**BODY, "roles": ["admin"]}, "roles"), ({**BODY, "roles": ["test_clerk", "admin"]}, "roles"),
                        ({**BODY, "roles": ["no_such_role"]}, "roles"), ({**BODY, "roles": []}, "roles"),
                        ({**BODY, "expires_in_days": 0}, "expires_in_days"),
                        ({**BODY, "expires_in_days": 5000}, "expires_in_days"),
                        ({**BODY, "name": "Con Espacios!"}, "name")):
        answer = api.post("/api/v1/api-tokens", "admin", body, expect=422)
        assert field in answer["errors"], answer
    assert api.get("/api/v1/api-tokens", "admin") == []


def test_a_name_is_taken_once(api):
    api.post("/api/v1/api-tokens", "admin", BODY, expect=201)
    api.post("/api/v1/api-tokens", "admin", {**BODY, "name": "HACIENDA-sistema"}, expect=409)


def test_an_expired_token_is_refused(api, engine):
    made = api.post("/api/v1/api-tokens", "admin", BODY, expect=201)
    with engine.db.transaction() as session:
        session.execute(update(AgencyToken).values(expires_at=datetime.now(timezone.utc) - timedelta(seconds=1)))
    assert bearer(api, made["token"]).status_code == 401
    assert api.get("/api/v1/api-tokens", "admin")[0]["state"] == "expired"


def test_a_revoked_token_stops_at_once_and_stays_on_record(api, engine):
    made = api.post("/api/v1/api-tokens", "admin", BODY, expect=201)
    other = api.post("/api/v1/api-tokens", "admin", {**BODY, "name": "otro-sistema"}, expect=201)
    api.call("DELETE", f"/api/v1/api-tokens/{made['id']}", "admin", 204)
    assert bearer(api, made["token"]).status_code == 401
    assert bearer(api, other["token"]).status_code == 200
    states = {t["name"]: t["state"] for t in api.get("/api/v1/api-tokens", "admin")}
    assert states == {"hacienda-sistema": "revoked", "otro-sistema": "active"}
    api.call("DELETE", "/api/v1/api-tokens/999999", "admin", 404)
    revoked_by = engine.read(lambda s: s.scalar(select(AgencyToken.revoked_by).where(AgencyToken.id == made["id"])))
    assert revoked_by == "admin"


def test_a_made_up_agency_token_is_refused(api):
    assert bearer(api, "tra_" + "x" * 43).status_code == 401


def test_the_admin_page_makes_shows_once_and_revokes(app, api):
    admin = WebClient(app).login("admin")
    response = admin.post("/web/admin/api-tokens", {"name": "registro-demografico", "roles": ["test_reviewer"],
                                                    "expires_in_days": "7"}, expect=201)
    page = response.get_data(as_text=True)
    token = re.search(r'id="token-value">(tra_[^<]+)<', page).group(1)
    assert bearer(api, token).get_json()["roles"] == ["test_reviewer"]
    listing = admin.get("/web/admin/api-tokens")
    assert "registro-demografico" in listing and token not in listing
    with admin.client.session_transaction() as session:
        assert token not in str(dict(session))
    made = api.get("/api/v1/api-tokens", "admin")[0]
    admin.post(f"/web/admin/api-tokens/{made['id']}/revoke")
    assert bearer(api, token).status_code == 401
    refused = admin.post("/web/admin/api-tokens", {"name": "x y", "roles": ["admin"], "expires_in_days": "a"},
                         expect=422)
    assert "tra_" not in refused.get_data(as_text=True)
    WebClient(app).login("clerk").get("/web/admin/api-tokens", expect=403)
