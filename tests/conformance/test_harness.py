"""The harness itself: the library side shares no code with the engine, the committed diagrams are
the catalogue's, and a difference between the two sides is caught."""
from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conformance import build, corpus
from tests.conformance.outcome import Diverged, Outcome
from tests.conformance.play import compare, refusal_names_an_element
from tests.conformance.scenario import DIAGRAMS, Scenario


def test_the_library_side_imports_nothing_of_tramite():
    probe = ("import sys, tests.conformance.library_player as p; "
             "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('engine', 'api')); "
             "print(bad); sys.exit(1 if bad else 0)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=corpus.REPO)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_committed_diagrams_are_the_catalogues():
    expected = build.expected()
    on_disk = {p.name: {f.name: f.read_text(encoding="utf-8") for f in p.iterdir()}
               for p in DIAGRAMS.iterdir() if p.is_dir()}
    assert on_disk == expected, "diagrams out of date: run python -m tests.conformance.build"


@pytest.mark.parametrize("change", [
    {"state": "completed"}, {"steps": [["start"], ["a", "b"]]}, {"data": {"x": 2}}, {"open_tasks": ["a"]},
    {"error_element": "gw"}, {"human_path": ["a"]}])
def test_any_difference_between_the_sides_fails(change):
    base = dict(state="waiting", steps=[["start"], ["a"]], open_tasks=[], data={"x": 1}, error_element=None)
    with pytest.raises(Diverged):
        compare(Scenario("k", "c", lambda d: None), Outcome(**base), Outcome(**{**base, **change}))
    compare(Scenario("k", "c", lambda d: None), Outcome(**base), Outcome(**base))


def test_a_refusal_must_say_where():
    assert refusal_names_an_element({"gw_1": ["X"]})
    assert not refusal_names_an_element({})
    assert not refusal_names_an_element({"definition": ["Data Store has no implementation"]})


def test_the_corpus_is_found_beside_the_clone():
    assert (corpus.CORPUS / "MANIFEST.json").exists(), f"expected the shared corpus at {corpus.CORPUS}"
    assert len(corpus.sweep_entries()) >= 200
