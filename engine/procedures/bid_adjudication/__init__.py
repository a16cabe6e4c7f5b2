"""Municipal bid adjudication (BID): opening, screening, preference, award, sanctions, follow-up
and cancellation; the bidder registry's debarments and fiscal-year locks (BID-nn, AMB-nn)."""
from pathlib import Path

from engine.definitions import case_index
from engine.kernel.procedure import HelperFamily, Procedure
from engine.procedures.bid_adjudication import bindings
from engine.rules import bid_adjudication as rules
from engine.rules.surplus_disposition import SUR

PROCEDURE = Procedure(
    name="bid_adjudication",
    prefixes={rules.BID: "BID"},
    script_functions=rules.SCRIPT_FUNCTIONS,
    helpers=(HelperFamily(bindings.NAMES - bindings.SHARED_WITH_SURPLUS, bindings.bind),
             HelperFamily(bindings.SHARED_WITH_SURPLUS, bindings.bind, shared_with=frozenset({SUR}))),
    completion_rules=rules.COMPLETION_RULES,
    message_rules=rules.MESSAGE_RULES,
    lookups={(rules.BID, "start"): bindings.start_lookup},
    case_index=case_index.load(Path(__file__).with_name("case_index.json")),
)
