"""The sworn complaint of one bidder against others (BID-25, 26) and what follows when the hearing
finds it unjustified (BID-27, AMB-49): a referral to the Departamento de Justicia and the
complainant's withdrawal from the Registro de Licitadores (or ban) for 12–36 months.

The hearing's findings are recorded with the evaluation (`evaluate_offers.complaint`); the
referral and the term are the Junta's resolution (`set_sanctions`), where the flag lives.
"""
from __future__ import annotations

from engine.rules.decision import Decision, RuleViolation

# AMB-49: «arbitraria, infundada y maliciosamente prestada» is conjunctive.
FINDINGS = ("arbitrary", "unfounded", "malicious")
UNJUSTIFIED = "UNJUSTIFIED_COMPLAINT"


def check_complaint(complaint, bidders_in_bid) -> None:
    """Refuse a complaint finding the regulation cannot produce (422 at `evaluate_offers`)."""
    if not complaint:
        return
    complainant = str(complaint["complainant_id"])
    if complainant not in {str(b) for b in bidders_in_bid}:
        # BID-25: the declaration is «presentada ante la Junta por otro licitador».
        raise RuleViolation("COMPLAINANT_NOT_A_BIDDER",
                            f"{complainant} made no offer in this bid, so it cannot be the complaining bidder",
                            ("BID-25",))
    if any(complaint.get(f) for f in FINDINGS) and not complaint.get("hearing_date"):
        raise RuleViolation("COMPLAINT_HEARING_REQUIRED",
                            "the Junta finds on a sworn declaration only after the hearing (its date)",
                            ("BID-26", "BID-27"))


def complaint_unjustified(complaint) -> Decision:
    """BID-27 / AMB-49: the declaration is unjustified only when found arbitrary, unfounded and malicious."""
    complaint = dict(complaint or {})
    found = {f: bool(complaint.get(f)) for f in FINDINGS}
    unjustified = bool(complaint) and all(found.values())
    return Decision(outcome=unjustified, rule_ids=("BID-26", "BID-27", "AMB-49"),
                    inputs={"complainant_id": complaint.get("complainant_id"),
                            "declaration_date": complaint.get("declaration_date"),
                            "hearing_date": complaint.get("hearing_date"), **found},
                    details={"complaint_finding": {
                        "complainant_id": complaint.get("complainant_id"), "unjustified": unjustified,
                        "declaration_date": complaint.get("declaration_date"),
                        "hearing_date": complaint.get("hearing_date"), **found} if complaint else None})


def complainant_of(finding) -> str | None:
    """The bidder BID-27 sanctions, when the hearing found its declaration unjustified."""
    finding = finding or {}
    return str(finding["complainant_id"]) if finding.get("unjustified") else None


def check_complaint_resolution(data, finding) -> None:
    """At `set_sanctions`: the flag and the complainant's term must match the hearing's finding."""
    complainant = complainant_of(finding)
    if data.get("justice_referral") and complainant is None:
        raise RuleViolation("COMPLAINT_NOT_UNJUSTIFIED",
                            "a referral to Justicia needs a sworn declaration found arbitrary, unfounded and "
                            "malicious after the hearing (record it in the evaluation)", ("BID-27", "AMB-49"))
    if complainant is None:
        return
    if not data.get("justice_referral"):
        raise RuleViolation("JUSTICE_REFERRAL_REQUIRED",
                            f"the declaration of {complainant} was found unjustified: the Junta refers the matter "
                            "to the Departamento de Justicia", ("BID-27",))
    terms = [s for s in data.get("sanctions") or [] if str(s["bidder_id"]) == complainant]
    if not terms or any(s.get("months") is None for s in terms):
        raise RuleViolation("COMPLAINANT_SANCTION_REQUIRED",
                            f"{complainant} is withdrawn from the Registro de Licitadores or banned for 12 to 36 "
                            "months (the term is required)", ("BID-27", "AMB-49"))


def complaint_referral(finding, justice_referral, sanctions, resolution_date) -> Decision:
    """BID-27: the referral to Justicia and the complainant's withdrawal (or ban), with its dates."""
    complainant = complainant_of(finding)
    term = next((s for s in sanctions or [] if str(s["bidder_id"]) == complainant), None)
    return Decision(outcome=bool(justice_referral) and complainant is not None, rule_ids=("BID-27", "AMB-49"),
                    inputs={"complaint_finding": dict(finding or {}), "justice_referral": bool(justice_referral),
                            "resolution_date": resolution_date},
                    details={"justice_referral": bool(justice_referral) and complainant is not None,
                             "complainant_id": complainant, "complainant_sanction": term})
