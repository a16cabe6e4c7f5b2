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


def test_a_case_waiting_in_an_event_based_gateway_offers_the_messages_of_the_events_after_it():
    """Materials in use wait in a gateway for an extension request, a completion notice or the
    deadline, and the querellas branch in another: the page offered none of their messages."""
    from tests.procedures.materials_aid.conftest import materials_files
    files = materials_files()
    definition = SimpleNamespace(summary={"elements": list(describe(files)["elements"].values())}, files=files)
    record = SimpleNamespace(workflow_meta={"tramite": {"waiting_messages": ["materials_in_use", "watch_querellas"]}})
    offered = {m["name"]: m for m in waiting_messages(record, definition)}
    assert set(offered) == {"extension_requested", "completion_notified", "querella_filed"}
    assert offered["extension_requested"]["element_name"] == "Solicitud escrita de prórroga"
    assert offered["extension_requested"]["lane"] == "regional_office"
