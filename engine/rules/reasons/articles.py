"""Each rule's text and source, from the rules catalogue (RULES.md) copied into rule_catalogue.json.

`scripts/rules_catalogue.py` writes the JSON; nothing here reads the shared contracts at run time.
An article citation names the rule id and the legal text it comes from, e.g.
"FAR-04 — Reglamento de la Comisión (000); Ley de agricultores bona fide (003)".
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

CATALOGUE = Path(__file__).resolve().parent.parent / "rule_catalogue.json"

# The five legal texts of RULES.md, named as a person cites them (the catalogue names them in English).
SOURCE_NAMES = {
    "000": {"es": "Reglamento de la Comisión (000)", "en": "Regulation of the Comisión (000)"},
    "001": {"es": "Reglamento de la Administración (001)", "en": "Regulation of the Administración (001)"},
    "002": {"es": "Reglamento del Programa de Ayuda de Materiales, Departamento de la Vivienda, 2011 (002)",
            "en": "Materials Aid Program Regulation, Departamento de la Vivienda, 2011 (002)"},
    "003": {"es": "Ley de agricultores, acuicultores, avicultores, artesanos y pescadores bona fide (003)",
            "en": "Statute on bona fide farmers, aquaculturists, poultry farmers, artisans and fishermen (003)"},
    "004": {"es": "Reglamento para la Administración Municipal de 2016, Secciones 11-12 (004)",
            "en": "Municipal Administration Regulation of 2016, Sections 11-12 (004)"},
}
# Conventions (TC) and ambiguities (AMB) are the analysts' choices, not articles of a legal text.
KIND_NAMES = {"TC": {"es": "convención de cómputo del catálogo de reglas", "en": "rules catalogue convention"},
              "AMB": {"es": "ambigüedad resuelta por parámetro del catálogo de reglas",
                      "en": "ambiguity resolved by a parameter of the rules catalogue"}}


@lru_cache(maxsize=1)
def _rules() -> dict:
    return json.loads(CATALOGUE.read_text(encoding="utf-8"))["rules"]


def known(rule_id: str) -> bool:
    return rule_id in _rules()


def rule_text(rule_id: str) -> dict | None:
    """{id, statement (English, as the catalogue words it), quotes [{text, source}] (the Spanish
    wording of the law), sources [short names]}, or None for an id the catalogue lacks."""
    entry = _rules().get(rule_id)
    return None if entry is None else {"id": rule_id, **entry}


def citation(rule_id: str, language: str = "es") -> str:
    """"FAR-04 — Reglamento de la Comisión (000); Ley … (003)": the rule and the text it rests on."""
    entry = _rules().get(rule_id) or {}
    names = [SOURCE_NAMES.get(s, {}).get(language, s) for s in entry.get("sources", [])]
    if not names:
        kind = KIND_NAMES.get(rule_id.split("-")[0])
        names = [kind[language]] if kind else []
    return f"{rule_id} — {'; '.join(names)}" if names else rule_id


def article(rule_id: str) -> dict:
    """What a reason carries per rule id: the citation in both languages and the rule's text."""
    entry = _rules().get(rule_id) or {"statement": None, "quotes": [], "sources": []}
    return {"id": rule_id, "citation_es": citation(rule_id, "es"), "citation_en": citation(rule_id, "en"),
            "statement_en": entry["statement"], "text_es": " … ".join(q["text"] for q in entry["quotes"]) or None,
            "sources": list(entry["sources"])}
