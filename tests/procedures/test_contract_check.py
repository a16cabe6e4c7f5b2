"""The shared contract check (../shared/tools/contract_check.py) holds every procedure's diagrams
against its contract: task ids, lanes and messages. It must report nothing but notes."""
from pathlib import Path

import pytest

from tests.procedures import diagram_checks as dc

REPO = Path(__file__).resolve().parents[2]
PROCEDURES = sorted(p.name for p in (REPO / "processes").iterdir() if p.is_dir() and any(p.glob("*.bpmn")))


@pytest.mark.parametrize("key", PROCEDURES)
def test_the_shared_contract_check_reports_nothing_but_notes(key):
    checked = dc.contract_check(REPO, key)
    if checked is None:
        pytest.skip("the shared contract check is not beside the project")
    status, output = checked
    assert status == 0 and all(": note:" in line for line in output.splitlines()), output
