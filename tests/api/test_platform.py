"""Auth, users and roles, parameters, errors, health, metrics and the OpenAPI document."""

from engine.persistence.models import Base
from tests.support.diagrams import rules_flow


def test_token_login_me_and_logout(api):
    r = api.call("POST", "/api/v1/auth/token", json={"username": "clerk", "password": "mala"}, expect=401)
    assert r.get_json()["code"] == 401
    api.call("GET", "/api/v1/me", expect=401)
    api.call("GET", "/api/v1/me", headers={"Authorization": "Bearer nope"}, expect=401)
    me = api.get("/api/v1/me", "clerk")
    assert me["username"] == "clerk" and me["roles"] == ["test_clerk"]
    api.call("POST", "/api/v1/auth/logout", "clerk", 204)
    api.call("GET", "/api/v1/me", headers={"Authorization": f"Bearer {api.tokens['clerk']}"}, expect=401)


def test_admin_creates_users_and_roles(api):
    created = api.post("/api/v1/users", "admin", {"username": "maria", "password": "clave-larga-1",
                                                   "full_name": "María", "roles": ["test_clerk"],
                                                   "office": "Caguas"}, expect=201)
    assert created["roles"] == ["test_clerk"] and created["office"] == "Caguas"
    api.post("/api/v1/users", "admin", {"username": "maria", "password": "clave-larga-1",
                                         "roles": ["test_clerk"]}, expect=409)
    bad = api.post("/api/v1/users", "admin", {"username": "pepe", "password": "corta", "roles": ["no_role"]},
                   expect=422)
    assert "password" in bad["errors"]
    bad = api.post("/api/v1/users", "admin", {"username": "pepe", "password": "clave-larga-1",
                                               "roles": ["no_role"]}, expect=422)
    assert bad["errors"]["roles"] == ["unknown role 'no_role'"]
    api.post("/api/v1/users", "clerk", {"username": "x", "password": "clave-larga-1", "roles": []}, expect=422)
    api.post("/api/v1/users", "clerk", {"username": "x", "password": "clave-larga-1",
                                         "roles": ["test_clerk"]}, expect=403)
    assert "maria" in [u["username"] for u in api.get("/api/v1/users", "admin")]
    api.post("/api/v1/roles", "admin", {"id": "inspector", "label_es": "Inspector", "label_en": "Inspector"},
             expect=201)
    roles = {r["id"]: r for r in api.get("/api/v1/roles", "clerk")}
    assert roles["inspector"]["label_es"] == "Inspector"
    assert roles["registry_clerk"]["label_es"] == "Oficina del Registro"
    assert {"admin", "process_owner", "supervisor"} <= set(roles)


def test_parameters_are_typed_audited_and_frozen_into_cases(api):
    params = {p["name"]: p for p in api.get("/api/v1/parameters", "clerk")}
    share = params["farmer.minIncomeSharePct"]
    assert share["value"] == 50 and share["default"] == 50 and share["amb"] == "AMB-01"
    assert params["calendar.holidays"]["type"] == "list"

    api.deploy("test_rules", rules_flow())
    before = api.post("/api/v1/processes/test_rules/instances", "clerk", {"variables": {}}, expect=201)
    bad = api.put("/api/v1/parameters/farmer.minIncomeSharePct", "admin", {"value": True}, expect=422)
    assert "value" in bad["errors"]
    api.put("/api/v1/parameters/farmer.minIncomeSharePct", "admin", {"value": "ochenta"}, expect=422)
    api.put("/api/v1/parameters/farmer.minIncomeSharePct", "clerk", {"value": 80}, expect=403)
    api.put("/api/v1/parameters/no.such", "admin", {"value": 1}, expect=404)
    # Issue 16: a value outside the catalogue's range is refused on its field and changes nothing.
    negative = api.put("/api/v1/parameters/farmer.reviewDeadlineDays", "admin", {"value": -3}, expect=422)
    assert negative["errors"] == {"value": ["Debe ser al menos 1; escribió -3."]}
    assert {p["name"]: p for p in api.get("/api/v1/parameters", "clerk")}["farmer.reviewDeadlineDays"]["value"] == 20
    changed = api.put("/api/v1/parameters/farmer.minIncomeSharePct", "admin", {"value": 80})
    assert changed["value"] == 80 and changed["updated_by"] == "admin"
    after = api.post("/api/v1/processes/test_rules/instances", "clerk", {"variables": {}}, expect=201)

    data = {"data": {"gross_annual_income": "100.00", "activity_income": "79.99"}}
    old = api.post(f"/api/v1/tasks/{api.open_task(before, 'intake')['id']}/complete", "clerk", data)
    new = api.post(f"/api/v1/tasks/{api.open_task(after, 'intake')['id']}/complete", "clerk", data)
    assert old["instance"]["variables"]["eligibility"]["outcome"] is True   # started under 50 %
    assert new["instance"]["variables"]["eligibility"]["outcome"] is False  # started under 80 %
    assert new["instance"]["variables"]["eligibility"]["inputs"]["min_share_pct"] == "80.00"


def test_lists_are_paginated_with_total_and_links(api):
    api.deploy("test_rules", rules_flow())
    for _ in range(5):
        api.post("/api/v1/processes/test_rules/instances", "clerk", {"variables": {}}, expect=201)
    r = api.call("GET", "/api/v1/instances?per_page=2&page=2", "boss", 200)
    assert len(r.get_json()) == 2 and r.headers["X-Total-Count"] == "5"
    assert 'rel="next"' in r.headers["Link"] and 'rel="prev"' in r.headers["Link"]
    bad = api.call("GET", "/api/v1/instances?per_page=501", "boss", 422).get_json()
    assert "per_page" in bad["errors"]
    mine = api.get("/api/v1/instances", "clerk")
    assert len(mine) == 5
    assert api.get("/api/v1/instances", "nobody") == []
    api.get(f"/api/v1/instances/{mine[0]['id']}", "nobody", expect=403)
    api.get("/api/v1/instances/999999", "boss", expect=404)


def test_malformed_and_hostile_bodies_never_give_a_500(api):
    for body in ("{", "[]", '"x"', "null", "{" * 100000):
        r = api.call("POST", "/api/v1/processes/test_rules/instances", "clerk", None,
                     data=body, content_type="application/json")
        assert r.status_code in (400, 404, 422), (body[:20], r.status_code)
        assert r.get_json()["code"] == r.status_code
    r = api.call("POST", "/api/v1/auth/token", data="x" * (21 * 1024 * 1024), content_type="application/json")
    assert r.status_code == 413


def test_health_metrics_landing_and_openapi(api):
    assert api.call("GET", "/healthz", expect=200).get_json() == {"status": "ok", "database": "ok"}
    api.client.application.config["TRAMITE_METRICS_TOKEN"] = "scraper-token"
    metrics = api.call("GET", "/metrics", expect=200,
                       headers={"Authorization": "Bearer scraper-token"}).get_data(as_text=True)
    assert "tramite_open_tasks" in metrics
    assert "/api/docs" in api.call("GET", "/", expect=200).get_data(as_text=True)
    spec = api.call("GET", "/api/v1/openapi.json", expect=200).get_json()
    paths = spec["paths"]
    for path in ["/api/v1/auth/token", "/api/v1/auth/logout", "/api/v1/me", "/api/v1/users", "/api/v1/roles",
                 "/api/v1/processes", "/api/v1/processes/{key}/versions",
                 "/api/v1/processes/{key}/versions/{version}", "/api/v1/processes/{key}/versions/{version}/bpmn",
                 "/api/v1/processes/{key}/instances", "/api/v1/instances", "/api/v1/instances/{instance_id}",
                 "/api/v1/instances/{instance_id}/history", "/api/v1/instances/{instance_id}/activity",
                 "/api/v1/instances/{instance_id}/messages/{name}", "/api/v1/instances/{instance_id}/cancel",
                 "/api/v1/instances/{instance_id}/retry", "/api/v1/tasks", "/api/v1/tasks/{task_id}",
                 "/api/v1/tasks/{task_id}/claim", "/api/v1/tasks/{task_id}/unclaim",
                 "/api/v1/tasks/{task_id}/assign", "/api/v1/tasks/{task_id}/complete",
                 "/api/v1/parameters", "/api/v1/parameters/{name}", "/api/v1/admin/clock"]:
        assert path in paths, path
    docs = api.call("GET", "/api/docs", expect=200).get_data(as_text=True)
    assert "/static/vendor/swagger-ui/" in docs and "cdn" not in docs.lower()
    asset = api.call("GET", "/static/vendor/swagger-ui/swagger-ui-bundle.js")
    assert asset.status_code == 200


def test_migrations_match_the_models(engine):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from engine.persistence.models import MIGRATION_ONLY_INDEXES, MIGRATION_ONLY_TABLES

    def compared(obj, name, type_, reflected, compare_to):
        return not (type_ == "index" and name in MIGRATION_ONLY_INDEXES
                    or type_ == "table" and name in MIGRATION_ONLY_TABLES
                    or type_ == "index" and getattr(getattr(obj, "table", None), "name", None) in MIGRATION_ONLY_TABLES)
    with engine.db.write_engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"include_object": compared})
        assert compare_metadata(context, Base.metadata) == []


def test_the_audit_log_cannot_be_rewritten_on_postgresql(engine, api):
    import pytest
    from sqlalchemy import text
    from sqlalchemy.exc import DBAPIError
    api.deploy("test_rules", rules_flow())
    if engine.db.is_sqlite:
        pytest.skip("the append-only trigger is a PostgreSQL feature; this test runs in the PostgreSQL phase")
    with pytest.raises(DBAPIError, match="append-only"):
        with engine.db.transaction() as session:
            session.execute(text("UPDATE audit_event SET actor = 'mallory'"))
    with pytest.raises(DBAPIError, match="append-only"):
        with engine.db.transaction() as session:
            session.execute(text("DELETE FROM audit_event"))
