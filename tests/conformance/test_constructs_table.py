"""The README's supported-constructs table is the one the suite generates, and the suite covers
every construct issue 14 names."""
from __future__ import annotations

from tests.conformance import table
from tests.conformance.catalog import all_scenarios

# Issue 14, "What to build": one or more scenarios per construct (scenario keys start so).
REQUIRED = {
    "exclusive gateway": ["cf_xor_"], "inclusive gateway": ["cf_inclusive_"],
    **{f"parallel, {n} branches finishing in separate commands": [f"cf_parallel_{n}_"] for n in range(2, 6)},
    "loops into parallel gateways": ["cf_loop_into_parallel_"], "event-based gateway": ["cf_event_gateway_"],
    "boundary timer (interrupting and not)": ["cf_boundary_timer_fires", "cf_boundary_timer_reminder"],
    "boundary error": ["cf_boundary_error_"],
    "boundary escalation (interrupting and not)": ["cf_boundary_escalation_interrupting",
                                                   "cf_boundary_escalation_non_interrupting"],
    "boundary message (interrupting and not)": ["cf_boundary_message_interrupting",
                                                "cf_boundary_message_non_interrupting"],
    "boundary signal (interrupting and not)": ["cf_boundary_signal_interrupting", "cf_boundary_signal_non_interrupting"],
    "sequential and parallel multi-instance user tasks": ["cf_mi_user_sequential", "cf_mi_user_parallel"],
    "sequential and parallel multi-instance sub-processes": ["cf_mi_sub_sequential_", "cf_mi_sub_parallel_"],
    "call activities nested and recursive": ["cf_call_nested", "cf_call_recursive"],
    "transactions and cancel": ["cf_transaction_done", "cf_transaction_cancel"],
    "compensation": ["cf_compensation"], "link events": ["cf_link_events"],
    "data objects and data stores": ["cf_data_object", "cf_data_store"], "cycle timers": ["cf_cycle_"],
    "long automatic loop of 2,000 rounds": ["cf_loop_auto_2000"],
}


def test_the_readme_table_is_the_generated_one():
    written = table.readme_section(table.README.read_text(encoding="utf-8"))
    assert written == table.table(), "README table out of date: run python -m tests.conformance.table --write"


def test_every_construct_of_the_issue_has_a_scenario():
    keys = [s.key for s in all_scenarios()]
    missing = {what: prefix for what, prefixes in REQUIRED.items() for prefix in prefixes
               if not any(k.startswith(prefix) for k in keys)}
    assert not missing
    assert len(keys) >= 80


def test_a_scenario_that_is_refused_names_its_code_in_the_table():
    rows = table.table().splitlines()
    assert any("`UNKNOWN_FUNCTION`" in r and r.startswith("| script calling an unknown function") for r in rows)
