"""The layout says the architecture: no import circle in engine/ or api/, few loose modules, small files.

The layer rules themselves are import-linter contracts (pyproject.toml, run by `make test`); this
file holds what a contract cannot say.
"""
from __future__ import annotations

from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[2]
MAX_LINES = 400


@pytest.fixture(scope="module")
def graph():
    return grimp.build_graph("engine", "api")


def _cycles(graph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    modules = sorted(graph.modules)
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for root in modules:
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.find_modules_directly_imported_by(child)))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_a_cycle():
    # The finder itself must be able to fail: a three-module circle and a tail.
    fake = grimp.ImportGraph()
    for name in ("pkg", "pkg.a", "pkg.b", "pkg.c", "pkg.d"):
        fake.add_module(name)
    for importer, imported in (("pkg.a", "pkg.b"), ("pkg.b", "pkg.c"), ("pkg.c", "pkg.a"), ("pkg.d", "pkg.a")):
        fake.add_import(importer=importer, imported=imported)
    assert _cycles(fake) == [["pkg.a", "pkg.b", "pkg.c"]]


def test_no_import_circle_in_engine_or_api(graph):
    assert _cycles(graph) == []


def test_engine_has_at_most_four_loose_modules():
    loose = sorted(p.name for p in (ROOT / "engine").glob("*.py"))
    assert len(loose) <= 4, loose


def test_no_source_file_is_over_400_lines():
    long = {}
    for folder in ("engine", "api", "tests", "bench"):
        for path in (ROOT / folder).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > MAX_LINES:
                long[str(path.relative_to(ROOT))] = lines
    assert long == {}
