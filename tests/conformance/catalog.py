"""Every conformance scenario, from the catalogue modules (one per family of constructs)."""
from __future__ import annotations

from tests.conformance import catalog_activities, catalog_events, catalog_flow, catalog_structure
from tests.conformance.scenario import Scenario


def all_scenarios() -> list[Scenario]:
    found = [*catalog_flow.scenarios(), *catalog_events.scenarios(), *catalog_activities.scenarios(),
             *catalog_structure.scenarios()]
    keys = [s.key for s in found]
    duplicated = {k for k in keys if keys.count(k) > 1}
    assert not duplicated, f"scenario keys used twice: {sorted(duplicated)}"
    return found
