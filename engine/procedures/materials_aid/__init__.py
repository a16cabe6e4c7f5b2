"""Housing materials aid (MAT): eligibility, quotes, the central review, the use period and the
follow-up visit; cases scoped to the Regional Office of the applicant's town (MAT-08)."""
from pathlib import Path

from engine.definitions import case_index
from engine.kernel.procedure import HelperFamily, Procedure
from engine.procedures.materials_aid import bindings
from engine.rules import materials_aid as rules

PROCEDURE = Procedure(
    name="materials_aid",
    prefixes={rules.MATERIALS: "MAT"},
    script_functions=rules.SCRIPT_FUNCTIONS,
    helpers=(HelperFamily(bindings.NAMES, bindings.bind),),
    completion_rules=rules.COMPLETION_RULES,
    message_rules=rules.MESSAGE_RULES,
    lookups={(rules.MATERIALS, "start"): bindings.start_lookup},
    lane_refusals=rules.LANE_REFUSALS,
    case_index=case_index.load(Path(__file__).with_name("case_index.json")),
)
