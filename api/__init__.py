"""Tramite's HTTP layer: thin Flask routes that parse, call one engine command, and render."""
