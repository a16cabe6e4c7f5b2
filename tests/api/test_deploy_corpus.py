"""Diagrams written elsewhere (../shared/conformance-corpus, read in place, never copied here): each
one the earlier sweep saw accepted-but-stuck, refused without naming an element, failing with a 500
or hanging, is now refused at deploy naming an element of its file, or deployed and started cleanly."""
from __future__ import annotations

import io
import json
import os
import re
from pathlib import Path

import pytest

CORPUS = Path(os.environ.get("TRAMITE_CONFORMANCE_CORPUS", "/work/shared/conformance-corpus"))
CLASSES = ("accepted_should_refuse", "refused_unclear", "5xx_or_hang", "silent_idle")
# A handful, each a different reason it went wrong before, with the code that now refuses it.
CHOSEN = {
    "bpmn-io+bpmn-js/test/fixtures/bpmn/features/replace/association-gateways.bpmn": "HUMAN_TASK_WITHOUT_LANE",
    "bpmn-io+bpmn-js/test/spec/features/modeling/LabelLayouting.integration.bpmn": "DATA_STORE_UNSUPPORTED",
    "bpmn-io+bpmn-js/test/spec/features/rules/BpmnRules.insert.bpmn": "GATEWAY_WITHOUT_OUTGOING",
    "bpmn-miwg+bpmn-miwg-test-suite/Enterprise Explorer 1.0.0/B.1.0-export.bpmn": "DATA_STORE_UNSUPPORTED",
    "bpmn-miwg+bpmn-miwg-test-suite/Open-BPMN 1.2.8_2/C.9.1.bpmn": "TIMER_INVALID (timeCycle): 'R6/P1D'",
    "sartography+SpiffWorkflow/tests/SpiffWorkflow/bpmn/data/data_store.bpmn": "DATA_STORE_UNSUPPORTED",
    "sartography+SpiffWorkflow/tests/SpiffWorkflow/bpmn/data/call_activity_nested/call_activity_level_3.bpmn":
        "CALL_CYCLE: Level3 → Level3",
    "sartography+SpiffWorkflow/tests/SpiffWorkflow/spiff/data/service_task.bpmn": "SERVICE_TASK_UNSUPPORTED",
    "sartography+SpiffWorkflow/tests/SpiffWorkflow/spiff/data/service_task_variable.bpmn": "SERVICE_TASK_UNSUPPORTED",
    "sartography+SpiffWorkflow/tests/SpiffWorkflow/bpmn/data/Approvals.bpmn": "HUMAN_TASK_WITHOUT_LANE",
    "sartography+SpiffWorkflow/tests/SpiffWorkflow/bpmn/data/ParallelOrder.bpmn": "HUMAN_TASK_WITHOUT_LANE",
    "sartography+SpiffWorkflow/tests/SpiffWorkflow/bpmn/data/standard_loop.bpmn": "HUMAN_TASK_WITHOUT_LANE",
}


def _entries():
    manifest = CORPUS / "MANIFEST.json"
    if not manifest.exists():
        return []
    files = json.loads(manifest.read_text(encoding="utf-8"))["files"]
    wanted = os.environ.get("TRAMITE_CORPUS_ALL") == "1"
    return [e for e in files if e.get("report_class") in CLASSES and "sweep" in e["use"]
            and (wanted or e["stored_as"].split("/", 1)[1] in CHOSEN)]


def _ids(xml: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', xml))


@pytest.mark.skipif(not _entries(), reason="the shared conformance corpus is not on this machine")
@pytest.mark.parametrize("entry", _entries(), ids=lambda e: e["stored_as"].split("/", 1)[1])
def test_a_corpus_diagram_is_refused_naming_its_element_or_runs(api, entry):
    path = CORPUS / entry["stored_as"].split("/", 1)[1]  # stored_as starts with "corpus/"
    xml = path.read_bytes().decode("utf-8-sig")
    # As the sweep did: many published files say "false" (bpmn-js's default), which is refused as such.
    xml = xml.replace('isExecutable="false"', 'isExecutable="true"')
    name = path.name if path.name.endswith(".bpmn") else path.stem.rsplit(".", 1)[0] + ".bpmn"
    response = api.call("POST", f"/api/v1/processes/{entry['key']}/versions", "owner",
                        data={"files": [(io.BytesIO(xml.encode("utf-8")), name)]}, content_type="multipart/form-data")
    assert response.status_code in (201, 400), response.get_data(as_text=True)[:500]
    errors = response.get_json().get("errors")
    if errors is None:  # deployed: a start answers without a 5xx
        r = api.call("POST", f"/api/v1/processes/{entry['key']}/instances", "admin", json={"variables": {}})
        assert r.status_code < 500, r.get_data(as_text=True)[:500]
        return
    named = _ids(xml) | {name}
    assert set(errors) <= named, f"errors name no element of the file: {sorted(set(errors) - named)}"
    expected = CHOSEN.get(entry["stored_as"].split("/", 1)[1])
    if expected:
        assert any(m.startswith(expected) for messages in errors.values() for m in messages), errors
