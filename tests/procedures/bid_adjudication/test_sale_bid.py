"""The engine starts a `sale` bid for a surplus item (SUR-15), as the surplus procedure will."""
from __future__ import annotations

from dataclasses import replace

from engine.kernel.procedure import Procedures
from engine.procedures import ALL
from tests.support.procedures import run_with

from .conftest import offer

PROBE = """<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="d" targetNamespace="t">
  <bpmn:process id="surplus_auction_probe" isExecutable="true">
    <bpmn:laneSet id="ls"><bpmn:lane id="l" name="test_clerk">
      <bpmn:flowNodeRef>s</bpmn:flowNodeRef><bpmn:flowNodeRef>call</bpmn:flowNodeRef><bpmn:flowNodeRef>e</bpmn:flowNodeRef>
    </bpmn:lane></bpmn:laneSet>
    <bpmn:startEvent id="s"><bpmn:outgoing>f1</bpmn:outgoing></bpmn:startEvent>
    <bpmn:scriptTask id="call"><bpmn:incoming>f1</bpmn:incoming><bpmn:outgoing>f2</bpmn:outgoing>
      <bpmn:script>auction = start_sale_bid(item, item['estimated_value'], '2024-05-01T10:00:00-04:00')
again = start_sale_bid(item)</bpmn:script></bpmn:scriptTask>
    <bpmn:endEvent id="e"><bpmn:incoming>f2</bpmn:incoming></bpmn:endEvent>
    <bpmn:sequenceFlow id="f1" sourceRef="s" targetRef="call" /><bpmn:sequenceFlow id="f2" sourceRef="call" targetRef="e" />
  </bpmn:process>
</bpmn:definitions>
"""
ITEM = {"id": "P-8001", "description": "archivos metálicos obsoletos", "estimated_value": "90.00"}


def sharing_sale_bids_with_the_probe(monkeypatch, engine):
    """`start_sale_bid` is the bid procedure's, shared with surplus disposition only (issue 15 #7):
    the probe stands in for surplus disposition, so the test shares it with the probe's key too."""
    def shared(procedure):
        if procedure.name != "bid_adjudication":
            return procedure
        return replace(procedure, helpers=tuple(
            replace(f, shared_with=f.shared_with | {"surplus_auction_probe"}) if "start_sale_bid" in f.names else f
            for f in procedure.helpers))
    run_with(monkeypatch, engine, base=Procedures(*map(shared, ALL.all), reserved=ALL.reserved))


def test_a_surplus_item_gets_a_sale_bid_started_by_the_engine(bids, api, monkeypatch, engine):
    sharing_sale_bids_with_the_probe(monkeypatch, engine)
    api.deploy("surplus_auction_probe", {"probe.bpmn": PROBE})
    parent = api.post("/api/v1/processes/surplus_auction_probe/instances", "clerk", {"variables": {"item": ITEM}},
                      expect=201)
    auction = parent["variables"]["auction"]
    assert parent["variables"]["again"] == auction  # once per calling case, even if a script runs again
    child = bids.case(auction["id"])
    assert child["case_number"] == auction["case_number"] and child["case_number"].startswith("BID-")
    assert child["started_by"] == "system"
    bid = child["variables"]["bid"]
    assert (bid["kind"], bid["matter"], bid["appraisal"]) == ("sale", "archivos metálicos obsoletos", "90.00")
    case = bids.record(child, [offer("A", "95.00", received_at="2024-05-01T09:00:00-04:00"),
                               offer("B", "120.00", received_at="2024-05-01T11:00:00-04:00"),
                               offer("C", "100.00", received_at="2024-05-01T09:30:00-04:00")])
    assert case["variables"]["offers_status"]["B"] == "LATE"
    case = bids.evaluate(case)
    assert case["variables"]["ranking"]["1"] == ["C", "A"]
    assert bids.award_first(case)["variables"]["awardee"] == "C"
