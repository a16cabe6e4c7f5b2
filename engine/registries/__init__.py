"""State that outlives a case (DESIGN.md §Parts): one module per registry, with its table.

Scripts never see a session: they reach a registry through the narrow, audited functions that
`script_api` binds to the running command.
"""
