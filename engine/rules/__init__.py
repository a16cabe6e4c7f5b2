"""Pure decision functions, one module per procedure; they import nothing else of ours.

A procedure module exposes two tables that the engine reads:
- `SCRIPT_FUNCTIONS`: {name: function} callable from script tasks (each returns a `Decision`);
- `COMPLETION_RULES`: {(process key, task element id): function(data, case) -> None} run after
  JSON Schema validation when a task is completed; they raise `RuleViolation`.
"""
