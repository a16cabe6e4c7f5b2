"""What a letter says, as plain values: the one input of the renderer (engine/letters/render.py).

A `Letter` is assembled from a case (engine/letters/assemble.py) or from a sample case for the
owner's preview; rendering it touches nothing else, so the same data always gives the same PDF text.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date


@dataclass(frozen=True)
class Reason:
    """One reason for the decision, in words, with the article (rule ids) that it applies."""
    text: str
    article: str


@dataclass(frozen=True)
class Remedy:
    """What the addressee may still do, and the last day to do it (the engine's calendar)."""
    name: str            # "solicitud de revisión", "reconsideración", "recogido de la propiedad"
    text: str            # the sentence that tells the addressee how
    days: int            # the term the rule gives
    last_day: date       # computed with engine/rules/calendar.py from the notice date
    article: str         # the rule ids that give the term
    rolled_forward: bool = False


@dataclass(frozen=True)
class Letter:
    kind: str                      # "denial", "admission", ... (document type letter.<kind>)
    language: str                  # "es" or "en"
    case_number: str
    notice_date: date
    agency: str
    office: str
    title: str
    addressee_name: str
    addressee_address: str | None
    decision: str
    reasons: tuple[Reason, ...] = ()
    paragraphs: tuple[str, ...] = ()
    facts: tuple[tuple[str, str], ...] = ()   # (label, value): price, pickup deadline, order number
    remedy: Remedy | None = None
    rights: str | None = None                 # the law cited for the applicant's rights
    delivery_method: str = ""
    signer_title: str = ""
    signer_office: str = ""
    address_line: str | None = None           # the addressee's e-mail, when the notice goes by e-mail
    extra: dict = field(default_factory=dict)
