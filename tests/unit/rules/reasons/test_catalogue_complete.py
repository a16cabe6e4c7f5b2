"""Every code a procedure's rules can emit, and every decision they record, has its Spanish and English
sentence and cites rules whose article is in the rules catalogue (copied from RULES.md)."""
from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest

from engine.rules import bid_adjudication, farmer_registry, materials_aid, surplus_disposition
from engine.rules.decision import Decision
from engine.rules.reasons import articles, explain, explain_decision
from engine.rules.reasons.catalogue import CODES, DECISIONS, PROCEDURES
from engine.rules.reasons.format import fill

PACKAGES = {"farmer_registry": farmer_registry, "materials_aid": materials_aid,
            "surplus_disposition": surplus_disposition, "bid_adjudication": bid_adjudication}
RAISERS = {"RuleViolation", "Refusal", "refuse", "_refuse"}
CODE = re.compile(r"^[A-Z][A-Z_]{2,}$")
RULE_ID = re.compile(r"\b(?:SUR|FAR|MAT|BID|AMB|TC)-\d+[a-z]?\b")


def _sources(name: str) -> list[Path]:
    return sorted(Path(PACKAGES[name].__file__).parent.glob("*.py"))


def _constants(trees) -> dict[str, str]:
    found = {}
    for tree in trees:
        for node in tree.body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) \
                    and isinstance(node.value.value, str):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        found[target.id] = node.value.value
    return found


def _values(node, constants) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Name) and node.id in constants:
        return [constants[node.id]]
    if isinstance(node, (ast.List, ast.Tuple)):
        return [v for element in node.elts[:1 if isinstance(node, ast.Tuple) else None]
                for v in _values(element, constants)]
    return []


def emitted_codes(name: str) -> set[str]:
    """Codes raised by a refusal, appended to a decision's reasons, or given to an offer as its status."""
    trees = [ast.parse(path.read_text(encoding="utf-8")) for path in _sources(name) if path.name != "messages.py"]
    constants = _constants(trees)
    codes: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and node.args:
                func = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
                if func in RAISERS or func in ("append", "insert"):
                    codes.update(_values(node.args[-1] if func == "insert" else node.args[0], constants))
            elif isinstance(node, ast.Assign) and any(
                    (isinstance(t, ast.Name) and t.id == "status")
                    or (isinstance(t, ast.Subscript) and getattr(t.value, "id", "") == "statuses") for t in node.targets):
                codes.update(_values(node.value, constants))
    return {c for c in codes if CODE.match(c)}


@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_every_code_the_rules_can_emit_reads_in_spanish_and_english_and_cites_known_articles(name):
    codes = emitted_codes(name)
    assert len(codes) >= 5  # the scan finds the procedure's codes at all
    missing = sorted(c for c in codes if not (CODES.get(c, {}).get("es") and CODES[c].get("en")))
    assert missing == []
    for code in codes:
        rules = CODES[code]["rules"]
        assert rules and all(articles.known(r) for r in rules), (code, rules)


@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_every_decision_a_procedure_records_has_its_sentences(name):
    recorded = [n for n, function in PACKAGES[name].SCRIPT_FUNCTIONS.items()
                if inspect.signature(function).return_annotation in (Decision, "Decision")]
    assert recorded
    for function in recorded:
        entry = DECISIONS.get(function)
        assert entry, function
        for variant in entry.values():
            assert variant.get("es") and variant.get("en"), (function, variant)


@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_every_rule_id_the_rules_cite_has_its_article_from_the_rules_catalogue(name):
    cited = {r for path in _sources(name) for r in RULE_ID.findall(path.read_text(encoding="utf-8"))}
    unknown = sorted(r for r in cited if not articles.known(r))
    assert unknown == []
    for rule_id in cited:
        citation = articles.citation(rule_id, "es")
        assert citation.startswith(rule_id + " — "), citation


def test_every_sentence_fills_even_when_its_values_are_unknown():
    for module in PROCEDURES.values():
        entries = list(module.CODES.values()) + [v for e in module.DECISIONS.values() for v in e.values()]
        for entry in entries:
            for language in ("es", "en"):
                text = fill(entry[language], {}, language)
                assert text and "{" not in text and "‹" not in text, entry[language]


def test_a_decision_without_a_catalogue_entry_still_reads_as_its_rule_and_outcome():
    why = explain_decision("unheard_of", True, ("FAR-04",))
    assert why["es"] == "unheard_of: True" and why["articles"][0]["id"] == "FAR-04"


def test_wording_that_cannot_be_built_never_stops_the_decision():
    class Odd:
        def __str__(self):
            raise RuntimeError("no words for this")

    why = explain("assess_eligibility", Decision(outcome=Odd(), rule_ids=("FAR-10",)))
    assert why["rule"] == "assess_eligibility" and why["rule_ids"] == ["FAR-10"] and why["reasons"] == []
