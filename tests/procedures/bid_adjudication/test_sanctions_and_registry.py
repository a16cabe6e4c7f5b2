"""BID-S19 (conspiracy), bans and their limits, multiple envelopes, collusion of all, and the bidder
registry read by later cases (a banned bidder is screened out)."""
from __future__ import annotations

from .conftest import offer, rule_of


def four_offers():
    return [offer("AA", "40500.00"), offer("BB", "39000.00"), offer("CC", "39100.00"), offer("DD", "41000.00")]


def sanction(bids, case, months, bidders=("BB", "CC"), expect=200, resolution_date="2024-11-25", kind="ban"):
    data = {"resolution_date": resolution_date, "justice_referral": False,
            "sanctions": [{"bidder_id": b, "kind": kind, "months": months, "reason": "conspiración probada"}
                          for b in bidders]}
    return bids.complete(case, "set_sanctions", data, "J1", expect)


def conspiracy(bids, **bid):
    case = bids.record(bids.open(**bid), four_offers())
    return bids.evaluate(case, collusion="conspiracy", conspirators=["BB", "CC"])


def test_bid_s19_conspiracy_bans_two_bidders_and_the_lowest_remaining_wins(bids):
    bids.day("2024-11-25")
    case = conspiracy(bids)
    assert case["variables"]["offers_status"] == {"AA": "CONSIDERED", "BB": "CONSPIRACY", "CC": "CONSPIRACY",
                                                  "DD": "CONSIDERED"}
    case = sanction(bids, case, 18)
    assert case["variables"]["bans"] == [
        {"bidder_id": b, "from": "2024-11-25", "through": "2026-05-24", "eligible_again": "2026-05-25"}
        for b in ("BB", "CC")]
    assert case["variables"]["notified_purchasing"] is True
    case = bids.award_first(case)
    assert (case["variables"]["awardee"], case["variables"]["contract_price"]) == ("AA", "40500.00")
    banned = bids.bidders(banned="true")
    assert [(b["id"], b["banned_until"], b["reason"], b["case_id"]) for b in banned] == [
        ("BB", "2026-05-24", "conspiración probada", case["id"]), ("CC", "2026-05-24", "conspiración probada", case["id"])]


def test_a_banned_bidder_is_screened_out_of_a_later_bid_until_the_anniversary(bids):
    bids.award_first(sanction(bids, conspiracy(bids), 12))
    offers = [offer("BB", "100.00"), offer("EE", "120.00"), offer("FF", "130.00")]
    while_banned = bids.record(bids.open(matter="mesas", offers_due_at="2025-11-24T10:00:00-04:00"),
                               [dict(o, received_at="2025-11-24T09:00:00-04:00") for o in offers])
    assert while_banned["variables"]["offers_status"]["BB"] == "BIDDER_BANNED"
    eligible = bids.record(bids.open(matter="mesas", offers_due_at="2025-11-25T10:00:00-04:00"),
                           [dict(o, received_at="2025-11-25T09:00:00-04:00") for o in offers])
    assert eligible["variables"]["offers_status"]["BB"] == "CONSIDERED"


def test_bans_outside_12_to_36_months_are_refused(bids):
    case = conspiracy(bids)
    for months in (11, 37):
        assert rule_of(sanction(bids, case, months, expect=422)) == ["BAN_OUT_OF_RANGE"]
    refusals = [e for e in bids.history(case["id"]) if e["type"] == "task_refused"]
    assert len(refusals) == 2
    assert sanction(bids, case, 36)["variables"]["bans"][0]["through"] == "2027-11-24"
    other = conspiracy(bids)
    assert sanction(bids, other, 12)["variables"]["bans"][0]["eligible_again"] == "2025-11-25"


def test_several_envelopes_of_one_bidder_are_all_rejected_and_it_is_banned(bids):
    case = bids.record(bids.open(), [offer("X1", "100.00", bidder="X"), offer("X2", "95.00", bidder="X"),
                                     offer("Y1", "110.00", bidder="Y"), offer("Z1", "115.00", bidder="Z")])
    assert case["variables"]["offers_status"] == {"X1": "MULTIPLE_ENVELOPES", "X2": "MULTIPLE_ENVELOPES",
                                                  "Y1": "CONSIDERED", "Z1": "CONSIDERED"}
    case = bids.evaluate(case)
    case = sanction(bids, case, 24, bidders=("X",), resolution_date="2024-04-01")
    assert case["variables"]["bans"][0]["eligible_again"] == "2026-04-01"
    assert bids.award_first(case)["variables"]["awardee"] == "Y"


def test_envelopes_under_a_pseudonym_are_found_by_the_junta(bids):
    case = bids.record(bids.open(), [offer("X1", "100.00", bidder="X"), offer("P1", "95.00", bidder="PSEUDO"),
                                     offer("Y1", "110.00", bidder="Y"), offer("Z1", "120.00", bidder="Z")])
    assert case["variables"]["offers_status"]["P1"] == "CONSIDERED"
    case = bids.evaluate(case, [{"offer_id": "P1", "same_bidder_as": "X"}])
    assert case["variables"]["offers_status"] == {"X1": "MULTIPLE_ENVELOPES", "P1": "MULTIPLE_ENVELOPES",
                                                  "Y1": "CONSIDERED", "Z1": "CONSIDERED"}
    assert {c["bidder_id"] for c in case["variables"]["sanction_candidates"]} == {"X", "PSEUDO"}
    case = sanction(bids, case, 12, bidders=("X", "PSEUDO"), resolution_date="2024-04-01")
    assert {b["id"] for b in bids.bidders(banned="true")} == {"X", "PSEUDO"}
    assert bids.award_first(case)["variables"]["awardee"] == "Y"


def test_collusion_of_all_rejects_every_offer_and_orders_quotes(bids):
    case = bids.record(bids.open(), [offer("A", "100.00"), offer("B", "101.00")])
    case = bids.evaluate(case, collusion="all")
    assert set(case["variables"]["offers_status"].values()) == {"COLLUSION"}
    case = sanction(bids, case, 12, bidders=("A", "B"), resolution_date="2024-04-01")
    refused = bids.complete(case, "follow_up_action", {"action": "NEGOTIATE_WITH_REJECTED_BIDDERS"}, "J1", expect=422)
    assert rule_of(refused) == ["ACTION_NOT_ALLOWED_FOR_TYPE"]
    case = bids.complete(case, "follow_up_action", {"action": "QUOTES"}, "J1")
    assert (case["outcome"], case["variables"]["follow_up"]) == ("REJECTED_ALL", "QUOTES")


def test_admin_keeps_the_registry_and_every_change_is_audited(bids, api):
    created = api.post("/api/v1/registries/bidders", "admin", {
        "id": "RL-2001", "name": "Constructora Boricua", "sanction": {"kind": "ban", "from": "2024-01-15", "months": 12,
                                                                      "reason": "importado del registro en papel"}},
                       expect=201)
    assert (created["banned"], created["banned_until"], created["eligible_again"]) == (True, "2025-01-14", "2025-01-15")
    api.post("/api/v1/registries/bidders", "J1", {"id": "RL-2002", "name": "Otro"}, expect=403)
    lifted = api.call("PATCH", "/api/v1/registries/bidders/RL-2001", "admin", 200,
                      json={"lift_sanctions": True, "name": "Constructora Boricua, Inc."}).get_json()
    assert (lifted["banned"], lifted["name"]) == (False, "Constructora Boricua, Inc.")
    assert bids.bidders(banned="true") == []
    case = bids.record(bids.open(), [offer("O1", "10.00", bidder="RL-2001"), offer("O2", "11.00")])
    assert case["variables"]["offers_status"]["O1"] == "CONSIDERED"


def test_a_ban_a_script_records_names_the_people_behind_it(bids):
    """Issue 15 #7: a registry change made by a script is the engine's, on behalf of the member who
    completed the task, the case's starter and the version's deployer."""
    bids.day("2024-11-25")
    case = sanction(bids, conspiracy(bids), 18)
    changes = [e for e in bids.history(case["id"]) if e["type"].startswith("registry_entry")
               and "BB" in (e["message"] or "")]
    assert changes and all(e["actor"] == "engine" for e in changes)
    assert {tuple(sorted(e["data"]["on_behalf_of"].items())) for e in changes} == {tuple(sorted({
        "user": "j1", "starter": "secretary", "deployer": "owner", "process": "bid_adjudication",
        "version": 1}.items()))}
    # The count of single-bidder bids, written at the opening, names the secretary who recorded it.
    [count] = [e for e in bids.history(case["id"]) if e["type"] == "registry_entry_changed"
               and "BID-20" in e["rule_ids"]]
    assert count["data"]["on_behalf_of"]["user"] == "secretary"
