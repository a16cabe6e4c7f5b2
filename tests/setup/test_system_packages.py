"""The quick start on a fresh machine (issue 16, item 11): one list of Debian packages,
scripts/system-packages.sh, used by the README's set-up command and by .ci/run; it installs only
what is missing, as root, and otherwise says what to install. These tests run it with stand-ins
for dpkg-query, apt-get and id on PATH, so nothing is ever installed; and `make -n run` shows the
PORT and HOST it was given."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "system-packages.sh"
NEEDED = {"chromium", "fonts-dejavu-core", "fonts-liberation", "libpango-1.0-0", "libpangoft2-1.0-0",
          "libharfbuzz0b", "poppler-utils", "make", "python3-venv"}


def fake_bin(tmp_path: Path, installed: set[str], uid: int = 0) -> Path:
    """dpkg-query answering from `installed`, an apt-get that only records its arguments, an id."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    listed = " ".join(sorted(installed))
    scripts = {
        "dpkg-query": f'for p in {listed}; do [ "$p" = "${{@: -1}}" ] && printf "install ok installed" && exit 0; done\n'
                      'exit 1\n',
        "apt-get": f'echo "$*" >> "{tmp_path}/apt-calls"\n',
        "id": f'echo {uid}\n',
    }
    for name, body in scripts.items():
        (bin_dir / name).write_text("#!/bin/bash\n" + body)
        (bin_dir / name).chmod(0o755)
    return bin_dir


def run(tmp_path: Path, *args: str, installed: set[str] = frozenset(), uid: int = 0, path_tail: str = "/usr/bin:/bin"):
    bin_dir = fake_bin(tmp_path, set(installed), uid)
    env = {"PATH": f"{bin_dir}:{path_tail}", "HOME": str(tmp_path)}
    done = subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True, env=env, timeout=30,
                          stdin=subprocess.DEVNULL)
    calls = (tmp_path / "apt-calls").read_text().splitlines() if (tmp_path / "apt-calls").exists() else []
    return done, calls


def listed(*args: str) -> list[str]:
    out = subprocess.run(["bash", str(SCRIPT), "--list", *args], capture_output=True, text=True, check=True,
                         timeout=30).stdout
    return out.split()


def test_the_list_holds_what_the_app_and_the_tests_need():
    packages = listed()
    assert NEEDED <= set(packages) and "postgresql" not in packages
    assert {"postgresql", "pgbouncer"} <= set(listed("--ci")) and "pgbouncer" not in packages


def test_a_dry_run_names_what_is_missing_and_installs_nothing(tmp_path):
    done, calls = run(tmp_path, "--dry-run", installed=set(listed()) - {"chromium", "poppler-utils"})
    assert done.returncode == 0, done.stderr
    assert "missing: chromium poppler-utils" in done.stdout and "would run:" in done.stdout
    assert calls == []


def test_as_root_only_the_missing_packages_are_installed(tmp_path):
    done, calls = run(tmp_path, "--ci", installed=set(listed()) - {"fonts-liberation"})
    assert done.returncode == 0, done.stderr
    assert calls == ["update -q", "install -y -q --no-install-recommends fonts-liberation postgresql pgbouncer"]


def test_with_everything_installed_apt_is_not_touched(tmp_path):
    done, calls = run(tmp_path, installed=set(listed()))
    assert done.returncode == 0 and "every Debian package is installed" in done.stdout and calls == []


def test_without_root_it_says_what_to_install_and_succeeds(tmp_path):
    done, calls = run(tmp_path, installed=set(listed()) - {"chromium"}, uid=1000)
    assert done.returncode == 0 and calls == []
    assert "sudo bash scripts/system-packages.sh" in done.stderr and "chromium" in done.stderr


def test_an_unknown_option_is_refused(tmp_path):
    done, calls = run(tmp_path, "--everything")
    assert done.returncode == 2 and "unknown option" in done.stderr and calls == []


def test_the_readme_and_ci_install_from_the_one_list():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick_start = readme[readme.index("## Quick start"):readme.index("## Command line")]
    assert "sudo bash scripts/system-packages.sh" in quick_start
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "bash scripts/system-packages.sh --ci" in ci and "apt-get install" not in ci


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
@pytest.mark.parametrize("how", ["argument", "environment"])
def test_make_run_listens_on_the_port_and_host_it_is_given(how):
    args, env = ["make", "-n", "run"], dict(os.environ)
    if how == "argument":
        args += ["PORT=8100", "HOST=0.0.0.0"]
    else:
        env.update(PORT="8100", HOST="0.0.0.0")
    out = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, env=env, timeout=60).stdout
    assert "tramite serve --host '0.0.0.0' --port '8100'" in out
    default = subprocess.run(["make", "-n", "run"], cwd=ROOT, capture_output=True, text=True, timeout=60,
                             env={k: v for k, v in os.environ.items() if k not in ("PORT", "HOST")}).stdout
    assert "tramite serve --host '127.0.0.1' --port '8000'" in default


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
@pytest.mark.parametrize("target", ["run", "test"])
def test_the_two_quick_start_commands_begin_with_the_debian_packages(target):
    # Run under `make test` itself, a nested make prints "make[1]: Entering directory" first: not a step.
    out = subprocess.run(["make", "--no-print-directory", "-n", target], cwd=ROOT, capture_output=True, text=True,
                         timeout=60).stdout
    steps = [line for line in out.splitlines() if not line.startswith("make[")]
    assert steps[0] == "bash scripts/system-packages.sh"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick_start = readme[readme.index("## Quick start"):readme.index("## Command line")]
    block = quick_start.split("```sh\n", 1)[1].split("```", 1)[0]
    assert [line.split("#")[0].strip() for line in block.strip().splitlines()] == ["sudo make run", "make test"]
