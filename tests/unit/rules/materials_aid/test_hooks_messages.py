"""Direct tests of the message rules, the lane refusal and the tables of
engine/rules/materials_aid/hooks.py (materials_aid.md "Messages"; RULES.md MAT-34, MAT-36, AMB-27;
EXAMPLES.md MAT-S13).

- extension_requested: a written request on or before `use_deadline` goes to decide_extension; by
  telephone → 422 EXTENSION_NOT_WRITTEN; after the deadline (its timer fired and set
  `visit_not_before`, so the case no longer waits) → 409 EXTENSION_REQUEST_LATE.
- completion_notified: the first notice fixes `completion_date`; a second one is refused (409).
- decide_extension belongs to the Director Regional alone (MAT-36) → EXTENSION_AUTHORITY_INVALID.
"""
from __future__ import annotations

from datetime import date

import pytest

from engine.rules.facts import Facts
from engine.rules.materials_aid import hooks
from tests.unit.rules.hook_checks import ACCEPT, check, conflict, table_entries, unprocessable

MATERIALS = "materials_aid"

# MAT-S13: delivered 2024-04-01, so use_deadline = 2024-07-30; the timer fires at the start of 07-31.
IN_USE = {"delivered_on": "2024-04-01", "use_deadline": "2024-07-30", "visit_not_before": None}
PAST_USE = {**IN_USE, "visit_not_before": "2024-07-31"}
WRITTEN = {"written": True, "reason": "enfermedad, con nota médica", "days_requested": 45}
NOT_WRITTEN = unprocessable("EXTENSION_NOT_WRITTEN", ("MAT-36",))
LATE = conflict("EXTENSION_REQUEST_LATE", ("MAT-36", "AMB-27"))


@pytest.mark.parametrize(("payload", "case", "today", "waiting", "verdict"), [
    pytest.param(WRITTEN, IN_USE, date(2024, 7, 15), True, ACCEPT, id="MAT-36-S13-written-before-deadline-accepted"),
    pytest.param(WRITTEN, IN_USE, date(2024, 7, 30), True, ACCEPT, id="MAT-36-AMB-27-written-on-deadline-accepted"),
    pytest.param({**WRITTEN, "written": False}, IN_USE, date(2024, 7, 15), True, NOT_WRITTEN,
                 id="MAT-36-S13-by-telephone-refused"),
    pytest.param({"reason": "enfermedad", "days_requested": 45}, IN_USE, date(2024, 7, 15), True, NOT_WRITTEN,
                 id="MAT-36-written-flag-absent-refused"),
    pytest.param(WRITTEN, PAST_USE, date(2024, 8, 2), False, LATE, id="MAT-36-AMB-27-S13-filed-after-deadline-refused"),
    pytest.param(WRITTEN, PAST_USE, date(2024, 7, 31), False, LATE, id="MAT-36-AMB-27-day-after-deadline-refused"),
    pytest.param(WRITTEN, {"use_deadline": None, "visit_not_before": None}, date(2024, 3, 1), False, ACCEPT,
                 id="MAT-36-before-delivery-not-late"),
])
def test_extension_requested(payload, case, today, waiting, verdict):
    check(hooks.extension_requested, payload, Facts(case=case, today=today, actor="regional", waiting=waiting), verdict)


@pytest.mark.parametrize(("case", "waiting", "verdict"), [
    pytest.param(IN_USE, True, ACCEPT, id="MAT-34-first-completion-notice-accepted"),
    pytest.param({**IN_USE, "completion_date": "2024-07-10"}, True,
                 conflict("COMPLETION_ALREADY_NOTIFIED", ("MAT-34", "AMB-28")),
                 id="MAT-34-AMB-28-second-notice-refused"),
    pytest.param({**PAST_USE, "completion_date": "2024-07-10"}, False, ACCEPT,
                 id="MAT-34-not-waiting-left-to-the-engine"),
])
def test_completion_notified(case, waiting, verdict):
    check(hooks.completion_notified, {}, Facts(case=case, today=date(2024, 7, 12), waiting=waiting), verdict)


# --- the tables --------------------------------------------------------------------------------

EXPECTED_COMPLETION = {
    (MATERIALS, "start"): hooks.application_filed,
    (MATERIALS, "record_documents"): hooks.documents_recorded,
    (MATERIALS, "director_memorandum"): hooks.memorandum_submitted,
    (MATERIALS, "evidence_wall_need"): hooks.wall_need_evidenced,
    (MATERIALS, "discretionary_approval"): hooks.discretion_exercised,
    (MATERIALS, "prepare_quotes"): hooks.quotes_prepared,
    (MATERIALS, "central_review"): hooks.central_review_decided,
    (MATERIALS, "sign_duties"): hooks.duties_signed,
}
EXPECTED_MESSAGES = {
    (MATERIALS, "extension_requested"): hooks.extension_requested,
    (MATERIALS, "completion_notified"): hooks.completion_notified,
}


def test_process_key_is_the_contracts():
    assert hooks.MATERIALS == MATERIALS


@pytest.mark.parametrize("table", ["COMPLETION_RULES", "MESSAGE_RULES", "LANE_REFUSALS"])
def test_every_key_belongs_to_materials_aid(table):
    assert getattr(hooks, table) and {process for process, _ in getattr(hooks, table)} == {MATERIALS}


@pytest.mark.parametrize(("table", "key", "rule"), table_entries(COMPLETION_RULES=EXPECTED_COMPLETION,
                                                                 MESSAGE_RULES=EXPECTED_MESSAGES))
def test_each_table_points_to_the_tested_rule(table, key, rule):
    assert getattr(hooks, table).get(key) is rule


def test_MAT_36_only_the_director_decides_an_extension():
    assert hooks.LANE_REFUSALS == {(MATERIALS, "decide_extension"): ("EXTENSION_AUTHORITY_INVALID", ("MAT-36",))}


def test_tables_hold_nothing_else():
    assert hooks.COMPLETION_RULES == EXPECTED_COMPLETION
    assert hooks.MESSAGE_RULES == EXPECTED_MESSAGES
