"""What a procedure declares to the engine, and the registry of them that `Engine(...)` is handed.

A procedure is one `Procedure` value (`engine/procedures/<name>/__init__.py`): its processes and
their case-number prefixes, the pure rule functions scripts may call, the helpers bound to the
running command (registries), and the rules the engine runs before a case moves (start, completion,
message), each keyed by (process key, element id or message name). `Procedures(...)` merges them
and refuses any key declared twice, so no rule ever silently shadows another.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping

from engine.definitions.case_index import DEFAULT as DEFAULT_CASE_INDEX, CaseIndex
from engine.rules.facts import Facts

Key = tuple[str, str]  # (process key, element id or message name)
# A lookup reads, in the command's transaction, what a pure rule needs from a registry:
# lookup(ctx, data, facts) -> the `reference` mapping handed to the rule.
Lookup = Callable[[Any, dict, Facts], Mapping[str, Any]]


@dataclass(frozen=True)
class HelperFamily:
    """Script helpers made together for one command: `bind(ctx, instance_id) -> {name: function}`.

    They write registries or reach people, so only the processes of the procedure that declares
    them may call them (its `prefixes` keys), plus the process keys in `shared_with` (surplus
    disposition opens sale bids). A case's scripts run with its top process key, so a called
    sub-process gets its caller's helpers, never more. Any other process (a diagram a process owner
    deployed under a key of their own) has only the engine's general helpers and pure rules.
    """
    names: frozenset[str]
    bind: Callable[[Any, int | None], dict[str, Callable]]
    shared_with: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Procedure:
    name: str
    prefixes: Mapping[str, str] = field(default_factory=dict)        # process key -> case-number prefix
    script_functions: Mapping[str, Callable] = field(default_factory=dict)  # pure, return a Decision
    helpers: tuple[HelperFamily, ...] = ()
    completion_rules: Mapping[Key, Callable] = field(default_factory=dict)  # element "start": the start
    message_rules: Mapping[Key, Callable] = field(default_factory=dict)
    lookups: Mapping[Key, Lookup] = field(default_factory=dict)             # same keys as the rules
    lane_refusals: Mapping[Key, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    demo: Callable | None = None                                            # demo(engine, users) -> dict
    case_index: Mapping[str, CaseIndex] = field(default_factory=dict)       # process key -> its search columns

    @property
    def processes(self) -> frozenset[str]:
        """The process keys this procedure owns: the ones it numbers cases for."""
        return frozenset(self.prefixes)


class DuplicateDeclaration(ValueError):
    """Two procedures (or a procedure and the engine) declare the same name or key."""


def _merge(procedures, attribute: str, taken: Mapping[str, str] | None = None) -> dict:
    merged: dict = {}
    owner: dict = dict(taken or {})
    for procedure in procedures:
        for key, value in getattr(procedure, attribute).items():
            if key in owner:
                raise DuplicateDeclaration(f"{attribute} {key!r} is declared by both {owner[key]} "
                                           f"and {procedure.name}")
            owner[key], merged[key] = procedure.name, value
    return merged


class Procedures:
    """The procedures one engine runs; every key at most once (checked when it is built)."""

    def __init__(self, *procedures: Procedure, reserved: frozenset[str] = frozenset()):
        names = [p.name for p in procedures]
        if len(set(names)) != len(names):
            raise DuplicateDeclaration(f"a procedure is declared twice: {sorted(names)}")
        self.all = tuple(procedures)
        self.reserved = reserved
        engine_names = {name: "the engine" for name in reserved}
        self.script_functions = _merge(procedures, "script_functions", engine_names)
        helper_names = _merge([_HelperNames(p) for p in procedures], "script_functions",
                              {**engine_names, **{n: "a rule function" for n in self.script_functions}})
        self.helpers = tuple(f for p in procedures for f in p.helpers)
        self.helper_names = frozenset(helper_names)
        # {helper: (owning procedure, the process keys that may call it)}
        self.helper_owners = {name: (p.name, p.processes | family.shared_with)
                              for p in procedures for family in p.helpers for name in family.names}
        self.owned_processes = frozenset(k for p in procedures for k in p.processes)
        self.prefixes = _merge(procedures, "prefixes")
        self._completion = _merge(procedures, "completion_rules")
        self._message = _merge(procedures, "message_rules")
        self._lookups = _merge(procedures, "lookups")
        self._lane_refusals = _merge(procedures, "lane_refusals")
        self._case_index = _merge(procedures, "case_index")

    def including(self, *more: Procedure) -> "Procedures":
        """These procedures and `more` (tests and plug-ins add theirs this way)."""
        return Procedures(*self.all, *more, reserved=self.reserved)

    def names(self) -> frozenset[str]:
        """What scripts may call beyond the engine's own helpers."""
        return frozenset(self.script_functions) | self.helper_names

    def helpers_for(self, process_key: str | None) -> frozenset[str]:
        """The procedure helpers the scripts of a case of `process_key` may call."""
        return frozenset(n for n, (_, callers) in self.helper_owners.items() if process_key in callers)

    def completion_rule(self, process_key: str, element_id: str) -> Callable | None:
        return self._completion.get((process_key, element_id))

    def message_rule(self, process_key: str, message_name: str) -> Callable | None:
        return self._message.get((process_key, message_name))

    def lookup(self, process_key: str, element_or_message: str) -> Lookup | None:
        return self._lookups.get((process_key, element_or_message))

    def check_completion(self, ctx, process_key: str, element_id: str, data: dict, facts) -> None:
        """Run the rule for completing `element_id` ("start": starting the case), if declared."""
        self._check(self._completion.get((process_key, element_id)), ctx, process_key, element_id, data, facts)

    def check_message(self, ctx, process_key: str, name: str, payload: dict, facts) -> None:
        """Run the rule for receiving message `name`, if declared (also when the case does not wait)."""
        self._check(self._message.get((process_key, name)), ctx, process_key, name, payload, facts)

    def _check(self, rule, ctx, process_key, name, data, facts) -> None:
        # The lookup reads the registries in the command's transaction; the rule itself stays pure.
        # `facts` may be a function that makes them: a case's variables are merged only for a rule.
        if rule is None:
            return
        facts = facts() if callable(facts) else facts
        lookup = self._lookups.get((process_key, name))
        if lookup is not None:
            facts = replace(facts, reference=lookup(ctx, data, facts))
        rule(data, facts)

    def lane_refusal(self, process_key: str, element_id: str) -> dict | None:
        """The rule code a procedure gives to acting on a task outside its lane, if any."""
        refusal = self._lane_refusals.get((process_key, element_id))
        return None if refusal is None else {"rule": [refusal[0]]}

    def case_index(self, process_key: str) -> CaseIndex:
        """Which variables name a case's applicant and references (engine/definitions/case_index.py)."""
        return self._case_index.get(process_key, DEFAULT_CASE_INDEX)

    def prefix_for(self, process_key: str) -> str:
        return self.prefixes.get(process_key) or process_key.replace("_", "")[:3].upper()


class _HelperNames:
    """A procedure's helper names seen as a table, so `_merge` checks them like the others."""

    def __init__(self, procedure: Procedure):
        self.name = procedure.name
        self.script_functions = {n: None for family in procedure.helpers for n in family.names}
