"""A conformance scenario: a diagram, the steps both players take, and what Tramite promises."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from tests.conformance.builder import Diagram

DIAGRAMS = Path(__file__).parent / "diagrams"


@dataclass(frozen=True)
class Known:
    """Today's code fails this scenario: the issue item, what goes wrong, and how it shows (the
    exception class, so a fix that fails differently — say, a refusal where a run was expected —
    is reported instead of hiding behind the xfail)."""
    item: str
    what: str
    raises: type | tuple = AssertionError
    library_bug: bool = False     # a documented divergence: SpiffWorkflow alone is the one that is wrong


@dataclass
class Scenario:
    key: str                      # process id, diagram folder and test id
    construct: str                # its row in the README's supported-constructs table
    build: Callable[[Diagram], None]
    steps: list[tuple] = field(default_factory=list)
    variables: dict = field(default_factory=dict)
    refused: str | None = None    # Tramite refuses it at deploy with this code, naming an element
    allow_error: bool = False     # Tramite may stop it in `error` naming the element (a budget)
    known: Known | None = None
    note: str = ""                # why, when the verdict alone would surprise (a refusal by decision)

    def diagram(self) -> Diagram:
        diagram = Diagram(self.key)
        self.build(diagram)
        return diagram

    def files(self) -> dict[str, str]:
        """The diagram as committed under diagrams/<key>/ (what both players read)."""
        folder = DIAGRAMS / self.key
        return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.iterdir()) if p.is_file()}


def steps(*items) -> list[tuple]:
    return list(items)


def complete(task, data=None, nth=0):
    return ("complete", task, data or {}, nth)


def message(name, payload=None):
    return ("message", name, payload or {})


def wait(duration):
    return ("wait", duration)


def send_signal(name, payload=None):
    return ("signal", name, payload or {})
