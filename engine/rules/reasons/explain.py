"""Why a decision came out as it did, and why a rule refused: sentences and reasons as pure data.

`explain_decision` is what the case history records beside a decision (`data["why"]`);
`explain_refusal` lists every reason a refusal has (a refused admission gives each failed
requirement, not only the first). Both draw their words from the procedures' message catalogues.
"""
from __future__ import annotations

from typing import Any, Mapping

from engine.rules.decision import Decision, RuleViolation
from engine.rules.reasons.build import LANGUAGES, articles, capitalised, make_reason, with_period
from engine.rules.reasons.catalogue import CODES, DECISIONS, LABELS
from engine.rules.reasons.format import fill


def decision_values(outcome, inputs: Mapping | None, details: Mapping | None) -> dict:
    """What a decision's sentences may name: its inputs, its details and its outcome."""
    return {**dict(inputs or {}), **dict(details or {}), "outcome": outcome}


def _outcome_entry(entry: Mapping, outcome) -> Mapping | None:
    if isinstance(outcome, bool) or outcome is None:
        key = {True: "yes", False: "no", None: "none"}[outcome]
        return entry.get(key) or entry.get("*")
    return entry.get(str(outcome)) or entry.get("*")


def reasons_of(codes, values: Mapping[str, Any], rule_ids=()) -> list[dict]:
    """One reason per code (or per `(code, values)` pair), each with its sentence and values."""
    out = []
    for item in codes:
        code, own = (item, {}) if isinstance(item, str) else (item[0], dict(item[1]))
        out.append(make_reason(code, CODES.get(code), {**values, **own}, () if code in CODES else rule_ids, LABELS))
    return out


def explain_decision(name: str, outcome, rule_ids=(), inputs: Mapping | None = None,
                     details: Mapping | None = None, because=()) -> dict:
    """{rule, rule_ids, articles, es, en, reasons}: the decision in one sentence per language, then
    each reason (the requirement met or failed, the values used, the threshold)."""
    values = decision_values(outcome, inputs, details)
    entry = DECISIONS.get(name) or {}
    sentence = _outcome_entry(entry, outcome) or {}
    codes = list(because)
    if not codes and isinstance((details or {}).get("reasons"), list):
        codes = [c for c in details["reasons"] if isinstance(c, str)]
    if not codes and (details or {}).get("reason") in CODES:
        codes = [details["reason"]]  # one reason named by the rule (the surplus cascade)
    texts = {lang: with_period(capitalised(fill(sentence[lang], values, lang, LABELS))) if sentence.get(lang)
             else f"{name}: {outcome}" for lang in LANGUAGES}
    return {"rule": name, "rule_ids": list(rule_ids), "articles": articles(rule_ids), **texts,
            "reasons": reasons_of(codes, values, rule_ids)}


def explain(name: str, decision: Decision) -> dict:
    """The why of a decision as the history records it. Wording must never stop a case: a sentence
    that cannot be built leaves the decision as its rule and outcome, with its articles."""
    try:
        return explain_decision(name, decision.outcome, decision.rule_ids, decision.inputs, decision.details,
                                decision.because)
    except Exception:  # noqa: BLE001 — any failure of the words, never of the decision itself
        text = f"{name}: {_shown(decision.outcome)}"
        return {"rule": name, "rule_ids": list(decision.rule_ids), "articles": articles(decision.rule_ids),
                "es": text, "en": text, "reasons": []}


def _shown(value) -> str:
    try:
        return str(value)
    except Exception:  # noqa: BLE001
        return type(value).__name__


def explain_recorded(data: Mapping) -> dict | None:
    """The explanation of a decision event from what the history recorded (older events had none)."""
    if data.get("why"):
        return data["why"]
    name = data.get("rule")
    if not name:
        return None
    details = {k: v for k, v in data.items() if k not in ("rule", "outcome", "inputs", "rule_ids")}
    try:
        return explain_decision(name, data.get("outcome"), data.get("rule_ids") or (), data.get("inputs"), details)
    except Exception:  # noqa: BLE001 — an old event the words cannot read is shown as it was recorded
        return None


def explain_refusal(exc: RuleViolation) -> list[dict]:
    """Every reason a refusal gives, each with its sentence; the first is the refusal's own code."""
    named = (exc.errors or {}).get("rule") or []
    codes = list(exc.reasons) or [(c, {}) for c in dict.fromkeys([exc.code, *named])]
    return reasons_of(codes, exc.values, exc.rule_ids)


def refusal_sentences(reasons: list[dict], language: str) -> str:
    """All the reasons as one text: what an API client gets as `message`, what a letter quotes."""
    return " ".join(with_period(capitalised(r[language])) + _cited(r) for r in reasons)


def _cited(reason: dict) -> str:
    return f" ({', '.join(reason['rule_ids'])})" if reason["rule_ids"] else ""
