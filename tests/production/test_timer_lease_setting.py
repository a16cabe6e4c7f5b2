"""TRAMITE_TIMER_LEASE_SECONDS: how long a timer worker holds the timers it took (any database)."""
from datetime import timedelta

import pytest

from engine.errors import EngineError
from engine.config.settings import timer_lease
from engine.worker import TimerWorker


def test_the_lease_is_two_minutes_unless_the_environment_says_otherwise(monkeypatch):
    monkeypatch.delenv("TRAMITE_TIMER_LEASE_SECONDS", raising=False)
    assert timer_lease() == timedelta(minutes=2)
    monkeypatch.setenv("TRAMITE_TIMER_LEASE_SECONDS", "2.5")
    assert timer_lease() == timedelta(seconds=2.5)
    assert TimerWorker(engine=None).lease == timedelta(seconds=2.5)


@pytest.mark.parametrize("value", ["0", "-3", "soon", "nan", "inf"])
def test_a_lease_that_is_not_a_positive_number_stops_the_worker_at_start(monkeypatch, value):
    monkeypatch.setenv("TRAMITE_TIMER_LEASE_SECONDS", value)
    with pytest.raises(EngineError, match="TRAMITE_TIMER_LEASE_SECONDS"):
        TimerWorker(engine=None)
