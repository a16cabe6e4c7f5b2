"""What a rule's decision or refusal means, in the page's language, for the person reading it.

The words come from the rules' own message catalogues (engine/rules/<procedure>/messages.py, via
engine.rules.reasons): every reason of a refusal or a decision reads as a sentence with the values
used and the threshold, and each rule id opens onto its text and article (RULES.md, copied into
engine/rules/rule_catalogue.json). The table below covers only the engine's own refusals and the
codes no catalogue words yet; a code missing everywhere falls back to the engine's message, so a
new rule is never shown blank.
"""
from __future__ import annotations

from engine.rules.reasons import article, explain_recorded, explain_refusal, rule_text
from engine.rules.reasons.catalogue import CODES
from engine.rules.reasons.build import capitalised, with_period

from api.web.i18n import selected_language

SPANISH = {
    # The procedures' codes are worded by their rules' catalogues (engine/rules/<procedure>/messages.py).
    # The engine's own refusals
    "TASK_NOT_OPEN": "La tarea ya no está abierta.",
    "TASK_CLAIMED_BY_OTHER": "Otra persona reclamó esta tarea.",
    "MESSAGE_NOT_EXPECTED": "El caso no espera este mensaje ahora.",
    "CASE_NOT_ACTIVE": "El caso no está en curso.",
    "CASE_NOT_IN_ERROR": "El caso no está en error; no hay nada que reintentar.",
    "CONCURRENT_CHANGE": "Otra persona cambió el caso al mismo tiempo; vuelva a intentarlo.",
    "STALE_VERSION": "Los datos cambiaron desde que abrió la página; vuelva a cargarla.",
    "REGISTRY_ID_TAKEN": "El registro ya tiene una entrada con ese identificador.",
    "USER_EXISTS": "Ya existe un usuario con ese nombre.",
    "ROLE_EXISTS": "Ya existe un rol con ese identificador.",
    "CANNOT_DEACTIVATE_SELF": "No puede desactivar su propia cuenta.",
    "CLOCK_BACKWARDS": "El reloj nunca retrocede.",
    "TOO_MANY_LOGIN_ATTEMPTS": "Demasiados intentos fallidos; espere antes de volver a intentarlo.",
}


def text(code: str | None, engine_message: str) -> str:
    """A refusal known only by its code, in the page's language: the table, else the engine's message."""
    if code and selected_language() == "es" and code in SPANISH:
        return SPANISH[code]
    return engine_message


def refusal_text(exc) -> str:
    """A rule's refusal as its first reason's sentence, with the figures the rule named."""
    reasons = explain_refusal(exc)
    if exc.code in CODES:
        return sentence(reasons[0])
    return text(exc.code, exc.message)


def sentence(reason: dict, language: str | None = None) -> str:
    """A reason (or a decision's why) as a sentence of its own: capitalised, with its full stop."""
    return with_period(capitalised(reason.get(language or selected_language()) or ""))


def refusal_reasons(exc) -> list[dict]:
    """Every reason a rule refused with, each with its sentence, values and articles."""
    return explain_refusal(exc)


def event_why(event: dict) -> dict | None:
    """What a history event says in words: a decision's why, or a refusal's reasons (`{"reasons": [...]}`)."""
    data = event.get("data") or {}
    if event.get("type") == "decision":
        return explain_recorded(data)
    if event.get("type") in ("task_refused", "message_refused") and data.get("reasons"):
        return {"reasons": data["reasons"]}
    return None


def citation(rule_id: str) -> str:
    return article(rule_id)["citation_" + selected_language()]


def rule_article(rule_id: str) -> dict:
    """A rule's citation, its text as the catalogue states it and the law's own Spanish wording."""
    info = article(rule_id)
    entry = rule_text(rule_id) or {}
    language = selected_language()
    # The catalogue states its rules in English: a Spanish page shows the law's own Spanish wording only.
    return {"id": rule_id, "citation": info["citation_" + language],
            "statement": info["statement_en"] if language == "en" else None, "quotes": entry.get("quotes", [])}
