"""Decisions and refusals in words: each reason's rule ids, article, values, threshold and sentence.

Public interface (see /work/notes/reasons-api.md): `explain`, `explain_decision`, `explain_recorded`,
`explain_refusal`, `refusal_sentences`, and `articles.rule_text` / `articles.citation`.
"""
from engine.rules.reasons.articles import article, citation, rule_text
from engine.rules.reasons.explain import (
    explain, explain_decision, explain_recorded, explain_refusal, reasons_of, refusal_sentences,
)

__all__ = ["article", "citation", "explain", "explain_decision", "explain_recorded", "explain_refusal",
           "reasons_of", "refusal_sentences", "rule_text"]
