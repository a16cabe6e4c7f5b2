"""Single C calls a script could make to freeze a worker or fill the database, and data too large
to save: each is refused (the case in error at the script) before it runs, and a case never stores
more than its cap."""
from __future__ import annotations

import time
from decimal import Decimal

import pytest

from engine.errors import ScriptError
from engine.scripting.sandbox import SandboxedEnvironment

from .test_script_escapes import play

# Each of these ran, building megabytes or freezing the worker, before the size guards.
ONE_CALL = {
    "int-of-a-huge-decimal": "x = int(Decimal('1e200000'))",
    "round-of-a-huge-decimal": "x = round(Decimal('1e200000'))",
    "int-of-a-huge-decimal-in-the-data": "x = int(amount)",
    "percent-d-of-a-huge-decimal": "x = '%d' % amount",
    "fstring-f-of-a-huge-decimal": "x = f'{amount:f}'",
    "as-integer-ratio": "x = amount.as_integer_ratio()",
    "extend-range": "l = []\nl.extend(range(2 * 10 ** 6))",
    "set-update-range": "s = set()\ns.update(range(2 * 10 ** 6))",
    "fromkeys-range": "d = {}.fromkeys(range(2 * 10 ** 6))",
    "unpack-range": "l = [*range(2 * 10 ** 6)]",
    "fstring-width": "s = f'{1:>100000}'",
    "fstring-width-from-a-variable": "w = 100000\ns = f'{1:>{w}}'",
    "fstring-precision": "s = f'{1.5:.100000f}'",
    "percent-width": "s = '%0100000d' % 1",
    "percent-star-width": "s = '%*d' % (100000, 1)",
    "ljust": "s = 'a'.ljust(2 * 10 ** 6)",
    "center": "s = 'a'.center(2 * 10 ** 6)",
    "zfill": "s = '1'.zfill(2 * 10 ** 6)",
    "expandtabs": "s = ('\\t' * 1000).expandtabs(100000)",
    "replace": "s = ('x' * 10000).replace('x', 'y' * 1000)",
    "join-of-repeated-references": "s = ''.join(['x' * 100000] * 100)",
    "translate": "s = ('x' * 10000).translate({120: 'y' * 1000})",
    "many-small-builds": "ls = []\nfor i in range(30):\n    ls.append([0] * 900000)",
    "many-slices": "b = [0] * 900000\nls = []\nfor i in range(30):\n    ls.append(b[:])",
    "shared-references-that-json-expands": "row = list(range(100000))\nrows = [row] * 200",
    "doubling-references-without-a-loop": "a = ['x' * 1000] * 100\n" + "".join(
        f"{n} = [{p}, {p}]\n" for p, n in zip(["a", *[f"v{i}" for i in range(20)]], [f"v{i}" for i in range(21)])),
    "a-list-holding-itself": "l = []\nl.append(l)",
    "a-float-looked-for-in-a-long-range": "x = 1.5 in range(10 ** 12)",
    "a-float-looked-for-in-a-huge-range": "x = 1.5 in range(10 ** 30)",
}


@pytest.mark.parametrize("name", sorted(ONE_CALL))
def test_a_single_oversized_call_is_refused_before_it_runs(name):
    data = {"amount": Decimal("1e200000")}
    started = time.monotonic()
    with pytest.raises(ScriptError) as refused:
        SandboxedEnvironment({}).execute(ONE_CALL[name], data)
    assert time.monotonic() - started < 5  # "does not hang": each refusal is a check, not the work
    assert "script" in refused.value.message


def test_ordinary_formatting_and_building_still_work():
    data = {"x": Decimal("1234.5")}
    SandboxedEnvironment({}).execute(
        "a = f'{x:,.2f}|{3:05d}|{\"b\":>4}' + '%s-%05.1f' % ('q', 2.25) + 'c'.ljust(3) + '7'.zfill(3)\n"
        "n = int(Decimal('12.7')) + round(Decimal('2.5')) + int('42')\n"
        "l = [*range(3), *[9]]\nl.extend(range(2))\nd = {**{'k': 1}, 'j': 2}\n"
        "s = '-'.join(str(i) for i in l) + 'ab'.replace('a', 'zz')\n"
        "big = Decimal(10) ** 20\nfound = (5 in range(10 ** 12), 'a' in ['a'], 2.0 in range(3))\n", data)
    assert data["a"] == "1,234.50|00003|   b" + "q-002.2" + "c  " + "007"
    assert data["n"] == 12 + 2 + 42 and data["l"] == [0, 1, 2, 9, 0, 1] and data["d"] == {"k": 1, "j": 2}
    assert data["s"] == "0-1-2-9-0-1zzb" and data["big"] == Decimal("1E+20")
    assert data["found"] == (True, True, True)


def test_decimal_arithmetic_cannot_reach_a_huge_exponent():
    with pytest.raises(ArithmeticError):
        SandboxedEnvironment({}).execute("x = Decimal(10) ** 100000", {})


@pytest.mark.parametrize("code", [
    "x = int(Decimal('1e200000'))",
    "l = []\nl.extend(range(2 * 10 ** 6))",
    "s = f'{1:>100000}'",
    "row = list(range(100000))\nrows = [row] * 200",
])
def test_the_case_stops_in_error_at_the_script(api, code):
    _, case = play(api, code)
    assert case["status"] == "error" and case["error"]["element_id"] == "run", case
    assert "script refused" in case["error"]["message"]
    assert case["open_tasks"] == []


def test_a_completion_that_would_store_more_than_a_case_may_hold_is_refused(api, monkeypatch):
    from tests.support import bpmn as b
    monkeypatch.setenv("TRAMITE_MAX_CASE_DATA_BYTES", "200000")
    xml = b.diagram("test_big", lanes={"test_clerk": ["start", "fill", "after", "end"]},
                    nodes=[b.start(), b.user("fill"), b.user("after"), b.end()],
                    flows=b.chain("start", "fill", "after", "end"))
    api.deploy("test_big", {"big.bpmn": xml, "fill.schema.json": b.form({}, {"note": {"type": "string"}}),
                            "after.schema.json": b.form({})})
    case = api.post("/api/v1/processes/test_big/instances", "clerk", {"variables": {}}, expect=201)
    task = api.open_task(case, "fill")
    done = api.call("POST", f"/api/v1/tasks/{task['id']}/complete", "clerk", json={"data": {"note": "x" * 300_000}})
    assert done.status_code == 422, done.get_json()
    assert "too large" in done.get_json()["errors"]["_schema"][0]
    # Nothing changed: the task is still open, the case still at it.
    assert api.get(f"/api/v1/tasks/{task['id']}", "clerk")["state"] == "open"
    again = api.get(f"/api/v1/instances/{case['id']}", "clerk")
    assert again["status"] == "active" and [t["element_id"] for t in again["open_tasks"]] == ["fill"]
    ok = api.call("POST", f"/api/v1/tasks/{task['id']}/complete", "clerk", json={"data": {"note": "fine"}})
    assert ok.status_code == 200, ok.get_json()
