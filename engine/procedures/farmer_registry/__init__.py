"""The bona fide farmer registry (FAR): admission with its 20-day review window, and the 2-year
membership cycle of every entry (RULES.md FAR-nn, AMB-nn)."""
from pathlib import Path

from engine.definitions import case_index
from engine.kernel.procedure import HelperFamily, Procedure
from engine.procedures.farmer_registry import bindings
from engine.rules import farmer_registry as rules
from engine.rules.surplus_disposition import SUR

PROCEDURE = Procedure(
    name="farmer_registry",
    prefixes={rules.ADMISSION: "FAR", rules.MEMBERSHIP: "FAR"},
    script_functions=rules.SCRIPT_FUNCTIONS,
    helpers=(HelperFamily(bindings.NAMES - bindings.READ_BY_SURPLUS, bindings.bind),
             HelperFamily(bindings.READ_BY_SURPLUS, bindings.bind, shared_with=frozenset({SUR}))),
    completion_rules=rules.COMPLETION_RULES,
    message_rules=rules.MESSAGE_RULES,
    case_index=case_index.load(Path(__file__).with_name("case_index.json")),
)
