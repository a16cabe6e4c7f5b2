"""Direct tests of engine/kernel/procedure.py: the `Procedure` values and the `Procedures` registry
that merges them for `Engine(...)`.

Every key (rule, lookup, lane refusal, prefix) and every script name is declared at most once, and a
second declaration — by another procedure or by the engine's own helpers — is refused when the
registry is built (DuplicateDeclaration), never left to shadow silently. A completion or message rule
runs after its lookup, which reads the registries in the command's transaction and hands what it read
to the pure rule as `facts.reference`.
"""
from __future__ import annotations

from datetime import date

import pytest

from engine.kernel.procedure import (
    DuplicateDeclaration,
    HelperFamily,
    Procedure,
    Procedures,
)
from engine.rules.decision import Refusal, RuleViolation
from engine.rules.facts import Facts


def rule_a(data, facts):
    return None


def rule_b(data, facts):
    return None


def script_fn(*args):
    return None


def family(*names) -> HelperFamily:
    return HelperFamily(frozenset(names), lambda ctx, instance_id: {n: script_fn for n in names})


ALPHA_KEY, BETA_KEY = ("alpha_process", "start"), ("beta_process", "start")


# --- duplicates are refused when the registry is built -------------------------------------------------

@pytest.mark.parametrize(("first", "second"), [
    pytest.param({"completion_rules": {ALPHA_KEY: rule_a}}, {"completion_rules": {ALPHA_KEY: rule_b}},
                 id="same-completion-key"),
    pytest.param({"message_rules": {("alpha_process", "cancel"): rule_a}},
                 {"message_rules": {("alpha_process", "cancel"): rule_b}}, id="same-message-key"),
    pytest.param({"lookups": {ALPHA_KEY: lambda c, d, f: {}}}, {"lookups": {ALPHA_KEY: lambda c, d, f: {}}},
                 id="same-lookup-key"),
    pytest.param({"lane_refusals": {("alpha_process", "decide"): ("X", ())}},
                 {"lane_refusals": {("alpha_process", "decide"): ("Y", ())}}, id="same-lane-refusal-key"),
    pytest.param({"prefixes": {"alpha_process": "ALP"}}, {"prefixes": {"alpha_process": "ALF"}},
                 id="same-process-prefixed-twice"),
    pytest.param({"script_functions": {"score": script_fn}}, {"script_functions": {"score": script_fn}},
                 id="same-script-function"),
    pytest.param({"helpers": (family("lookup_owner"),)}, {"helpers": (family("lookup_owner"),)},
                 id="same-helper-name"),
])
def test_a_second_declaration_is_refused_at_construction(first, second):
    with pytest.raises(DuplicateDeclaration) as caught:
        Procedures(Procedure("alpha", **first), Procedure("beta", **second))
    assert "alpha" in str(caught.value) and "beta" in str(caught.value)


def test_a_procedure_declared_twice_is_refused():
    with pytest.raises(DuplicateDeclaration):
        Procedures(Procedure("alpha"), Procedure("alpha"))


def test_distinct_keys_and_the_same_name_in_different_tables_coexist():
    procedures = Procedures(
        Procedure("alpha", completion_rules={ALPHA_KEY: rule_a}, message_rules={("alpha_process", "start"): rule_b}),
        Procedure("beta", completion_rules={BETA_KEY: rule_b, ("alpha_process", "review"): rule_a}))
    assert procedures.completion_rule(*ALPHA_KEY) is rule_a
    assert procedures.completion_rule(*BETA_KEY) is rule_b
    assert procedures.completion_rule("alpha_process", "review") is rule_a
    assert procedures.message_rule("alpha_process", "start") is rule_b
    assert procedures.completion_rule("alpha_process", "missing") is None
    assert procedures.message_rule("beta_process", "start") is None


@pytest.mark.parametrize("declared", [
    pytest.param({"script_functions": {"today": script_fn}}, id="script-function-named-like-an-engine-helper"),
    pytest.param({"helpers": (family("money", "owner_of"),)}, id="helper-named-like-an-engine-helper"),
])
def test_an_engine_helper_name_is_reserved(declared):
    with pytest.raises(DuplicateDeclaration) as caught:
        Procedures(Procedure("alpha", **declared), reserved=frozenset({"today", "money"}))
    assert "the engine" in str(caught.value)


def test_a_helper_may_not_take_another_procedures_rule_function_name():
    with pytest.raises(DuplicateDeclaration) as caught:
        Procedures(Procedure("alpha", script_functions={"price_check": script_fn}),
                   Procedure("beta", helpers=(family("record_sale", "price_check"),)))
    assert "price_check" in str(caught.value)


def test_a_helper_may_not_take_its_own_procedures_rule_function_name():
    with pytest.raises(DuplicateDeclaration):
        Procedures(Procedure("alpha", script_functions={"price_check": script_fn},
                             helpers=(family("price_check"),)))


def test_names_are_the_script_functions_and_the_helpers():
    helpers = family("record_sale", "owner_of")
    procedures = Procedures(Procedure("alpha", script_functions={"price_check": script_fn}),
                            Procedure("beta", helpers=(helpers,)), reserved=frozenset({"today"}))
    assert procedures.names() == {"price_check", "record_sale", "owner_of"}
    assert procedures.helper_names == {"record_sale", "owner_of"}
    assert procedures.helpers == (helpers,)
    assert procedures.script_functions == {"price_check": script_fn}


# --- including() --------------------------------------------------------------------------------------

def test_including_adds_procedures_and_leaves_the_original_alone():
    base = Procedures(Procedure("alpha", completion_rules={ALPHA_KEY: rule_a}), reserved=frozenset({"today"}))
    more = base.including(Procedure("beta", completion_rules={BETA_KEY: rule_b}, prefixes={"beta_process": "BET"}))
    assert [p.name for p in more.all] == ["alpha", "beta"]
    assert more.completion_rule(*ALPHA_KEY) is rule_a and more.completion_rule(*BETA_KEY) is rule_b
    assert more.prefix_for("beta_process") == "BET"
    assert base.completion_rule(*BETA_KEY) is None and [p.name for p in base.all] == ["alpha"]
    assert more.reserved == base.reserved


@pytest.mark.parametrize("added", [
    pytest.param(Procedure("beta", completion_rules={ALPHA_KEY: rule_b}), id="clashing-key"),
    pytest.param(Procedure("beta", script_functions={"today": script_fn}), id="reserved-name-still-reserved"),
    pytest.param(Procedure("alpha"), id="same-procedure-again"),
])
def test_including_checks_the_added_procedures_too(added):
    base = Procedures(Procedure("alpha", completion_rules={ALPHA_KEY: rule_a}), reserved=frozenset({"today"}))
    with pytest.raises(DuplicateDeclaration):
        base.including(added)


# --- check_completion / check_message: the lookup first, its result as facts.reference -----------------

class FakeCtx:
    """Any object: the registry only hands it to the lookup."""


FACTS = Facts(case={"stage": "X"}, today=date(2024, 4, 1), actor="clerk", office="Caguas", waiting=False,
              reference={"stale": True})


def recording(calls, name, returns=None, raises=None):
    def fn(*args):
        calls.append((name, args))
        if raises is not None:
            raise raises
        return returns
    return fn


@pytest.mark.parametrize(("table", "method"), [("completion_rules", "check_completion"),
                                               ("message_rules", "check_message")])
def test_the_lookup_runs_first_and_its_result_is_the_reference(table, method):
    calls, ctx, data = [], FakeCtx(), {"amount": "1.00"}
    lookup = recording(calls, "lookup", returns={"directory": {"offices": []}})
    rule = recording(calls, "rule")
    procedures = Procedures(Procedure("alpha", **{table: {ALPHA_KEY: rule}}, lookups={ALPHA_KEY: lookup}))
    assert getattr(procedures, method)(ctx, *ALPHA_KEY, data, FACTS) is None
    assert [name for name, _ in calls] == ["lookup", "rule"]
    assert calls[0][1] == (ctx, data, FACTS) and calls[0][1][0] is ctx
    seen_data, seen = calls[1][1]
    assert seen_data is data
    assert seen.reference == {"directory": {"offices": []}}
    assert (seen.case, seen.today, seen.actor, seen.office, seen.waiting) == \
        (FACTS.case, FACTS.today, FACTS.actor, FACTS.office, False)
    assert FACTS.reference == {"stale": True}  # the caller's facts are not changed
    assert procedures.lookup(*ALPHA_KEY) is lookup


@pytest.mark.parametrize(("table", "method"), [("completion_rules", "check_completion"),
                                               ("message_rules", "check_message")])
def test_without_a_lookup_the_rule_gets_the_facts_as_given(table, method):
    calls = []
    procedures = Procedures(Procedure("alpha", **{table: {ALPHA_KEY: recording(calls, "rule")}}))
    getattr(procedures, method)(FakeCtx(), *ALPHA_KEY, {}, FACTS)
    assert calls[0][1][1] is FACTS


@pytest.mark.parametrize(("table", "method"), [("completion_rules", "check_completion"),
                                               ("message_rules", "check_message")])
def test_no_rule_means_no_lookup_and_no_refusal(table, method):
    calls = []
    other_table = "message_rules" if table == "completion_rules" else "completion_rules"
    procedures = Procedures(Procedure("alpha", **{other_table: {ALPHA_KEY: recording(calls, "other")}},
                                      lookups={ALPHA_KEY: recording(calls, "lookup", returns={})}))
    assert getattr(procedures, method)(FakeCtx(), *ALPHA_KEY, {}, FACTS) is None
    assert getattr(procedures, method)(FakeCtx(), "alpha_process", "undeclared", {}, FACTS) is None
    assert calls == []


@pytest.mark.parametrize("refusal", [RuleViolation("X_REQUIRED", "no", ("R-1",)),
                                     Refusal("X_LATE", "late", ("R-2",))], ids=["422", "409"])
def test_the_rules_refusal_reaches_the_caller(refusal):
    procedures = Procedures(Procedure("alpha", message_rules={ALPHA_KEY: recording([], "rule", raises=refusal)},
                                      lookups={ALPHA_KEY: lambda ctx, data, facts: {"k": 1}}))
    with pytest.raises(type(refusal)) as caught:
        procedures.check_message(FakeCtx(), *ALPHA_KEY, {}, FACTS)
    assert caught.value is refusal


# --- lane refusals and prefixes ---------------------------------------------------------------------

def test_lane_refusal_is_the_rule_error_of_the_declared_code():
    procedures = Procedures(Procedure("alpha", lane_refusals={("alpha_process", "decide"): ("ONLY_THE_BOSS", ("R-9",))}))
    assert procedures.lane_refusal("alpha_process", "decide") == {"rule": ["ONLY_THE_BOSS"]}
    assert procedures.lane_refusal("alpha_process", "other") is None


@pytest.mark.parametrize(("key", "prefix"), [
    pytest.param("alpha_process", "ALP", id="declared"),
    pytest.param("materials_aid", "MAT", id="fallback-first-three-letters"),
    pytest.param("x_y_zeta", "XYZ", id="fallback-without-underscores"),
    pytest.param("ab", "AB", id="fallback-short-key"),
])
def test_prefix_for(key, prefix):
    assert Procedures(Procedure("alpha", prefixes={"alpha_process": "ALP"})).prefix_for(key) == prefix


# --- the engine's own registry ---------------------------------------------------------------------

def test_the_engines_procedures_build_without_duplicates():
    from engine.procedures import ALL
    from engine.scripting.helpers import HELPER_NAMES
    assert [p.name for p in ALL.all] == ["farmer_registry", "materials_aid", "bid_adjudication", "surplus_disposition"]
    assert ALL.reserved == HELPER_NAMES and not (ALL.names() & HELPER_NAMES)
    assert Procedures(*ALL.all, reserved=HELPER_NAMES).names() == ALL.names()
    with pytest.raises(DuplicateDeclaration):
        ALL.including(ALL.all[0])


@pytest.mark.parametrize(("key", "prefix"), [
    ("farmer_registry_admission", "FAR"), ("farmer_registry_membership", "FAR"), ("materials_aid", "MAT"),
    ("bid_adjudication", "BID"), ("surplus_disposition", "SUR"),
])
def test_the_engines_case_number_prefixes(key, prefix):
    from engine.procedures import ALL
    assert ALL.prefixes[key] == prefix and ALL.prefix_for(key) == prefix


def test_the_engine_routes_every_hook_table_entry():
    from engine.procedures import ALL
    from engine.rules.bid_adjudication import hooks as bid
    from engine.rules.farmer_registry import hooks as far
    from engine.rules.materials_aid import hooks as mat
    from engine.rules.surplus_disposition import hooks as sur
    for module in (far, mat, bid, sur):
        for key, rule in module.COMPLETION_RULES.items():
            assert ALL.completion_rule(*key) is rule, key
        for key, rule in module.MESSAGE_RULES.items():
            assert ALL.message_rule(*key) is rule, key
        for key, (code, _) in getattr(module, "LANE_REFUSALS", {}).items():
            assert ALL.lane_refusal(*key) == {"rule": [code]}, key
    assert ALL.lane_refusal("materials_aid", "decide_extension") == {"rule": ["EXTENSION_AUTHORITY_INVALID"]}
    assert ALL.lane_refusal("surplus_disposition", "approve_vehicle_order") == {"rule": ["VEHICLE_ORDER_NOT_APPROVED"]}
    for key in (("materials_aid", "start"), ("bid_adjudication", "start"), ("surplus_disposition", "request")):
        assert ALL.lookup(*key) is not None, key


# --- helper scope (issue 15 #7): a procedure's helpers are for its own processes ---------------------

def test_helpers_are_callable_only_from_the_owning_procedures_processes():
    procedures = Procedures(
        Procedure("alpha", prefixes={"alpha_process": "ALP"}, helpers=(family("remove_entry"),)),
        Procedure("beta", prefixes={"beta_process": "BET"},
                  helpers=(HelperFamily(frozenset({"open_sale"}), lambda ctx, i: {},
                                        shared_with=frozenset({"alpha_process"})),)))
    assert procedures.helpers_for("alpha_process") == {"remove_entry", "open_sale"}
    assert procedures.helpers_for("beta_process") == {"open_sale"}
    assert procedures.helpers_for("owners_own_process") == frozenset()
    assert procedures.helpers_for(None) == frozenset()
    assert procedures.helper_owners["open_sale"] == ("beta", frozenset({"beta_process", "alpha_process"}))
    assert procedures.owned_processes == {"alpha_process", "beta_process"}


def test_the_engines_procedures_scope_their_helpers():
    from engine.procedures import ALL
    assert "set_farmer_status" in ALL.helpers_for("farmer_registry_membership")
    assert "set_farmer_status" not in ALL.helpers_for("surplus_disposition")
    assert {"start_sale_bid", "farmer_status"} <= ALL.helpers_for("surplus_disposition")
    assert "record_bans" not in ALL.helpers_for("surplus_disposition")
    assert not ALL.helpers_for("an_owners_own_key")
