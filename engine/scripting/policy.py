"""Compile-time policy and run-time guards for the script sandbox (see `scripting`).

`SandboxPolicy` is the RestrictedPython transformer every script and expression is compiled with.
On top of RestrictedPython's own rules (no names or attributes starting with `_`, no imports that
resolve, no `eval`/`exec`) it:

- inserts `_tick_()` at the start of every `while`/`for` body, every `def` body and every lambda,
  so a per-evaluation `Budget` bounds Python-level work without signals or tracing (any thread);
- routes `a ** b`, `a * b`, `a + b`, `a << b`, `a % b` through size-checking guards, so one
  expression cannot allocate gigabytes (`10 ** 10 ** 10`, `'x' * 10 ** 9`, `s = s + s` doubling,
  `'%0999999999d' % 1`);
- routes f-string fields (`_format_`) and `*`/`**` unpacking (`_starred_`) through
  `size_guards`, which checks widths and sizes before the C call runs;
- refuses calls to introspection/IO builtins by name and class definitions, so the author gets a
  clear compile-time message instead of a NameError at run time.

`Budget` also wraps every iteration (`_getiter_`) and the builtins that consume an iterable in C
(`sum`, `sorted`, `list`, ...) in a counting iterator, so comprehensions and
`sum(range(10 ** 12))` are bounded too. A `for` iteration therefore costs two steps.

What one C call may build (string methods taking a size, `list.extend`, Decimal exponents) and
what a whole evaluation may allocate and leave as task data are `size_guards`' business, and so is
what `in` scans (`1.5 in range(10 ** 12)` scans in C).
"""
from __future__ import annotations

import ast
import builtins
import math
import operator
import time
from datetime import timedelta
from decimal import Decimal
from typing import Callable

from RestrictedPython import RestrictingNodeTransformer
from RestrictedPython.Guards import (
    guarded_iter_unpack_sequence,
    guarded_unpack_sequence,
    safer_getattr_raise,
)

from engine.errors import ScriptError
from engine.scripting.clock import EngineDate, EngineDatetime
from engine.scripting.size_guards import (
    MAX_ALLOCATED_ITEMS, MAX_INT_BITS, MAX_INT_EXPONENT, Sizes, check_add, check_mul, refuse,
)

DEFAULT_MAX_STEPS = 1_000_000
DEFAULT_MAX_SECONDS = 2.0
# The seconds a script may use are the CPU seconds of the thread running it, not the wall clock: on
# a loaded server (other requests, the timer worker, a busy database host) a legitimate script was
# stopped half-way by time it spent waiting for a core, leaving its case in error. A runaway script
# still burns its own CPU and stops; scripts cannot block (no I/O, no sleep), so nothing escapes.
SCRIPT_CLOCK = time.thread_time

SAFE_BUILTIN_NAMES: frozenset[str] = frozenset({
    "len", "min", "max", "sum", "sorted", "round", "abs", "any", "all", "enumerate", "range",
    "zip", "str", "int", "float", "bool", "dict", "list", "set",
    "Decimal", "date", "datetime", "timedelta",
})

# Refused at compile time even though they would only fail with NameError at run time: the
# author of a diagram should read "not allowed", not "did you mean ...".
FORBIDDEN_CALLS = frozenset({
    "open", "compile", "getattr", "setattr", "delattr", "hasattr", "type", "globals", "locals",
    "vars", "dir", "input", "breakpoint", "help", "memoryview", "object", "super", "classmethod",
    "staticmethod", "property", "exit", "quit", "id", "callable", "bytearray", "iter",
    "next", "reversed", "filter", "map",
})

_GUARDED_BINOPS = {ast.Pow: "_pow_", ast.Mult: "_mul_", ast.Add: "_add_", ast.LShift: "_lshift_",
                   ast.Mod: "_mod_"}


def _located(new: ast.AST, old: ast.AST) -> ast.AST:
    # Generated nodes take the position of the node they guard, so tracebacks name its line.
    return ast.fix_missing_locations(ast.copy_location(new, old))


def _tick_call(node: ast.AST) -> ast.Call:
    return _located(ast.Call(func=ast.Name("_tick_", ast.Load()), args=[], keywords=[]), node)


class SandboxPolicy(RestrictingNodeTransformer):
    """RestrictedPython policy with step-budget ticks and guarded arithmetic."""

    # The nodes added below are inserted after their parent was visited, so RestrictedPython's
    # check on names starting with "_" never sees them, while the script's own `_tick_` is refused.

    def visit_While(self, node):
        node = super().visit_While(node)
        node.body.insert(0, _located(ast.Expr(_tick_call(node)), node))
        return node

    def visit_For(self, node):
        node = super().visit_For(node)
        node.body.insert(0, _located(ast.Expr(_tick_call(node)), node))
        return node

    def visit_FunctionDef(self, node):
        # Recursion makes loops without any `while`/`for` (f calls f twice: 2**n calls).
        node = super().visit_FunctionDef(node)
        node.body.insert(0, _located(ast.Expr(_tick_call(node)), node))
        return node

    def visit_Lambda(self, node):
        node = super().visit_Lambda(node)
        # `_tick_()` returns None, so `None or body` evaluates to the body.
        node.body = _located(ast.BoolOp(op=ast.Or(), values=[_tick_call(node), node.body]),
                             node.body)
        return node

    def visit_BinOp(self, node):
        node = super().visit_BinOp(node)
        guard = _GUARDED_BINOPS.get(type(node.op))
        if guard is None:
            return node
        call = ast.Call(func=ast.Name(guard, ast.Load()), args=[node.left, node.right], keywords=[])
        return _located(call, node)

    def visit_FormattedValue(self, node):
        # f'{x:>200000000}' builds its text in one C call: `_format_` checks the spec first.
        node = super().visit_FormattedValue(node)
        spec = node.format_spec if node.format_spec is not None else ast.Constant("")
        call = ast.Call(func=ast.Name("_format_", ast.Load()),
                        args=[node.value, ast.Constant(node.conversion), spec], keywords=[])
        return _located(ast.FormattedValue(value=call, conversion=-1, format_spec=None), node)

    def visit_Compare(self, node):
        # `1.5 in range(10 ** 12)` and `x in zip(...)` scan in C without a step: `_in_` checks first.
        node = super().visit_Compare(node)
        if len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)):
            call = ast.Call(func=ast.Name("_in_", ast.Load()), args=[node.comparators[0]], keywords=[])
            node.comparators = [_located(call, node.comparators[0])]
        return node

    def visit_Starred(self, node):
        # `[*items]`, `f(*items)`: the unpacking copies in C, so its size is checked and charged.
        node = super().visit_Starred(node)
        if isinstance(node.ctx, ast.Load):
            node.value = _located(ast.Call(func=ast.Name("_starred_", ast.Load()), args=[node.value],
                                           keywords=[]), node.value)
        return node

    def visit_Dict(self, node):
        node = super().visit_Dict(node)
        node.values = [_located(ast.Call(func=ast.Name("_starred_", ast.Load()), args=[value], keywords=[]), value)
                       if key is None else value for key, value in zip(node.keys, node.values)]
        return node

    def visit_Call(self, node):
        if isinstance(node.func, ast.Name) and node.func.id in FORBIDDEN_CALLS:
            self.error(node, f'calling "{node.func.id}" is not allowed in scripts')
        return super().visit_Call(node)

    def visit_Name(self, node):
        # Checked before RestrictedPython turns `print` into its print collector, which would
        # also emit a SyntaxWarning for a script we refuse anyway.
        if node.id in ("print", "printed"):
            self.error(node, f'"{node.id}" is not available in scripts')
            return node
        return super().visit_Name(node)

    def visit_Import(self, node):
        self.error(node, "imports are not allowed in scripts")
        return node

    visit_ImportFrom = visit_Import

    def visit_ClassDef(self, node):
        self.error(node, "class definitions are not allowed in scripts")
        return node


class Budget:
    """Steps and CPU time (`SCRIPT_CLOCK`) one evaluation may use; exhausted stays exhausted.

    Staying exhausted matters: a script that swallows the error with a bare `except:` hits it
    again at its next loop iteration or call, and the environment re-checks after the run.

    `max_steps` or `max_seconds` may be None for "no such limit", and `clock` is the time source
    (seconds, never going back). Both exist so a test can exercise exactly one limit: with the
    real clock and both limits set, which one fires first depends on how loaded the machine is.
    """

    def __init__(self, max_steps: int | None = DEFAULT_MAX_STEPS,
                 max_seconds: float | None = DEFAULT_MAX_SECONDS,
                 clock: Callable[[], float] = SCRIPT_CLOCK):
        self.max_steps = max_steps
        self.max_seconds = max_seconds
        self.clock = clock
        self.steps = 0
        # Infinity rather than a None test in `tick`, which runs for every loop iteration.
        self._step_limit = math.inf if max_steps is None else max_steps
        self.deadline = math.inf if max_seconds is None else clock() + max_seconds
        self.exceeded: str | None = None
        self.allocated = 0  # items (characters, elements) the size-checked builders made

    def tick(self) -> None:
        self.steps += 1
        if self.exceeded is None:
            if self.steps > self._step_limit:
                self.exceeded = f"{self.max_steps} steps"
            elif self.clock() > self.deadline:
                self.exceeded = f"{self.max_seconds} seconds"
            else:
                return
        self.check()

    def check(self) -> None:
        if self.exceeded is not None:
            raise ScriptError(f"script exceeded its {self._kind} budget ({self.exceeded})")

    _kind = "time"

    def exceeded_memory(self) -> None:
        if self.exceeded is None:
            self.exceeded, self._kind = f"{MAX_ALLOCATED_ITEMS} items allocated", "memory"
        self.check()

    def iterate(self, iterable):
        tick = self.tick
        for item in iterable:
            tick()
            yield item

    def builtins(self, static: dict) -> dict:
        """Names whose behaviour depends on this budget, to merge into the static builtins."""
        iterate = self.iterate

        def _sum(iterable, /, start=0):
            return sum(iterate(iterable), start)

        def _min(*args, **kwargs):
            return min(iterate(args[0]), **kwargs) if len(args) == 1 else min(*args, **kwargs)

        def _max(*args, **kwargs):
            return max(iterate(args[0]), **kwargs) if len(args) == 1 else max(*args, **kwargs)

        def _sorted(iterable, /, *, key=None, reverse=False):
            return sorted(iterate(iterable), key=key, reverse=reverse)

        def _dict(*args, **kwargs):
            # A mapping is copied by keys, not iterated as pairs; it already exists in memory.
            if args and not hasattr(args[0], "keys"):
                args = (iterate(args[0]),)
            return dict(*args, **kwargs)

        return {
            "_tick_": self.tick,
            "_getiter_": iterate,
            "sum": _sum,
            "min": _min,
            "max": _max,
            "sorted": _sorted,
            "any": lambda iterable, /: any(iterate(iterable)),
            "all": lambda iterable, /: all(iterate(iterable)),
            "list": lambda iterable=(), /: list(iterate(iterable)),
            "set": lambda iterable=(), /: set(iterate(iterable)),
            "dict": _dict,
            **Sizes(self).builtins(static),
        }


def _check_pow(base, exponent) -> None:
    if isinstance(base, int) and isinstance(exponent, int) and exponent > 0 and abs(base) > 1:
        if exponent > MAX_INT_EXPONENT or base.bit_length() * exponent > MAX_INT_BITS:
            refuse(f"the power with exponent {exponent}")


def _check_lshift(value, shift) -> None:
    if isinstance(value, int) and isinstance(shift, int) and value:
        if value.bit_length() + shift > MAX_INT_BITS:
            refuse(f"the shift by {shift} bits")


def _guarded(check, op):
    def guarded(left, right):
        check(left, right)
        return op(left, right)
    return guarded


_INPLACE_OPS = {
    "+=": _guarded(check_add, operator.iadd),
    "*=": _guarded(check_mul, operator.imul),
    "**=": _guarded(_check_pow, operator.ipow),
    "<<=": _guarded(_check_lshift, operator.ilshift),
    "-=": operator.isub,
    "/=": operator.itruediv,
    "//=": operator.ifloordiv,
    "%=": operator.imod,
    ">>=": operator.irshift,
    "&=": operator.iand,
    "|=": operator.ior,
    "^=": operator.ixor,
    "@=": operator.imatmul,
}


def guarded_inplacevar(op: str, target, value):
    return _INPLACE_OPS[op](target, value)


def guarded_getattr(obj, name: str):
    # safer_getattr_raise, unlike safer_getattr, reports a missing attribute instead of
    # silently answering None, which would hide typos in scripts.
    try:
        return safer_getattr_raise(obj, name)
    except NotImplementedError as exc:  # str.format & co: attribute walks inside format fields
        raise ScriptError(f"script refused: {exc}") from None


def guarded_write(obj):
    # Only plain containers may be assigned into; attribute assignment on them fails by itself.
    if isinstance(obj, (dict, list, set)):
        return obj
    raise ScriptError(f"script refused: cannot assign into a value of type {type(obj).__name__}")


def guarded_getitem(obj, index):
    return obj[index]


def guarded_apply(func, *args, **kwargs):
    return func(*args, **kwargs)


def static_builtins(functions: dict) -> dict:
    """The builtins every evaluation shares; `Budget.builtins()` completes them per evaluation."""
    names = {name: getattr(builtins, name) for name in SAFE_BUILTIN_NAMES if hasattr(builtins, name)}
    # date/datetime read the engine clock in now()/today() (engine.scripting.clock).
    names.update({"Decimal": Decimal, "date": EngineDate, "datetime": EngineDatetime, "timedelta": timedelta,
                  "None": None, "True": True, "False": False})
    names.update(functions)
    names.update({
        "_getattr_": guarded_getattr,
        "_getitem_": guarded_getitem,
        "_write_": guarded_write,
        "_apply_": guarded_apply,
        "_inplacevar_": guarded_inplacevar,
        "_inplace_ops_": _INPLACE_OPS,
        "_unpack_sequence_": guarded_unpack_sequence,
        "_iter_unpack_sequence_": guarded_iter_unpack_sequence,
        "_pow_": _guarded(_check_pow, operator.pow),
        "_lshift_": _guarded(_check_lshift, operator.lshift),
    })
    return names
