"""The demo seed of municipal bids: a banned bidder and bids in several stages, seeded once."""
from api import demo
from api.demo.bid_adjudication import bid_adjudication_demo


def test_the_demo_seeds_bids_in_several_stages_once(bids, monkeypatch):
    monkeypatch.setenv("TRAMITE_DEMO_LANG", "en")
    assert bid_adjudication_demo in demo.DEMO_STEPS
    engine = bids.api.client.application.extensions["tramite"]
    lines = bid_adjudication_demo(engine)
    assert any("RL-3900 added" in line for line in lines)
    cases = bids.api.get("/api/v1/instances?process=bid_adjudication&per_page=50", "boss")
    stages = {c["stage"] for c in cases}
    assert {"OPENING", "EVALUATION", "RANKED", "AWARDED", "DESERTED", "CANCELLED"} <= stages
    assert [b["id"] for b in bids.bidders(banned="true")] == ["RL-3900"]
    again = bid_adjudication_demo(engine)
    assert any("RL-3900 was there" in line for line in again) and not any("Sample bids" in line for line in again)
    assert len(bids.api.get("/api/v1/instances?process=bid_adjudication&per_page=50", "boss")) == len(cases)
