"""Each scenario played by SpiffWorkflow alone and through Tramite's HTTP API: same end state, same
path (the elements each step completed), same data — or a refusal at deploy naming the element."""
from __future__ import annotations

import pytest

from tests.conformance.catalog import all_scenarios
from tests.conformance.play import play


def _param(scenario):
    marks = []
    if scenario.known:
        marks.append(pytest.mark.xfail(strict=True, raises=scenario.known.raises,
                                       reason=f"issue 14 {scenario.known.item}: {scenario.known.what}"))
    return pytest.param(scenario, id=scenario.key, marks=marks)


@pytest.mark.parametrize("scenario", [_param(s) for s in all_scenarios()])
def test_scenario_runs_as_the_library_runs_it(conformance_api, scenario):
    play(conformance_api, scenario)
