"""A test's own procedure, run beside the engine's for one test (monkeypatch restores the engine)."""
from __future__ import annotations

from engine.kernel.context import Services
from engine.kernel.procedure import Procedure, Procedures
from engine.scripting.binding import Scripts


def run_with(monkeypatch, engine, *procedures: Procedure, base: Procedures | None = None) -> Procedures:
    """The engine runs `base` (default: what it runs now) plus `procedures` until the test ends."""
    combined = (base or engine.procedures).including(*procedures)
    monkeypatch.setattr(engine, "procedures", combined)
    monkeypatch.setattr(engine, "services", Services(engine.versions, combined, Scripts(combined)))
    return combined
