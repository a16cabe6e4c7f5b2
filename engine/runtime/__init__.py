"""Running cases: script sandbox, timers, persistence of workflow state."""
