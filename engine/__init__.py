"""Tramite's case engine: deploys BPMN definitions and runs cases, one transaction per command.

Nothing in this package imports Flask; `api/` is the only HTTP layer.
"""
