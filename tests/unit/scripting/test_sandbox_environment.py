"""The script sandbox used directly, without a workflow: the environment and the deploy-time check.

Split from test_sandbox.py (the workflow-level tests and the budget) to keep each file short.
"""
from __future__ import annotations

import uuid

import pytest

from engine.errors import ScriptError
from engine.scripting import sandbox as scripting
from engine.scripting.sandbox import (
    SAFE_BUILTIN_NAMES,
    SandboxedEnvironment,
    undeclared_calls,
)

FUNCTIONS = {"double": lambda value: value * 2}


# --- the environment used directly ------------------------------------------------------------

def test_evaluate_sees_task_data_and_functions_without_changing_them():
    env = SandboxedEnvironment(FUNCTIONS)
    context = {"x": 2, "items": [1, 2, 3]}
    assert env.evaluate("double(x) + sum(items)", context) == 10
    assert env.evaluate("(y := 5) + x", context) == 7
    assert context == {"x": 2, "items": [1, 2, 3]}


def test_external_context_is_visible_but_not_kept():
    env = SandboxedEnvironment({})
    context = {"x": 1}
    env.execute("y = x + shared", context, {"shared": 10})
    assert context == {"x": 1, "y": 11}


@pytest.mark.parametrize("functions", [
    {"_hidden": len}, {"len": len}, {"type": len}, {"not valid": len}, {"value": 3},
])
def test_bad_function_whitelists_are_rejected(functions):
    with pytest.raises(ValueError):
        SandboxedEnvironment(functions)


def test_compiled_code_is_cached_per_source_and_mode(monkeypatch):
    calls = []
    real = scripting.compile_restricted

    def counting(source, *args, **kwargs):
        calls.append((source, kwargs.get("mode")))
        return real(source, *args, **kwargs)

    monkeypatch.setattr(scripting, "compile_restricted", counting)
    env = SandboxedEnvironment(FUNCTIONS)
    source = f"double(x) + len('{uuid.uuid4().hex}')"
    for _ in range(3):
        assert env.evaluate(source, {"x": 1}) == 34
    for _ in range(2):
        env.execute(source, {"x": 1})
    assert calls == [(source, "eval"), (source, "exec")]


def test_refused_compilation_is_a_script_error_not_a_syntax_error():
    env = SandboxedEnvironment({})
    with pytest.raises(ScriptError, match="invalid attribute name"):
        env.evaluate("x.__class__", {"x": 1})
    with pytest.raises(ScriptError, match="SyntaxError"):
        env.execute("if", {})


# --- the deploy-time check --------------------------------------------------------------------

def test_undeclared_calls_reports_unknown_plain_calls():
    assert undeclared_calls("y = double(x) + len(z) + os_system(1)", {"double"}) == ["os_system"]


def test_undeclared_calls_ignores_method_calls_and_own_functions():
    source = "\n".join([
        "items.append(1)",
        "v = d.get('k')",
        "def helper(a):",
        "    return a",
        "w = helper(Decimal('1')) + spawn(2) + spawn(3) + fork()",
    ])
    assert undeclared_calls(source, set()) == ["spawn", "fork"]


def test_undeclared_calls_in_expressions_and_safe_builtins():
    assert undeclared_calls("amount > limit(kind)", {"limit"}, mode="eval") == []
    assert undeclared_calls("open('x')", set(), mode="eval") == ["open"]
    assert {"len", "Decimal", "timedelta", "dict"} <= SAFE_BUILTIN_NAMES
    assert "open" not in SAFE_BUILTIN_NAMES


def test_undeclared_calls_syntax_error_is_a_script_error():
    with pytest.raises(ScriptError, match="does not parse"):
        undeclared_calls("y = (", set())
