"""The per-request bearer check runs its query compiled once on the driver's cursor (issue 21): the
row it reads is the one `Connection.execute` reads, on SQLite and on PostgreSQL alike."""
from datetime import datetime, timezone

from sqlalchemy import update

from engine.identity import accounts
from engine.persistence.models import ApiToken


def test_the_precompiled_bearer_row_is_the_core_row(api, app):
    read = app.extensions["tramite"].db.read_engine
    params = {"token_hash": accounts.token_hash(api.token("clerk"))}
    with read.connect() as conn:
        core = conn.execute(accounts._BEARER, params).first()._asdict()
        fast = accounts._BEARER_ROW.first(conn, params)
        missing = accounts._BEARER_ROW.first(conn, {"token_hash": "0" * 64})
    assert fast == core
    assert fast["expires_at"].tzinfo is not None and fast["roles"].split() == ["test_clerk"]
    assert missing is None


def test_a_revoked_token_is_refused_at_the_next_request(api, app):
    api.get("/api/v1/me", "clerk")
    with app.extensions["tramite"].db.write_engine.begin() as conn:
        conn.execute(update(ApiToken.__table__).values(revoked_at=datetime.now(timezone.utc)))
    api.call("GET", "/api/v1/me", headers={"Authorization": f"Bearer {api.token('clerk')}"}, expect=401)
