"""Surplus property disposition (SUR): reassignment, the sale cascade with producers' notices and
lotteries, pickup terms and retention (SUR-nn, FAR-nn of the surplus rules)."""
from pathlib import Path

from engine.definitions import case_index
from engine.kernel.procedure import HelperFamily, Procedure
from engine.procedures.surplus_disposition import bindings
from engine.rules import surplus_disposition as rules

PROCEDURE = Procedure(
    name="surplus_disposition",
    prefixes={rules.SUR: "SUR"},
    script_functions=rules.SCRIPT_FUNCTIONS,
    helpers=(HelperFamily(bindings.NAMES, bindings.bind),),
    completion_rules=rules.COMPLETION_RULES,
    message_rules=rules.MESSAGE_RULES,
    lookups={(rules.SUR, "request"): bindings.request_lookup},
    lane_refusals=rules.LANE_REFUSALS,
    case_index=case_index.load(Path(__file__).with_name("case_index.json")),
)
