"""Direct tests of the message rule and the tables of engine/rules/bid_adjudication/hooks.py
(bid_adjudication.md "Message cancel"; RULES.md BID-20, BID-33, BID-34, AMB-42; BID-S25).

`cancel` at any time before the award: without written notice to every bidder → 422
CANCELLATION_NOTICE_REQUIRED (BID-33); bonds not returned → 422 BONDS_NOT_RETURNED (BID-34). While the
BID-20 notice to the Alcalde is still owed the cancellation must wait for it (409). After the award
the case no longer waits for the message and the rule does not judge it.
"""
from __future__ import annotations

from datetime import date

import pytest

from engine.rules.bid_adjudication import hooks
from engine.rules.facts import Facts
from tests.unit.rules.hook_checks import ACCEPT, check, conflict, table_entries, unprocessable

BID_KEY = "bid_adjudication"

# BID-S25: cancelled on 2024-09-10 for insufficient funds, all 4 bidders notified, 4 bonds returned.
CANCEL = {"cause": "funds_insufficient", "reasons": "fondos certificados 80,000.00 < 95,000.00",
          "all_bidders_notified": True, "bonds_returned": True}
OPEN = {"bid": {"number": "2025-040", "matter": "equipo de oficina", "kind": "acquisition"}}
OWED = {**OPEN, "mayor_alert": True, "notice_text": None}
NOTICE_FIRST = conflict("ALCALDE_NOTICE_REQUIRED", cites=("BID-20", "BID-33"))


@pytest.mark.parametrize(("payload", "case", "waiting", "verdict"), [
    pytest.param(CANCEL, OPEN, True, ACCEPT, id="BID-33-BID-34-S25-notified-and-bonds-returned-accepted"),
    pytest.param({**CANCEL, "cause": "desisted"}, OPEN, True, ACCEPT, id="BID-35c-desisted-accepted"),
    pytest.param({**CANCEL, "all_bidders_notified": False}, OPEN, True,
                 unprocessable("CANCELLATION_NOTICE_REQUIRED", ("BID-33",)), id="BID-33-S25-without-written-notice-refused"),
    pytest.param({**CANCEL, "bonds_returned": False}, OPEN, True,
                 unprocessable("BONDS_NOT_RETURNED", ("BID-34",)), id="BID-34-S25-bonds-not-returned-refused"),
    pytest.param({k: v for k, v in CANCEL.items() if k != "bonds_returned"}, OPEN, True,
                 unprocessable("BONDS_NOT_RETURNED", ("BID-34",)), id="BID-34-bonds-flag-absent-refused"),
    pytest.param(CANCEL, OWED, True, NOTICE_FIRST, id="BID-20-alcalde-notice-owed-cancel-waits"),
    pytest.param({**CANCEL, "all_bidders_notified": False}, OWED, True, NOTICE_FIRST,
                 id="BID-20-notice-owed-judged-before-BID-33"),
    pytest.param(CANCEL, {**OWED, "notice_text": "tres subastas con un licitador"}, True, ACCEPT,
                 id="BID-20-alcalde-informed-cancel-accepted"),
    pytest.param({**CANCEL, "all_bidders_notified": False}, {**OPEN, "awards": [{"line": 1}]}, False, ACCEPT,
                 id="BID-33-after-award-not-judged-by-the-rule"),
])
def test_cancellation_requested(payload, case, waiting, verdict):
    check(hooks.cancellation_requested, payload, Facts(case=case, today=date(2024, 9, 10), actor="J1",
                                                       waiting=waiting), verdict)


def test_BID_20_refusal_cites_its_rules_exactly():
    check(hooks.cancellation_requested, CANCEL, Facts(case=OWED, waiting=True),
          conflict("ALCALDE_NOTICE_REQUIRED", ("BID-20", "AMB-42", "BID-33")))


# --- the tables --------------------------------------------------------------------------------

EXPECTED_COMPLETION = {
    (BID_KEY, "start"): hooks.bid_filed,
    (BID_KEY, "record_opening"): hooks.opening_recorded,
    (BID_KEY, "evaluate_offers"): hooks.offers_evaluated,
    (BID_KEY, "set_sanctions"): hooks.sanctions_set,
    (BID_KEY, "break_tie"): hooks.tie_broken,
    (BID_KEY, "award"): hooks.award_decided,
    (BID_KEY, "follow_up_action"): hooks.follow_up_chosen,
    (BID_KEY, "inform_mayor"): hooks.mayor_informed,
}
EXPECTED_MESSAGES = {(BID_KEY, "cancel"): hooks.cancellation_requested}


def test_process_key_is_the_contracts():
    assert hooks.BID == BID_KEY


@pytest.mark.parametrize("table", ["COMPLETION_RULES", "MESSAGE_RULES"])
def test_every_key_belongs_to_bid_adjudication(table):
    assert getattr(hooks, table) and {process for process, _ in getattr(hooks, table)} == {BID_KEY}


@pytest.mark.parametrize(("table", "key", "rule"), table_entries(COMPLETION_RULES=EXPECTED_COMPLETION,
                                                                 MESSAGE_RULES=EXPECTED_MESSAGES))
def test_each_table_points_to_the_tested_rule(table, key, rule):
    assert getattr(hooks, table).get(key) is rule


def test_tables_hold_nothing_else():
    assert hooks.COMPLETION_RULES == EXPECTED_COMPLETION
    assert hooks.MESSAGE_RULES == EXPECTED_MESSAGES
    assert getattr(hooks, "LANE_REFUSALS", {}) == {}
