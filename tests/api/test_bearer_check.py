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
        fast = accounts.bearer_row(conn, params)
        missing = accounts.bearer_row(conn, {"token_hash": "0" * 64})
    assert fast == core
    assert fast["expires_at"].tzinfo is not None and fast["roles"].split() == ["test_clerk"]
    assert missing is None


def test_a_revoked_token_is_refused_at_the_next_request(api, app):
    api.get("/api/v1/me", "clerk")
    with app.extensions["tramite"].db.write_engine.begin() as conn:
        conn.execute(update(ApiToken.__table__).values(revoked_at=datetime.now(timezone.utc)))
    api.call("GET", "/api/v1/me", headers={"Authorization": f"Bearer {api.token('clerk')}"}, expect=401)


def test_a_write_request_checks_its_token_on_a_connection_held_for_that_statement(api, app):
    engine = app.extensions["tramite"].db.read_engine
    with engine.connect() as conn:
        expected = accounts.authenticate(conn, api.token("clerk"))
    assert accounts.authenticate_once(engine, api.token("clerk")) == expected
    with app.extensions["tramite"].db.write_engine.begin() as conn:
        conn.execute(update(ApiToken.__table__).values(revoked_at=datetime.now(timezone.utc)))
    # A write is refused as a read is; the refusal leaves no connection checked out.
    api.call("POST", "/api/v1/auth/logout", headers={"Authorization": f"Bearer {api.token('clerk')}"}, expect=401)
    assert engine.pool.checkedout() == 0


def test_a_list_on_the_bearer_checks_connection_asks_for_absences_only_when_one_names_the_user(api, app):
    from sqlalchemy import event

    from engine.identity import absences

    read = app.extensions["tramite"].db.read_engine
    statements = []

    def seen(_conn, _cursor, statement, *_args):
        statements.append(statement)

    event.listen(read, "before_cursor_execute", seen)
    try:
        with read.connect() as conn:
            accounts.authenticate(conn, api.token("clerk2"), note_absences=True)
            assert len(statements) == 1  # the bearer's own row (its listeners see it too)
            statements.clear()
            assert absences.stood_in_for(conn, "clerk2", datetime.now) == [] and statements == []
            assert absences.stood_in_for(conn, "clerk", datetime.now) == [] and len(statements) == 1
        with read.connect() as other:  # another connection is not what the check read
            absences.stood_in_for(other, "clerk2", datetime.now)
            assert len(statements) == 2
        absences.forget_noted()
        api.put("/api/v1/users/clerk/absence", "clerk", {"from": "2024-04-01", "until": "2024-04-05",
                                                          "substitute": "clerk2"})
        statements.clear()
        with read.connect() as conn:
            accounts.authenticate(conn, api.token("clerk2"), note_absences=True)
            assert absences.stood_in_for(conn, "clerk2", app.extensions["tramite"].now) == ["clerk"]
            assert len([s for s in statements if "user_absence" in s and "api_token" not in s]) == 1  # (the test clock reads its row)
    finally:
        absences.forget_noted()
        event.remove(read, "before_cursor_execute", seen)
