"""Direct tests of engine/rules/materials_aid/offices.py (MAT-08, MAT-S25).

MAT-08: the application is completed at the Regional Office that serves the applicant's town.
Municipality names are matched without regard to accents, case or spacing.
"""
from __future__ import annotations

import pytest

from engine.rules.decision import RuleViolation
from engine.rules.materials_aid.offices import (
    MUNICIPALITY_UNKNOWN, WRONG_REGIONAL_OFFICE, check_filing_office, office_entry, serving_office,
)

DIRECTORY = {"offices": [
    {"id": "Caguas", "name": "Oficina Regional de Caguas", "municipalities": ["Caguas", "Cidra", "Aibonito"]},
    {"id": "Ponce", "name": "Oficina Regional de Ponce", "municipalities": ["Ponce", "Juana Díaz"]},
    {"id": "Carolina", "name": "Oficina Regional de Carolina", "municipalities": ["Carolina", "Loíza"]},
]}


@pytest.mark.parametrize(("municipality", "office", "name"), [
    pytest.param("Cidra", "Caguas", "Oficina Regional de Caguas", id="MAT-08-MAT-S01-cidra"),
    pytest.param("Ponce", "Ponce", "Oficina Regional de Ponce", id="MAT-08-MAT-S25-ponce"),
    pytest.param("Loiza", "Carolina", "Oficina Regional de Carolina", id="MAT-08-without-accent"),
    pytest.param("  juana   DÍAZ ", "Ponce", "Oficina Regional de Ponce", id="MAT-08-case-and-spaces"),
    pytest.param("Mayagüez", None, None, id="MAT-08-not-served"),
    pytest.param(None, None, None, id="MAT-08-no-municipality"),
])
def test_serving_office(municipality, office, name):
    decision = serving_office(municipality, DIRECTORY)
    assert decision.outcome == office
    assert decision.rule_ids == ("MAT-08",)
    assert decision.details == {"office_name": name}
    assert decision.inputs == {"municipality": municipality}


def test_office_entry_with_no_directory():
    assert office_entry("Cidra", None) is None
    assert office_entry("Cidra", {}) is None


@pytest.mark.parametrize(("municipality", "starter_office", "expected"), [
    pytest.param("Cidra", "Caguas", "Caguas", id="MAT-08-right-office"),
    pytest.param("Cidra", "caguas", "Caguas", id="MAT-08-office-id-case-insensitive"),
    pytest.param("Cidra", None, "Caguas", id="MAT-08-central-staff-without-office"),
    pytest.param("Cidra", "", "Caguas", id="MAT-08-empty-office"),
])
def test_check_filing_office_accepts(municipality, starter_office, expected):
    assert check_filing_office(municipality, starter_office, DIRECTORY) == expected


@pytest.mark.parametrize(("municipality", "starter_office", "code"), [
    pytest.param("Ponce", "Caguas", WRONG_REGIONAL_OFFICE, id="MAT-08-MAT-S25-ponce-at-caguas"),
    pytest.param("Loíza", "Caguas", WRONG_REGIONAL_OFFICE, id="MAT-08-loiza-at-caguas"),
    pytest.param("Mayagüez", "Caguas", MUNICIPALITY_UNKNOWN, id="MAT-08-unknown-town"),
    pytest.param("Mayagüez", None, MUNICIPALITY_UNKNOWN, id="MAT-08-unknown-town-no-office"),
])
def test_check_filing_office_refuses(municipality, starter_office, code):
    with pytest.raises(RuleViolation) as caught:
        check_filing_office(municipality, starter_office, DIRECTORY)
    assert caught.value.code == code
    assert caught.value.rule_ids == ["MAT-08"]
    assert caught.value.status == 422
