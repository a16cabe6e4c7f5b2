"""A reason as pure data: the code, the rule ids and their articles, the values used, the threshold, and
the sentence in Spanish and English filled from the procedure's message catalogue.

A catalogue entry is data (`engine/rules/<procedure>/messages.py`):
    "INCOME_SHARE_BELOW_THRESHOLD": {"rules": ("FAR-04", "AMB-01"), "threshold": "min_share_pct",
        "es": "la actividad aporta {income_share_pct:pct} % del ingreso bruto; el mínimo es {min_share_pct:pct} %",
        "en": "..."}
The values a reason keeps are exactly the ones its sentences name, so what is read and what is
recorded never disagree.
"""
from __future__ import annotations

import string
from typing import Any, Mapping

from engine.rules.reasons.articles import citation
from engine.rules.reasons.format import fill

LANGUAGES = ("es", "en")


def field_names(*templates: str) -> list[str]:
    """The top-level value names the templates use, in order of first use."""
    names: list[str] = []
    for template in templates:
        for _, name, _, _ in string.Formatter().parse(template or ""):
            if name:
                root = name.split("[", 1)[0].split(".", 1)[0]
                if root not in names:
                    names.append(root)
    return names


def articles(rule_ids) -> list[dict]:
    return [{"id": r, "citation_es": citation(r, "es"), "citation_en": citation(r, "en")} for r in rule_ids]


def make_reason(code: str, entry: Mapping[str, Any] | None, values: Mapping[str, Any],
                rule_ids=(), labels: Mapping | None = None) -> dict:
    """One reason; a code without a catalogue entry still reads as something (its rule ids), never blank."""
    entry = entry or {}
    rules = list(dict.fromkeys([*entry.get("rules", ()), *rule_ids]))
    templates = {lang: entry.get(lang) for lang in LANGUAGES}
    used = {name: values.get(name) for name in field_names(*templates.values()) if name in values}
    threshold_name = entry.get("threshold")
    threshold = ({"name": threshold_name, "value": values.get(threshold_name)}
                 if threshold_name else None)
    sentences = {lang: (fill(templates[lang], values, lang, labels) if templates[lang] else _fallback(code, rules, lang))
                 for lang in LANGUAGES}
    return {"code": code, "rule_ids": rules, "articles": articles(rules), "values": used,
            "threshold": threshold, **sentences}


def _fallback(code: str, rules: list[str], language: str) -> str:
    cited = ", ".join(rules)
    if language == "es":
        return f"Regla {code}" + (f" ({cited})" if cited else "")
    return f"Rule {code}" + (f" ({cited})" if cited else "")


def with_period(sentence: str) -> str:
    sentence = sentence.strip()
    return sentence if not sentence or sentence[-1] in ".!?" else sentence + "."


def capitalised(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:]
