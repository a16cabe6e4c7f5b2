"""Materials aid's registry functions a script may call, bound to the command that runs it.

Also the lookup the start rule needs: the rule itself is pure
(`rules.materials_aid.hooks.application_filed`); `start_lookup` hands it the directory.
Registry changes land in the command's transaction and history, as the engine.
"""
from __future__ import annotations

from datetime import date
from typing import Callable

from engine.rules.calendar import as_local_date
from engine.rules.materials_aid.offices import office_entry
from engine.registries import beneficiaries, offices, stores

ENGINE_ACTOR = "engine"
# MAT-12: every written adverse notice carries the orientation on the rights under Ley 170 (LPAU).
LPAU_ORIENTATION = ("Puede solicitar reconsideración o revisión conforme a la Ley Núm. 170 de 12 de agosto "
                    "de 1978, Ley de Procedimiento Administrativo Uniforme, o radicar una querella (VII).")

NAMES = frozenset({"regional_office_of", "beneficiary_last_use", "list_registered_stores",
                   "record_beneficiary", "written_notice"})


def _day(value) -> date:
    return as_local_date(value, instants=False)  # registry dates are days, never instants


def bind(ctx, instance_id: int | None) -> dict[str, Callable]:
    def regional_office_of(municipality) -> str:
        """MAT-08: the `office` a case of this town is scoped to."""
        office = office_entry(municipality, offices.directory(ctx.session))
        if office is None:
            raise ValueError(f"no Regional Office serves {municipality!r}")
        return office["id"]

    def beneficiary_last_use(applicant_id) -> date | None:
        entry = beneficiaries.find(ctx.session, str(applicant_id))
        return entry.last_use_date if entry is not None else None

    def list_registered_stores() -> list[dict]:
        return stores.registered_stores(ctx.session)

    def record_beneficiary(applicant: dict, last_use_date, outcome: str) -> str:
        """MAT-30: the applicant used materials of this case; the 2-year wait runs from `last_use_date`."""
        entry = beneficiaries.record_use(ctx, applicant=dict(applicant), last_use_date=_day(last_use_date),
                                         outcome=str(outcome), instance_id=instance_id, actor=ENGINE_ACTOR)
        return entry.id

    def written_notice(kind: str, reasons, text: str = "") -> str:
        """A written notice the engine issues to the applicant, with the LPAU orientation (MAT-12)."""
        ctx.audit("notification", instance_id=instance_id, actor=ENGINE_ACTOR, rule_ids=("MAT-12",),
                  message=f"aviso escrito: {kind}",
                  data={"kind": str(kind), "reasons": list(reasons or []), "text": str(text or ""),
                        "lpau_orientation": LPAU_ORIENTATION})
        return LPAU_ORIENTATION

    return {"regional_office_of": regional_office_of, "beneficiary_last_use": beneficiary_last_use,
            "list_registered_stores": list_registered_stores, "record_beneficiary": record_beneficiary,
            "written_notice": written_notice}


def start_lookup(ctx, _variables: dict, _facts) -> dict:
    """MAT-08: the start rule checks the filing office against the managed office list."""
    return {"directory": offices.directory(ctx.session)}
