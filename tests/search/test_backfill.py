"""Migration 0016 fills the search columns of the cases that existed before it."""
from __future__ import annotations

from sqlalchemy import select

from engine.commands.cases import start_case
from engine.commands.deploy import deploy
from engine.identity.actor import Actor
from engine.persistence.models import ProcessInstance
from tests.procedures.farmer_registry.conftest import ADMISSION, MEMBERSHIP, application, farmer_files
from tests.support.migrations import alembic_to, scratch_engine

CLERK = Actor("far_clerk", frozenset({"registry_clerk"}))
OWNER = Actor("owner", frozenset({"process_owner"}))



def test_the_migration_fills_the_columns_of_existing_cases(tmp_path, worker_id):
    engine = scratch_engine(tmp_path, worker_id, "backfill")
    try:
        for key in (MEMBERSHIP, ADMISSION):
            engine.execute(deploy, OWNER, key, farmer_files())
        numbers = [engine.execute(start_case, CLERK, ADMISSION, application(name=name))["case_number"]
                   for name in ("María Núñez", "Ana Torres")]
        alembic_to(engine, "0012", down=True)   # as a database was before 0016
        alembic_to(engine, "head")
        table = ProcessInstance.__table__
        with engine.db.write_engine.connect() as conn:
            rows = {r.case_number: r for r in conn.execute(select(table).order_by(table.c.id))}
        assert [rows[n].applicant_name for n in numbers] == ["María Núñez", "Ana Torres"]
        assert rows[numbers[0]].municipality == "Cidra" and rows[numbers[0]].search_text == "maria nunez | cidra"
    finally:
        engine.db.dispose()
