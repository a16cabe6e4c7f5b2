"""engine.config.paths: the bundled diagrams are found from any working directory."""
from __future__ import annotations

from pathlib import Path

from engine.config import paths

REPO = Path(__file__).resolve().parents[3]


def test_without_setting_or_local_folder_the_bundled_processes_are_used(tmp_path, monkeypatch):
    # Run from a folder with no `processes/` of its own: the repository's bundled diagrams remain.
    monkeypatch.delenv("TRAMITE_PROCESSES_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    assert paths.processes_dir() == REPO / "processes"
    assert (paths.processes_dir() / "roles.json").is_file()


def test_the_setting_wins(tmp_path, monkeypatch):
    monkeypatch.setenv("TRAMITE_PROCESSES_DIR", str(tmp_path))
    assert paths.processes_dir() == tmp_path


def test_forms_sit_beside_the_diagrams():
    assert paths.forms_dir_for(REPO / "processes") == REPO / "forms"
