"""Migration 0015 moves the offices users, tokens and cases already hold onto the new list (issue
16, item 8): spellings that differ in letter case, accents or spaces become one office, the shipped
Regional Office's id when there is one; nothing loses sight of a case."""
from __future__ import annotations

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, text

from engine.persistence.database import MIGRATIONS


def alembic_to(url: str, revision: str) -> None:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url)
    engine = create_engine(url)
    with engine.connect() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
        conn.commit()
    engine.dispose()


def test_existing_offices_are_moved_onto_the_list(tmp_path):
    url = f"sqlite:///{tmp_path / 'old.db'}"
    alembic_to(url, "0012")
    engine = create_engine(url)
    with engine.begin() as conn:
        for n, office in enumerate(["caguas ", "Caguas", " MAYAGUEZ", "Norte", "norte", "   "]):
            conn.execute(text("INSERT INTO app_user (username, password_hash, full_name, office, active, created_at,"
                              " session_generation) VALUES (:u, 'x', '', :o, 1, '2024-01-01', 0)"),
                         {"u": f"u{n}", "o": office})
    alembic_to(url, "0015")
    with engine.connect() as conn:
        offices = dict(conn.execute(text("SELECT id, name_es FROM office")).all())
        users = dict(conn.execute(text("SELECT username, office FROM app_user")).all())
        flags = {r[0] for r in conn.execute(text("SELECT must_change_password FROM app_user"))}
    engine.dispose()
    assert users == {"u0": "Caguas", "u1": "Caguas", "u2": "Mayagüez", "u3": "Norte", "u4": "Norte", "u5": None}
    assert offices["Caguas"] == "Oficina Regional de Caguas" and offices["Norte"] == "Norte"
    assert len(offices) == 9 and flags == {0}  # the 8 Regional Offices and Norte; no forced changes
