"""The messages a case page offers, for versions deployed before the summary named a receive
task's message (issue 16 #1: their stored summary stays as it was; the files say it)."""
from __future__ import annotations

from types import SimpleNamespace

from engine.definitions.parsing import describe
from engine.queries.case_files import waiting_messages
from tests.procedures.farmer_registry.conftest import farmer_files


def version(old_summary: bool):
    files = farmer_files()
    elements = list(describe(files)["elements"].values())
    if old_summary:
        elements = [{k: v for k, v in e.items() if not (k == "message" and e["type"] == "receiveTask")}
                    for e in elements]
    return SimpleNamespace(summary={"elements": elements}, files=files)


def test_a_case_in_a_receive_task_waits_for_its_message_whichever_summary_its_version_kept():
    record = SimpleNamespace(workflow_meta={"tramite": {"waiting_messages": ["wait_for_documents"]}})
    for old_summary in (False, True):
        [message] = waiting_messages(record, version(old_summary))
        assert message["name"] == "documents_received" and message["element_id"] == "wait_for_documents"
        assert message["title"] == "Documentos adicionales recibidos" and message["lane"] == "registry_clerk"
