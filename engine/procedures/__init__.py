"""The extension point: every procedure this engine runs, declared once and handed to `Engine(...)`.

Adding a procedure: `processes/<p>/`, `forms/<p>/`, `engine/rules/<p>/`, a package here whose
`PROCEDURE` declares it, one line below, and its tests (README, "Adding a procedure").
Building `ALL` refuses a rule, helper or key that two procedures (or a procedure and the engine)
declare, so the mistake shows at import, not as a rule that silently never runs.
"""
from engine.kernel.procedure import Procedures
from engine.procedures import bid_adjudication, farmer_registry, materials_aid, surplus_disposition
from engine.scripting.helpers import HELPER_NAMES

ALL = Procedures(farmer_registry.PROCEDURE, materials_aid.PROCEDURE, bid_adjudication.PROCEDURE,
                 surplus_disposition.PROCEDURE, reserved=HELPER_NAMES)
