"""Writes every scenario's diagram and forms under diagrams/<key>/ from the builder:

    python -m tests.conformance.build

test_harness.py fails when the committed files and the builder disagree, so the diagrams on disk
(what both players read) are always the ones the catalogue describes."""
from __future__ import annotations

import shutil

from tests.conformance.catalog import all_scenarios
from tests.conformance.scenario import DIAGRAMS


def expected() -> dict[str, dict[str, str]]:
    return {s.key: s.diagram().files() for s in all_scenarios()}


def main() -> None:
    wanted = expected()
    for folder in DIAGRAMS.iterdir():
        if folder.is_dir() and folder.name not in wanted:
            shutil.rmtree(folder)
    for key, files in wanted.items():
        folder = DIAGRAMS / key
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        for name, content in files.items():
            (folder / name).write_text(content, encoding="utf-8")
    print(f"{len(wanted)} diagrams written under {DIAGRAMS}")


if __name__ == "__main__":
    main()
