"""Migration tests' scaffolding: a scratch database prepared to the newest revision (PostgreSQL when
the suite runs there, else a SQLite file), and alembic run on it up or down to a revision."""
from __future__ import annotations

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import make_url

from engine.bootstrap import make_engine, prepare
from engine.config.clock import Clock, parse_instant
from engine.persistence.database import MIGRATIONS
from tests.conftest import PG_URL, START
from tests.support.databases import fresh_database


def scratch_engine(tmp_path, worker_id: str, label: str):
    """A prepared engine on a database of its own (dispose it at the end), the clock at START."""
    url = (fresh_database(PG_URL, f"{make_url(PG_URL).database}_{worker_id}_{label}") if PG_URL
           else f"sqlite:///{tmp_path / f'{label}.db'}")
    engine = make_engine(url, Clock("manual", parse_instant(START)))
    prepare(engine)
    return engine


def alembic_to(engine, revision: str, down: bool = False) -> None:
    """Upgrade (or downgrade) the engine's database to `revision`."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", engine.db.url.replace("%", "%%"))
    with engine.db.write_engine.connect() as conn:
        cfg.attributes["connection"] = conn
        (command.downgrade if down else command.upgrade)(cfg, revision)
        if conn.in_transaction():
            conn.commit()
