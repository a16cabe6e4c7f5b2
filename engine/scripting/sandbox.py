"""The sandbox that script tasks, gateway conditions, timer expressions and DMN cells run in.

SpiffWorkflow's stock environment runs plain `exec`/`eval` with every builtin, so `import os` and
`().__class__.__base__.__subclasses__()` work (SPIFFWORKFLOW.md, "Script tasks are NOT sandboxed
by default"). `SandboxedEnvironment` compiles everything with RestrictedPython under
`sandbox_policy.SandboxPolicy`, runs it with only the safe builtins, the guards and the helper
functions you whitelist, and bounds each evaluation by a step/time `Budget` that works in any
thread. `undeclared_calls` is the deploy-time check of the names a script calls.

Usage::

    wf = BpmnWorkflow(spec, subprocess_specs, script_engine=make_script_engine(RULE_FUNCTIONS))
    # The script engine is not serialized: set it again after every load, or scripts run
    # unrestricted.
    wf.script_engine = make_script_engine(RULE_FUNCTIONS)

How a refusal surfaces (verified by tests/unit/scripting/test_sandbox.py):

- Anything the sandbox refuses (compile-time policy, budget, oversized arithmetic,
  `str.format`, writing into a non-container) raises `engine.errors.ScriptError` inside the
  environment. Ordinary script bugs (NameError, ZeroDivisionError, ...) are left as they are, so
  SpiffWorkflow can point at the line and suggest names.
- `wf.do_engine_steps()` (or `task.run()`) then raises
  `SpiffWorkflow.bpmn.exceptions.WorkflowTaskException` with `exc.__cause__` the original error
  (our `ScriptError`, with `.message`), `exc.error_type == "ScriptError"`, the message inside
  `str(exc)`, `exc.task` the failing task and, for script tasks, `exc.line_number` when the error
  was raised while the script was running (0 for compile-time refusals: their message names the
  line). The stock engine loses the message of a failed *expression* (gateway condition, timer)
  from `str(exc)`; `SandboxedScriptEngine` keeps it there too.
- The failing script task is left in `TaskState.ERROR`; for a gateway condition the gateway task
  is. Task data already written by a script that failed half-way stays written, as in stock.
"""
from __future__ import annotations

import ast
import functools
from types import CodeType
from typing import Callable

from RestrictedPython import compile_restricted
from SpiffWorkflow.bpmn.exceptions import WorkflowTaskException
from SpiffWorkflow.bpmn.script_engine import PythonScriptEngine, TaskDataEnvironment
from SpiffWorkflow.exceptions import SpiffWorkflowException

from engine.errors import ScriptError
from engine.scripting.saveable import refuse_unsaveable
from engine.scripting.policy import (
    DEFAULT_MAX_SECONDS, DEFAULT_MAX_STEPS, FORBIDDEN_CALLS, SAFE_BUILTIN_NAMES, SCRIPT_CLOCK, Budget, SandboxPolicy,
    static_builtins,
)
from engine.scripting.size_guards import decimal_context
from engine.scripting.task_data_size import data_problem

__all__ = [
    "SAFE_BUILTIN_NAMES",
    "SandboxedEnvironment",
    "SandboxedScriptEngine",
    "compile_sandboxed",
    "make_script_engine",
    "undeclared_calls",
]

COMPILE_CACHE_SIZE = 2048


@functools.lru_cache(maxsize=COMPILE_CACHE_SIZE)
def compile_sandboxed(source: str, mode: str) -> CodeType:
    """Compile `source` under the sandbox policy, once per (source, mode) while cached.

    The cache is module-wide because engines are rebuilt after every workflow load while the
    diagrams' scripts stay the same.
    """
    try:
        # '<string>' is the filename SpiffWorkflow looks for in tracebacks to report line numbers.
        return compile_restricted(source, filename="<string>", mode=mode, policy=SandboxPolicy)
    except SyntaxError as exc:
        # RestrictedPython's SyntaxError carries its messages in args and no lineno; SpiffWorkflow
        # would crash formatting it.
        details = exc.args[0] if exc.args else str(exc)
        if isinstance(details, (tuple, list)):
            details = "; ".join(str(d) for d in details)
        raise ScriptError(f"script refused: {str(details).rstrip('.')}") from None
    except (TypeError, ValueError) as exc:  # not text, or null bytes
        raise ScriptError(f"script refused: {exc}") from None


class SandboxedEnvironment(TaskDataEnvironment):
    """A `TaskDataEnvironment` that compiles with RestrictedPython and runs under a budget.

    Task data is read and written exactly as the stock environment does: expressions see the task
    data as globals; scripts run with the task data dict as their globals, so new and changed
    variables stay in it, while callables, external context and our builtins are removed after.
    The whitelisted functions live in the restricted `__builtins__`, never in task data.
    `max_steps`, `max_seconds` and `clock` make each evaluation's `Budget`.
    """

    def __init__(self, functions: dict[str, Callable] | None = None, *,
                 max_steps: int | None = DEFAULT_MAX_STEPS,
                 max_seconds: float | None = DEFAULT_MAX_SECONDS,
                 clock: Callable[[], float] = SCRIPT_CLOCK):
        functions = dict(functions or {})
        for name, func in functions.items():
            if (not name.isidentifier() or name.startswith("_") or name in SAFE_BUILTIN_NAMES
                    or name in FORBIDDEN_CALLS):
                raise ValueError(f"cannot whitelist a function named {name!r}")
            if not callable(func):
                raise ValueError(f"whitelisted {name!r} is not callable")
        # The stock overwrite check and clean-up read self.globals: a task variable named like a
        # rule function is refused before the script runs, as in stock.
        super().__init__(functions)
        self.functions = functions
        self.max_steps = max_steps
        self.max_seconds = max_seconds
        self.clock = clock
        self._static_builtins = static_builtins(functions)

    def _sandbox(self) -> tuple[Budget, dict]:
        budget = Budget(self.max_steps, self.max_seconds, clock=self.clock)
        restricted = dict(self._static_builtins)
        restricted.update(budget.builtins(self._static_builtins))
        return budget, restricted

    def evaluate(self, expression, context, external_context=None):
        code = compile_sandboxed(expression, "eval")
        budget, restricted = self._sandbox()
        self._prepare_context(context)
        my_globals = dict(external_context or {})
        my_globals.update(context)
        my_globals["__builtins__"] = restricted
        with decimal_context():
            result = eval(code, my_globals)
        budget.check()
        return result

    def execute(self, script, context, external_context=None):
        external_context = external_context or {}
        try:
            self.check_for_overwrite(context, external_context)
        except ValueError as exc:
            raise ScriptError(str(exc)) from None
        code = compile_sandboxed(script, "exec")
        budget, restricted = self._sandbox()
        before = dict(context)
        self._prepare_context(context)
        context.update(external_context)
        context["__builtins__"] = restricted
        try:
            with decimal_context():
                exec(code, context)
        finally:
            self._remove_globals_and_functions_from_context(context, external_context)
        # A bare `except:` in the script may have swallowed the budget error.
        budget.check()
        # Checked here, not when the case is saved, so that the case stops in error at this script.
        problem = data_problem(context)
        if problem:
            # The case is saved in error at this script: without what it built, or it could not be.
            context.clear()
            context.update(before)
            raise ScriptError(f"script refused: {problem}")
        return True


class SandboxedScriptEngine(PythonScriptEngine):
    """`PythonScriptEngine` that chains the original error as `__cause__` and keeps its message.

    The stock `evaluate` reports only "Error evaluating expression '...'", dropping why.
    """

    def evaluate(self, task, expression, external_context=None):
        try:
            return self.environment.evaluate(expression, task.data, external_context)
        except SpiffWorkflowException as exc:
            exc.add_note(f"Error evaluating expression '{expression}'")
            raise
        except Exception as exc:
            raise WorkflowTaskException(
                f"Error evaluating expression '{expression}': {type(exc).__name__}: {exc}",
                task=task, exception=exc) from exc

    def execute(self, task, script, external_context=None):
        try:
            result = self.environment.execute(script, task.data, external_context or {})
        except Exception as exc:
            wrapped = self.create_task_exec_exception(task, script, exc)
            if wrapped is exc:  # already a SpiffWorkflow error, annotated in place
                raise
            raise wrapped from exc
        refuse_unsaveable(task)  # a value the case cannot save fails here, not at the save
        return result

    def call_service(self, task, **kwargs):
        # No service is wired to Tramite (deploy refuses service tasks); the library's fallback
        # fails with a NameError of its own, a 500, for a version deployed before that refusal.
        raise WorkflowTaskException(
            f"SERVICE_TASK_UNSUPPORTED: {task.task_spec.bpmn_id} calls the service "
            f"{kwargs.get('operation_name')!r}; Tramite calls no external services", task=task)


def make_script_engine(functions: dict[str, Callable], **budget) -> PythonScriptEngine:
    """A script engine for one workflow; `budget` takes `max_steps`, `max_seconds` and `clock`.

    Production passes none of them (1,000,000 steps, 2 CPU seconds of the running thread, `SCRIPT_CLOCK`); see `Budget`
    for why tests pass them.
    """
    return SandboxedScriptEngine(environment=SandboxedEnvironment(functions, **budget))


def undeclared_calls(source: str, allowed: set[str], mode: str = "exec") -> list[str]:
    """Names called in `source` that are neither in `allowed` nor safe builtins, in source order.

    Only plain calls `name(...)` count: method calls (`x.append(1)`) are the sandbox's business at
    run time. Functions the script defines itself with `def` are not reported.
    """
    try:
        tree = ast.parse(source, mode=mode)
    except SyntaxError as exc:
        raise ScriptError(f"script does not parse: line {exc.lineno}: {exc.msg}") from None
    except ValueError as exc:
        raise ScriptError(f"script does not parse: {exc}") from None
    known = set(allowed) | SAFE_BUILTIN_NAMES
    known.update(n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef))
    calls = sorted(
        (node for node in ast.walk(tree)
         if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
         and node.func.id not in known),
        key=lambda node: (node.lineno, node.col_offset),
    )
    return list(dict.fromkeys(node.func.id for node in calls))
