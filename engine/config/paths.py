"""Where the data files live: the diagrams, forms, roles and parameter catalogue."""
from __future__ import annotations

import os
from pathlib import Path

# engine/config/paths.py: three levels up is the repository, which bundles `processes/`.
_REPO = Path(__file__).resolve().parents[2]


def processes_dir() -> Path:
    if os.environ.get("TRAMITE_PROCESSES_DIR"):
        return Path(os.environ["TRAMITE_PROCESSES_DIR"])
    local = Path.cwd() / "processes"
    return local if local.is_dir() else _REPO / "processes"


def forms_dir_for(processes: Path) -> Path:
    """Forms sit beside the diagrams' folder: `forms/<procedure>/`, named as `form_files` says."""
    return processes.parent / "forms"


def data_dir() -> Path:
    return Path(os.environ.get("TRAMITE_DATA_DIR") or Path.cwd() / "data")
