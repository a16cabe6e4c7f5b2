"""TRAMITE_DATABASE_REPLICA_URL and TRAMITE_DATABASE_PREPARE (any database; the servers that use them
are tested in test_past_one_machine.py)."""
import pytest

from engine.bootstrap import make_engine
from engine.config.settings import Settings
from engine.errors import EngineError


def test_no_replica_and_prepared_statements_unless_the_environment_says_otherwise(monkeypatch):
    monkeypatch.delenv("TRAMITE_DATABASE_REPLICA_URL", raising=False)
    monkeypatch.delenv("TRAMITE_DATABASE_PREPARE", raising=False)
    settings = Settings.from_env()
    assert settings.replica_url is None and settings.prepared_statements is True
    monkeypatch.setenv("TRAMITE_DATABASE_REPLICA_URL", " postgresql+psycopg://u:p@replica:5432/tramite ")
    monkeypatch.setenv("TRAMITE_DATABASE_PREPARE", "off")
    settings = Settings.from_env()
    assert settings.replica_url == "postgresql+psycopg://u:p@replica:5432/tramite"
    assert settings.prepared_statements is False


@pytest.mark.parametrize("value", ["maybe", "2", "prepared"])
def test_a_prepare_setting_that_is_not_on_or_off_stops_the_start(monkeypatch, value):
    monkeypatch.setenv("TRAMITE_DATABASE_PREPARE", value)
    with pytest.raises(EngineError, match="TRAMITE_DATABASE_PREPARE must be on or off"):
        Settings.from_env()


def test_sqlite_has_no_replica_and_lists_read_its_one_file(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 't.db'}", replica_url="postgresql+psycopg://u:p@nowhere/x")
    assert not engine.has_replica
    assert engine.read_listing_rows(lambda conn: conn.exec_driver_sql("SELECT 1").scalar()) == 1
    engine.db.dispose()

