"""State that outlives a case (DESIGN.md §Parts): one repository module per registry; the tables
themselves are in `engine/persistence/models/`.

Scripts never see a session: they reach a registry through the narrow, audited functions each
procedure's `bindings.py` binds to the running command.
"""
