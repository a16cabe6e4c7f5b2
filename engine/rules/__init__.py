"""Pure decision functions, one package per procedure; they import nothing else of ours.

Each procedure's package exposes the tables its `engine/procedures/<p>` declaration assembles:
- `SCRIPT_FUNCTIONS`: {name: function} callable from script tasks (each returns a `Decision`);
- `COMPLETION_RULES` / `MESSAGE_RULES`: {(process key, element id or message): rule(data, facts)}
  run after JSON Schema validation; they raise `RuleViolation` (or `Refusal`) to refuse.
Beside them: `calendar` (the one date policy and deadline arithmetic), `money`, `decision`, `facts`.
"""
