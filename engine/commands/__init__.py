"""Engine commands: each one runs inside the single transaction `Engine.execute` opens for it."""
