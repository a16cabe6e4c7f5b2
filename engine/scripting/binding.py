"""One engine's scripts: the sandbox shared by every case, with this command's helpers bound while
a script runs, and every rule call written to the case history with its rule ids and inputs.
"""
from __future__ import annotations

from typing import Callable

from engine.kernel.procedure import Procedures
from engine.rules.decision import Decision
from engine.rules.reasons import explain
from engine.runtime import records
from engine.scripting import current, scope
from engine.scripting.helpers import HELPER_NAMES, engine_helpers
from engine.errors import ScriptError
from engine.scripting.sandbox import compile_sandboxed, make_script_engine, undeclared_calls


class Scripts:
    """The whitelist and the shared sandboxed engine of one `Engine` (its procedures fixed)."""

    def __init__(self, procedures: Procedures):
        self.procedures = procedures
        self.whitelist = HELPER_NAMES | procedures.names()
        self._families = {name: family for family in procedures.helpers for name in family.names}
        self._shared = None
        self._scoped: dict[str | None, frozenset[str]] = {}

    def allowed_for(self, process_key: str | None) -> frozenset[str]:
        """What the scripts of a case of `process_key` may call: the general helpers, the pure
        rules, and the registry helpers of the procedure that owns the key (HelperFamily)."""
        if process_key not in self._scoped:
            self._scoped[process_key] = (HELPER_NAMES | frozenset(self.procedures.script_functions)
                                         | self.procedures.helpers_for(process_key))
        return self._scoped[process_key]

    def problems(self, source: str, mode: str, process_key: str | None = None) -> list[str]:
        """What the deploy check refuses in one script or expression, as `CODE: detail` lines.

        With `process_key`, only the procedure helpers a process of that key may not call (the
        deploy asks for these apart, so each problem is reported once)."""
        if process_key is not None:
            return self._out_of_scope(source, mode, process_key)
        try:
            unknown = undeclared_calls(source, set(self.whitelist), mode=mode)
        except ScriptError as exc:
            return [f"SCRIPT_INVALID: {exc.message}"]
        problems = [f"UNKNOWN_FUNCTION: {name}() is not in the whitelist" for name in unknown]
        try:
            compile_sandboxed(source, mode)
        except ScriptError as exc:
            problems.append(f"SCRIPT_INVALID: {exc.message}")
        return problems

    def _out_of_scope(self, source: str, mode: str, process_key: str) -> list[str]:
        owners = self.procedures.helper_owners
        try:
            unknown = undeclared_calls(source, set(self.allowed_for(process_key)), mode=mode)
        except ScriptError:
            return []  # reported as SCRIPT_INVALID by the general check
        return [scope.refuse_helper(name, owners[name][0], process_key).message for name in unknown if name in owners]

    def shared(self):
        # Built on first use: the whitelist is fixed for the engine, only the command differs.
        if self._shared is None:
            self._shared = make_script_engine({name: _trampoline(name) for name in sorted(self.whitelist)})
        return self._shared

    def engine_for(self, ctx, instance_id: int | None, frozen: dict | None):
        """A sandboxed script engine whose helpers see this command's clock, case and transaction."""
        return _RecordingEngine(self.shared(), _Binding(self, ctx, instance_id, frozen))


class _RecordingEngine:
    """Delegates to the shared engine, with the command's helpers bound and the running element known."""

    def __init__(self, inner, binding: "_Binding"):
        self._inner = inner
        self._binding = binding

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def _with_element(self, task, call):
        binding_token = current.binding.set(self._binding)
        token = current.element.set(getattr(task.task_spec, "bpmn_id", None))
        task_token = current.task.set(task)
        try:
            return call()
        finally:
            current.task.reset(task_token)
            current.element.reset(token)
            current.binding.reset(binding_token)

    def execute(self, task, script, external_context=None):
        return self._with_element(task, lambda: self._inner.execute(task, script, external_context))

    def evaluate(self, task, expression, external_context=None):
        return self._with_element(task, lambda: self._inner.evaluate(task, expression, external_context))


class _Binding:
    """One command's helpers, each made the first time a script calls it.

    Most commands run scripts that call few helpers or none; making all of them for every command
    cost more than running the benchmark's whole workflow.
    """

    def __init__(self, scripts: Scripts, ctx, instance_id: int | None, frozen: dict | None):
        self.scripts, self.ctx, self.instance_id, self._frozen = scripts, ctx, instance_id, frozen
        self._made: dict[str, Callable] = {}
        self._facts: scope.CaseFacts | None = None

    def helper(self, name: str) -> Callable:
        if name not in self._made:
            rule = self.scripts.procedures.script_functions.get(name)
            family = self.scripts._families.get(name)
            if rule is not None:
                self._made[name] = _recorded(self.ctx, self.instance_id, name, rule)
            elif family is not None:
                # Refused here too, not only at deploy: a call the deploy check cannot see
                # (`[set_farmer_status][0](...)`) reaches the same trampoline.
                if name not in self.scripts.allowed_for(self.facts().process_key):
                    raise scope.refuse_helper(name, self.scripts.procedures.helper_owners[name][0],
                                              self.facts().process_key)
                # Only this family's names: one bind may make helpers of several scopes.
                bound = family.bind(self.acting_for(), self.instance_id)
                self._made.update({n: bound[n] for n in family.names})
            else:
                self._made.update(engine_helpers(self.acting_for(), self.instance_id, self.frozen_parameters,
                                                 check_notice=self.notice_check()))
        return self._made[name]

    def facts(self) -> scope.CaseFacts:
        """The case's process key, starter and deployer, read the first time a helper needs them."""
        if self._facts is None:
            self._facts = scope.case_facts(self.ctx.conn, self.instance_id)
        return self._facts

    def acting_for(self):
        # Lazy: most commands bind `today()` or `param()` and never write an event through it.
        return scope.ActingFor(self.ctx, lambda: scope.on_behalf_of(self.ctx, self.facts()))

    def notice_check(self):
        def check(recipient, address) -> None:
            if self.facts().process_key in self.scripts.procedures.owned_processes:
                return  # a procedure's own diagram: its contract decides whom it notifies
            scope.check_notice(self.ctx.conn, self.instance_id, recipient, address)
        return check

    def frozen_parameters(self) -> dict:
        """The parameters the case froze at its start, read the first time a script asks."""
        if self._frozen is None:
            self._frozen = records.frozen_parameters(self.ctx.conn, self.instance_id) \
                if self.instance_id is not None else {}
        return self._frozen


def _trampoline(name: str) -> Callable:
    def call(*args, **kwargs):
        binding = current.binding.get()
        if binding is None:
            raise RuntimeError(f"{name}() is available only while a case's script runs")
        return binding.helper(name)(*args, **kwargs)
    call.__name__ = name
    return call


def _recorded(ctx, instance_id, name, rule):
    def call(*args, **kwargs):
        decision = rule(*args, **kwargs)
        if not isinstance(decision, Decision):
            return decision
        why = explain(name, decision)  # the decision and each reason in words (engine/rules/reasons)
        ctx.audit("decision", instance_id=instance_id, element_id=current.current_element(),
                  rule_ids=decision.rule_ids,
                  # A rule that words its decision is read on the case page in that sentence.
                  message=decision.details.get("explanation") or why["es"],
                  data={"rule": name, "outcome": decision.outcome, "inputs": decision.inputs,
                        **decision.details, "why": why}, actor="engine")
        return decision.as_dict()
    call.__name__ = name
    return call
