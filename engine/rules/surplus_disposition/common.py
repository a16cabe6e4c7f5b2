"""Small shared helpers of the surplus rules: exact money (TC-4/TC-5) and days."""
from __future__ import annotations

from datetime import date
from decimal import ROUND_HALF_UP, Decimal

from engine.rules.calendar import as_local_date
from engine.rules.decision import RuleViolation
from engine.rules.money import cents as money_cents

SUR = "surplus_disposition"

# Requester kinds of the contract and the groups the rules speak of.
KINDS = ("agencia_componente", "agencia_ejecutiva", "municipio", "sin_fines_de_lucro", "productor")
STATE_AGENCIES = ("agencia_componente", "agencia_ejecutiva")  # «agencias del Gobierno» (AMB-06)
GOVERNMENT = ("agencia_componente", "agencia_ejecutiva", "municipio")
PAYING_KINDS = ("productor", "sin_fines_de_lucro")  # pay the collector before delivery (FAR-25, SUR-21)


def cents(value) -> Decimal:
    """Exact cents, half-up (TC-5); an absent amount is zero; refuses what is not an amount."""
    if value is None or value == "":
        return Decimal("0.00")
    return money_cents(value, rounding=ROUND_HALF_UP)


def text(amount: Decimal) -> str:
    return str(cents(amount))


def day(value) -> date:
    """The legal day of a value (the engine's one date policy): an instant is the Puerto Rico day
    it falls on, so a delivery stamped 22:00 in San Juan (02:00 UTC) keeps its own day."""
    return as_local_date(value)


def refuse(code: str, message: str, *rule_ids: str, values: dict | None = None):
    """`values`: the figures the refusal's sentence names (messages.py)."""
    raise RuleViolation(code, message, rule_ids, values=values)
