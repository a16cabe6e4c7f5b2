"""Bring a database to life: migrations, built-in roles and parameters, the procedures deployed."""
from __future__ import annotations

import logging
from pathlib import Path

from engine.commands.deploy import deploy
from engine.commands.setup import seed_catalogues
from engine.identity.actor import SYSTEM
from engine.kernel.engine import Engine
from engine.procedures import ALL
from engine.definitions.parsing import describe
from engine.config.paths import forms_dir_for, processes_dir

log = logging.getLogger("tramite.bootstrap")


def make_engine(database_url: str, clock=None, *, replica_url: str | None = None,
                prepared_statements: bool = True) -> Engine:
    """The engine with every procedure of `engine/procedures` (the composition the app and CLI use)."""
    return Engine(database_url, clock, procedures=ALL, replica_url=replica_url,
                  prepared_statements=prepared_statements)


def prepare(engine, *, upgrade: bool = True) -> None:
    if upgrade:
        engine.db.upgrade()
    engine.execute(seed_catalogues, SYSTEM)


def procedure_files(folder: Path, forms_root: Path) -> dict[str, bytes]:
    files = {p.name: p.read_bytes() for p in sorted(folder.iterdir())
             if p.suffix in (".bpmn", ".dmn")}
    form_folder = forms_root / folder.name
    if form_folder.is_dir():
        files.update({p.name: p.read_bytes() for p in sorted(form_folder.glob("*.json"))})
    return files


def deploy_directory(engine, path: Path | None = None, actor=SYSTEM) -> list[dict]:
    """Deploy every executable process of every procedure folder under `path`; unchanged ones are no-ops."""
    root = Path(path) if path else processes_dir()
    results = []
    folders = [p for p in sorted(root.iterdir()) if p.is_dir() and any(p.glob("*.bpmn"))] if root.is_dir() else []
    pending = []
    for folder in folders:
        files = procedure_files(folder, forms_dir_for(root))
        info = describe({n: c.decode("utf-8") for n, c in files.items() if n.endswith(".bpmn")})
        called = {e.get("called_element") for e in info["elements"].values() if e.get("called_element")}
        keys = [k for k, p in info["processes"].items() if p["executable"]]
        # Called processes first, so a parent pins the child version deployed in this same run.
        keys.sort(key=lambda k: (k not in called, k))
        pending.extend((folder, files, key) for key in keys)
    for folder, files, key in pending:
        definition, created = engine.execute(deploy, actor, key, files, seed=True)
        results.append({"procedure": folder.name, "key": key, "version": definition.version, "created": created})
        log.info("%s %s v%s", "deployed" if created else "unchanged", key, definition.version)
    return results
