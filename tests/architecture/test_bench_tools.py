"""The benchmarks in bench/ are not tests, but they must still run: each module imports (a helper
renamed in one left another failing at its first line, found only when the figures were wanted),
and each command line parses its --help (every one is argparse's: a wrong call gets its usage)."""
from __future__ import annotations

import contextlib
import importlib
import inspect
import io
import pkgutil
import sys

import pytest

import bench

MODULES = sorted(m.name for m in pkgutil.iter_modules(bench.__path__))


def test_there_are_benchmarks_to_check():
    assert {"engine", "production", "profile_http", "profile_timers"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_each_benchmark_imports_and_its_help_parses(name, monkeypatch):
    module = importlib.import_module(f"bench.{name}")
    main = getattr(module, "main", None)
    if main is None:
        return  # a helper module: importing it is the check
    assert "argparse" in inspect.getsource(module), "a command line says its usage (argparse), not a traceback"
    monkeypatch.setattr(sys, "argv", [f"python -m bench.{name}", "--help"])  # as a shell would run it
    takes_argv = bool(inspect.signature(main).parameters)  # main(argv=None) or main(argv), else sys.argv
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as done:
        main(["--help"]) if takes_argv else main()
    assert done.value.code == 0, out.getvalue()
    assert "usage:" in out.getvalue()
