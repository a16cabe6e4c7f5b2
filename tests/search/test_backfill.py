"""Migration 0016 fills the search columns of the cases that existed before it."""
from __future__ import annotations

from alembic import command
from alembic.config import Config
from sqlalchemy import select
from sqlalchemy.engine import make_url

from engine.bootstrap import make_engine, prepare
from engine.commands.cases import start_case
from engine.commands.deploy import deploy
from engine.config.clock import Clock, parse_instant
from engine.identity.actor import Actor
from engine.persistence.database import MIGRATIONS
from engine.persistence.models import ProcessInstance
from tests.conftest import PG_URL, START
from tests.procedures.farmer_registry.conftest import ADMISSION, MEMBERSHIP, application, farmer_files
from tests.support.databases import fresh_database

CLERK = Actor("far_clerk", frozenset({"registry_clerk"}))
OWNER = Actor("owner", frozenset({"process_owner"}))


def _alembic(engine, revision: str, down: bool = False) -> None:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", engine.db.url.replace("%", "%%"))
    with engine.db.write_engine.connect() as conn:
        cfg.attributes["connection"] = conn
        (command.downgrade if down else command.upgrade)(cfg, revision)
        if conn.in_transaction():
            conn.commit()


def test_the_migration_fills_the_columns_of_existing_cases(tmp_path, worker_id):
    url = (fresh_database(PG_URL, f"{make_url(PG_URL).database}_{worker_id}_backfill") if PG_URL
           else f"sqlite:///{tmp_path / 'backfill.db'}")
    engine = make_engine(url, Clock("manual", parse_instant(START)))
    try:
        prepare(engine)
        for key in (MEMBERSHIP, ADMISSION):
            engine.execute(deploy, OWNER, key, farmer_files())
        numbers = [engine.execute(start_case, CLERK, ADMISSION, application(name=name))["case_number"]
                   for name in ("María Núñez", "Ana Torres")]
        _alembic(engine, "0012", down=True)   # as a database was before 0016
        _alembic(engine, "head")
        table = ProcessInstance.__table__
        with engine.db.write_engine.connect() as conn:
            rows = {r.case_number: r for r in conn.execute(select(table).order_by(table.c.id))}
        assert [rows[n].applicant_name for n in numbers] == ["María Núñez", "Ana Torres"]
        assert rows[numbers[0]].municipality == "Cidra" and rows[numbers[0]].search_text == "maria nunez | cidra"
    finally:
        engine.db.dispose()
