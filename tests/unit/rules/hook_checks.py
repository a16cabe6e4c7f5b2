"""What the hook tests share: run one `rule(data, facts)` and check its verdict.

A verdict is ACCEPT (the rule returns None) or a `Refused`: the exact exception class (422
RuleViolation vs 409 Refusal, never "either"), the code, the rule ids (as a set: RULES.md gives no
order) and `errors`. Where the documents name only some of the ids a refusal cites, `cites` lists
those and they must all be present.
"""
from __future__ import annotations

from dataclasses import dataclass

import pytest

from engine.rules.decision import Refusal, RuleViolation

ACCEPT = None


@dataclass(frozen=True)
class Refused:
    cls: type
    code: str
    rule_ids: tuple[str, ...] | None = None   # the exact set of ids cited
    errors: dict | None = None                # the exact `errors`; default {"rule": [code]}
    cites: tuple[str, ...] = ()               # ids that must be among those cited


def unprocessable(code, rule_ids=None, errors=None, cites=()) -> Refused:
    return Refused(RuleViolation, code, rule_ids, errors, cites)


def conflict(code, rule_ids=None, errors=None, cites=()) -> Refused:
    return Refused(Refusal, code, rule_ids, errors, cites)


def check(rule, data, facts, verdict) -> None:
    if verdict is ACCEPT:
        assert rule(data, facts) is None
        return
    with pytest.raises(RuleViolation) as caught:
        rule(data, facts)
    error = caught.value
    assert type(error) is verdict.cls, f"{type(error).__name__} {error.code}: {error.message}"
    assert error.status == (409 if verdict.cls is Refusal else 422)
    assert error.code == verdict.code, error.message
    if verdict.rule_ids is not None:
        assert sorted(error.rule_ids) == sorted(verdict.rule_ids)
    assert set(verdict.cites) <= set(error.rule_ids), error.rule_ids
    assert verdict.rule_ids is not None or verdict.cites, "a refusal case names the rule ids it expects"
    assert error.errors == (verdict.errors if verdict.errors is not None else {"rule": [verdict.code]})


def table_entries(**tables: dict) -> list:
    """One case per (table, key): the rule a hooks table must point to, named after its element."""
    return [pytest.param(table, key, rule, id=f"{table}:{key[1]}->{rule.__name__}")
            for table, expected in tables.items() for key, rule in expected.items()]
