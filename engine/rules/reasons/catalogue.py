"""The four procedures' message catalogues in one place: reason codes and decisions by name.

Codes are unique across procedures (RULES.md §5 is one list); a code two procedures word
differently would make one of them lie, so the merge refuses it.
"""
from __future__ import annotations

from engine.rules.bid_adjudication import messages as bid
from engine.rules.farmer_registry import messages as farmer
from engine.rules.materials_aid import messages as materials
from engine.rules.surplus_disposition import messages as surplus

PROCEDURES = {"farmer_registry": farmer, "materials_aid": materials, "surplus_disposition": surplus,
              "bid_adjudication": bid}


def _merge(attribute: str) -> dict:
    merged: dict = {}
    for module in PROCEDURES.values():
        for key, entry in getattr(module, attribute).items():
            if key in merged and merged[key] != entry:
                raise ValueError(f"{attribute} {key!r} is worded differently by two procedures")
            merged[key] = entry
    return merged


CODES = _merge("CODES")
DECISIONS = _merge("DECISIONS")
LABELS = _merge("LABELS")
