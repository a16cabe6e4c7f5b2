"""The small diagrams the engine tests deploy, each with its forms."""
from __future__ import annotations

from . import bpmn as b

MONEY = {"type": ["string", "number"], "pattern": r"^\d+(\.\d{1,2})?$"}


def rules_flow() -> dict[str, str]:
    """intake (clerk) → FAR-04 rule in a script → gateway → approve (reviewer) or denial."""
    xml = b.diagram(
        "test_rules",
        lanes={"test_clerk": ["start", "intake", "decide", "route", "set_denied", "end_denied"],
               "test_reviewer": ["approve", "set_ok", "end_ok"]},
        nodes=[b.start(), b.user("intake", "Recibir solicitud"),
               b.script("decide", "eligibility = income_share_qualifies(gross_annual_income, activity_income, "
                                  "param('farmer.minIncomeSharePct'))\nstage = 'EVALUATED'"),
               b.xor("route", default="f_denied"), b.user("approve", "Aprobar"),
               b.script("set_ok", "outcome = 'APPROVED'"), b.script("set_denied", "outcome = 'DENIED'"),
               b.end("end_ok"), b.end("end_denied")],
        flows=[*b.chain("start", "intake", "decide", "route"),
               b.flow("f_ok", "route", "approve", "eligibility['outcome'] == True"),
               b.flow("f_denied", "route", "set_denied"),
               *b.chain("approve", "set_ok", "end_ok"), *b.chain("set_denied", "end_denied")])
    return {"rules.bpmn": xml,
            "intake.schema.json": b.form({"gross_annual_income": MONEY, "activity_income": MONEY}),
            "approve.schema.json": b.form({"approved": {"type": "boolean"}}, {"note": {"type": "string"}})}
