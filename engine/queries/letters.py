"""The process owner's preview of every letter kind, drawn from a sample case
(engine/letters/samples.py) with the parameters in force today: the same assembly and renderer a
real step uses, nothing stored."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from engine.config import parameters as parameter_store
from engine.errors import NotFound
from engine.letters import assemble, kinds, render
from engine.letters.issue import letter_parameters
from engine.letters.samples import SAMPLES
from engine.rules.calendar import local_date


def _letters(session: Session, now: datetime, kind: str, language: str):
    if kind not in kinds.all_kinds():
        raise NotFound(f"there is no letter kind {kind!r}")
    values = {p["name"]: p["value"] for p in parameter_store.describe(session)}
    # The holidays in force, managed calendar included, as a real letter counts them.
    parameters = letter_parameters(values, parameter_store.typed_value("calendar.holidays", {}, session))
    sample = SAMPLES[kind]
    return assemble.letters_for(kind, sample, case_number=sample["case_number"], notice_date=local_date(now),
                                parameters=parameters, language=language)


def previews(session: Session, now: datetime, language: str = "es") -> list[dict]:
    """Each kind with its procedure, the step that gives it, the rules that require it and its sample letters."""
    out = []
    for name, kind in kinds.all_kinds().items():
        out.append({"kind": name, "procedure": kind["procedure"], "process": kind["process"], "on": kind["on"],
                    "rules": kind["rules"], "document_type": kinds.document_type(name),
                    "letters": _letters(session, now, name, language)})
    return out


def preview_pdf(session: Session, now: datetime, kind: str, language: str = "es") -> tuple[str, bytes]:
    """The first sample letter of `kind` as its PDF: (file name, bytes)."""
    letter = _letters(session, now, kind, language)[0]
    return f"muestra-carta-{kind.replace('_', '-')}-{language}.pdf", render.pdf(letter)
