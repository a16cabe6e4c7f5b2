"""MAT-08: an application is filed at the Regional Office that serves the applicant's town.

The directory (which office serves which municipality) is reference data the engine loads and
hands in; these functions only read it.
"""
from __future__ import annotations

import unicodedata

from engine.rules.decision import Decision, RuleViolation

WRONG_REGIONAL_OFFICE = "WRONG_REGIONAL_OFFICE"
MUNICIPALITY_UNKNOWN = "MUNICIPALITY_UNKNOWN"


def _key(text) -> str:
    plain = unicodedata.normalize("NFKD", str(text or "")).encode("ascii", "ignore").decode()
    return " ".join(plain.casefold().split())


def office_entry(municipality, directory) -> dict | None:
    """The office record (`id`, `name`, `municipalities`) that serves `municipality`, if any."""
    wanted = _key(municipality)
    for office in (directory or {}).get("offices", []):
        if any(_key(m) == wanted for m in office.get("municipalities", [])):
            return office
    return None


def serving_office(municipality, directory) -> Decision:
    """MAT-08: the id of the Regional Office that serves the town where the applicant lives."""
    office = office_entry(municipality, directory)
    return Decision(outcome=office["id"] if office else None, rule_ids=("MAT-08",),
                    inputs={"municipality": municipality},
                    details={"office_name": office["name"] if office else None})


def check_filing_office(municipality, starter_office, directory) -> str:
    """The serving office's id; refuses (422) an unknown town or a filing at another region's office."""
    office = office_entry(municipality, directory)
    if office is None:
        raise RuleViolation(MUNICIPALITY_UNKNOWN,
                            f"{municipality!r} is not a municipality served by any Regional Office", ("MAT-08",),
                            values={"municipality": municipality})
    if starter_office and _key(starter_office) != _key(office["id"]):
        raise RuleViolation(WRONG_REGIONAL_OFFICE,
                            f"an applicant who lives in {municipality} applies at the {office['name']}; "
                            f"refer the application there (it cannot be filed at {starter_office})", ("MAT-08",),
                            values={"municipality": municipality, "office_name": office["name"],
                                    "starter_office": starter_office})
    return office["id"]
