"""Direct tests of engine/rules/bid_adjudication/complaints.py (BID-25…27; AMB-49).

BID-27 / AMB-49: a sworn declaration is unjustified only when found arbitrary, unfounded AND
maliciously made, after the hearing (BID-26); then the Junta refers the matter to the Departamento
de Justicia and withdraws the complainant from the Registro or bans it for 1–3 years.
"""
from __future__ import annotations

import pytest

from engine.rules.bid_adjudication.complaints import (
    check_complaint, check_complaint_resolution, complainant_of, complaint_referral, complaint_unjustified,
)
from engine.rules.decision import RuleViolation

ALL_FOUND = {"arbitrary": True, "unfounded": True, "malicious": True}
COMPLAINT = {"complainant_id": "DD", "declaration_date": "2024-11-04", "hearing_date": "2024-11-18"}


@pytest.mark.parametrize("complaint", [
    pytest.param(None, id="BID-25-no-complaint"),
    pytest.param({}, id="BID-25-empty-complaint"),
    pytest.param({**COMPLAINT, **ALL_FOUND}, id="BID-27-findings-after-hearing"),
    pytest.param({"complainant_id": "DD", "hearing_date": None}, id="BID-26-no-finding-needs-no-hearing"),
])
def test_check_complaint_accepts(complaint):
    assert check_complaint(complaint, ["AA", "BB", "CC", "DD"]) is None


@pytest.mark.parametrize(("complaint", "code", "rules"), [
    pytest.param({**COMPLAINT, "complainant_id": "ZZ"}, "COMPLAINANT_NOT_A_BIDDER", ["BID-25"],
                 id="BID-25-complainant-made-no-offer"),
    pytest.param({**COMPLAINT, "hearing_date": None, "arbitrary": True}, "COMPLAINT_HEARING_REQUIRED",
                 ["BID-26", "BID-27"], id="BID-26-BID-27-finding-without-hearing"),
])
def test_check_complaint_refuses(complaint, code, rules):
    with pytest.raises(RuleViolation) as caught:
        check_complaint(complaint, ["AA", "BB", "CC", "DD"])
    assert caught.value.code == code and caught.value.rule_ids == rules


@pytest.mark.parametrize(("found", "unjustified"), [
    pytest.param(ALL_FOUND, True, id="BID-27-AMB-49-all-three"),
    pytest.param({**ALL_FOUND, "malicious": False}, False, id="AMB-49-not-malicious"),
    pytest.param({**ALL_FOUND, "arbitrary": False}, False, id="AMB-49-not-arbitrary"),
    pytest.param({**ALL_FOUND, "unfounded": False}, False, id="AMB-49-not-unfounded"),
    pytest.param({"malicious": True}, False, id="AMB-49-only-one"),
    pytest.param({}, False, id="AMB-49-none"),
])
def test_complaint_unjustified(found, unjustified):
    decision = complaint_unjustified({**COMPLAINT, **found})
    assert decision.outcome is unjustified
    assert decision.rule_ids == ("BID-26", "BID-27", "AMB-49")
    finding = decision.details["complaint_finding"]
    assert finding["unjustified"] is unjustified and finding["complainant_id"] == "DD"
    assert finding["hearing_date"] == "2024-11-18"
    assert {k: finding[k] for k in ALL_FOUND} == {k: bool(found.get(k)) for k in ALL_FOUND}


def test_no_complaint_is_not_unjustified():
    decision = complaint_unjustified(None)
    assert decision.outcome is False and decision.details == {"complaint_finding": None}


@pytest.mark.parametrize(("finding", "complainant"), [
    pytest.param({"complainant_id": "DD", "unjustified": True}, "DD", id="BID-27-unjustified"),
    pytest.param({"complainant_id": "DD", "unjustified": False}, None, id="BID-27-justified"),
    pytest.param(None, None, id="BID-27-no-finding"),
])
def test_complainant_of(finding, complainant):
    assert complainant_of(finding) == complainant


UNJUSTIFIED = {"complainant_id": "DD", "unjustified": True}
BAN_DD = [{"bidder_id": "DD", "kind": "ban", "months": 12}]


@pytest.mark.parametrize(("data", "finding"), [
    pytest.param({"justice_referral": True, "sanctions": BAN_DD}, UNJUSTIFIED, id="BID-27-referral-and-ban"),
    pytest.param({"justice_referral": True, "sanctions": [{"bidder_id": "DD", "kind": "registry_withdrawal",
                                                           "months": 24}]}, UNJUSTIFIED, id="BID-27-timed-withdrawal"),
    pytest.param({"justice_referral": False, "sanctions": []}, {"complainant_id": "DD", "unjustified": False},
                 id="BID-27-justified-nothing-owed"),
    pytest.param({}, None, id="BID-27-no-complaint"),
])
def test_check_complaint_resolution_accepts(data, finding):
    assert check_complaint_resolution(data, finding) is None


@pytest.mark.parametrize(("data", "finding", "code", "rules"), [
    pytest.param({"justice_referral": True, "sanctions": BAN_DD}, {"complainant_id": "DD", "unjustified": False},
                 "COMPLAINT_NOT_UNJUSTIFIED", ["BID-27", "AMB-49"], id="AMB-49-referral-without-finding"),
    pytest.param({"justice_referral": False, "sanctions": BAN_DD}, UNJUSTIFIED, "JUSTICE_REFERRAL_REQUIRED",
                 ["BID-27"], id="BID-27-referral-owed"),
    pytest.param({"justice_referral": True, "sanctions": []}, UNJUSTIFIED, "COMPLAINANT_SANCTION_REQUIRED",
                 ["BID-27", "AMB-49"], id="BID-27-sanction-owed"),
    pytest.param({"justice_referral": True, "sanctions": [{"bidder_id": "DD", "kind": "registry_withdrawal",
                                                           "months": None}]}, UNJUSTIFIED,
                 "COMPLAINANT_SANCTION_REQUIRED", ["BID-27", "AMB-49"], id="BID-27-term-owed"),
    pytest.param({"justice_referral": True, "sanctions": [{"bidder_id": "BB", "kind": "ban", "months": 12}]},
                 UNJUSTIFIED, "COMPLAINANT_SANCTION_REQUIRED", ["BID-27", "AMB-49"], id="BID-27-other-bidder-banned"),
])
def test_check_complaint_resolution_refuses(data, finding, code, rules):
    with pytest.raises(RuleViolation) as caught:
        check_complaint_resolution(data, finding)
    assert caught.value.code == code and caught.value.rule_ids == rules


@pytest.mark.parametrize(("finding", "referral", "outcome", "complainant", "term"), [
    pytest.param(UNJUSTIFIED, True, True, "DD", BAN_DD[0], id="BID-27-referred"),
    pytest.param(UNJUSTIFIED, False, False, "DD", BAN_DD[0], id="BID-27-flag-off"),
    pytest.param({"complainant_id": "DD", "unjustified": False}, True, False, None, None, id="AMB-49-not-unjustified"),
])
def test_complaint_referral(finding, referral, outcome, complainant, term):
    decision = complaint_referral(finding, referral, BAN_DD, "2024-11-25")
    assert decision.outcome is outcome
    assert decision.rule_ids == ("BID-27", "AMB-49")
    assert decision.details == {"justice_referral": outcome, "complainant_id": complainant,
                                "complainant_sanction": term}
    assert decision.inputs["resolution_date"] == "2024-11-25"
