"""A test's own procedure, run beside the engine's for one test (monkeypatch restores the engine)."""
from __future__ import annotations

from engine.kernel.procedure import Procedure, Procedures


def run_with(monkeypatch, engine, *procedures: Procedure, base: Procedures | None = None) -> Procedures:
    """The engine runs `base` (default: what it runs now) plus `procedures` until the test ends."""
    combined = (base or engine.procedures).including(*procedures)
    monkeypatch.setattr(engine, "procedures", combined)
    monkeypatch.setattr(engine, "services", engine.services_for(combined))
    return combined
