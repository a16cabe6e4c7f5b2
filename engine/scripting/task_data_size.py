"""How much the task data a script leaves would take as JSON, measured before anything writes it.

A script can make data far larger as JSON than in memory: `rows = [row] * 200` holds one list 200
times, which the serializer writes 200 times; twenty lines of `a = [b, b]` double it twenty times.
`data_problem` counts a value held twice twice, as JSON does, but measures it once, so the answer
comes in time linear in the distinct objects, without building the JSON. The sandbox calls it after
every script: the case stops in error at the script instead of failing, or filling the database,
when it is saved.
"""
from __future__ import annotations

from decimal import Decimal

MAX_DATA_BYTES = 16 * 1024 * 1024  # what one script's task data may take as JSON (about)
MAX_DATA_DEPTH = 100

_SCALAR_SIZE = {bool: 5, type(None): 4, float: 24}
_FLAT = frozenset({str, int, bool, float, type(None), Decimal})


def data_problem(data: dict, limit: int = MAX_DATA_BYTES) -> str | None:
    """Why the task data a script leaves cannot be saved, or None: more than `limit` bytes as JSON, or
    nested beyond MAX_DATA_DEPTH. A value held twice counts twice, as JSON writes it twice, but is
    measured once: `[big] * 1000` is found without building its JSON."""
    if all(type(v) in _FLAT for v in data.values()):  # the usual case, measured without a walk
        total = sum(len(v) if type(v) is str else 34 for v in data.values())
        return None if total <= limit else f"the case's data would take {total // 1024 // 1024 or 1} MB or more " \
            f"(a case may hold {limit // 1024 // 1024} MB)"
    sizes: dict[int, int] = {}
    keep = []  # measured objects stay alive, so an id is never reused within one measurement
    scalar = _SCALAR_SIZE

    def items(values, depth: int) -> int:
        # Scalars inline: this runs after every script, over all of its task's data.
        total = 0
        for value in values:
            kind = type(value)
            if kind is str:
                total += len(value) + 3
            elif kind is int:
                total += value.bit_length() // 3 + 2
            elif kind in scalar:
                total += scalar[kind]
            elif kind is Decimal:
                total += 34  # 28 digits and an exponent, as the context keeps them
            else:
                total += container(value, depth) + 1
        return total

    def container(value, depth: int) -> int:
        kind = type(value)
        if kind not in (dict, list, tuple, set):
            return 32  # a date, a time: their text is short
        known = sizes.get(id(value))
        if known is not None:
            if known < 0:
                raise _TooMuch("holds itself")
            return known
        if depth > MAX_DATA_DEPTH:
            raise _TooMuch(f"is nested more than {MAX_DATA_DEPTH} levels deep")
        sizes[id(value)] = -1
        keep.append(value)
        total = 2 + (items(value, depth + 1) + items(value.values(), depth + 1) if kind is dict
                     else items(value, depth + 1))
        if total > limit:
            raise _TooMuch(f"would take {total // 1024 // 1024 or 1} MB or more")
        sizes[id(value)] = total
        return total

    # Walked one variable at a time so that the refusal names the variable at fault.
    sizes[id(data)] = -1
    total, name = 2, None
    try:
        for name, value in data.items():
            total += len(str(name)) + 4 + items((value,), 1)
            if total > limit:
                raise _TooMuch(f"would take {total // 1024 // 1024 or 1} MB or more")
    except _TooMuch as exc:
        return f"NON_JSON_VALUE: variable {name} holds a {type(data[name]).__name__} that contains itself" \
            if str(exc) == "holds itself" else \
            f"the case's data {exc} (a case may hold {limit // 1024 // 1024} MB)"
    return None


class _TooMuch(Exception):
    pass
