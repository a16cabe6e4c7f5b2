"""Benchmark of the case file (issue 17): a 5 MB upload through the HTTP API, the same through the
engine call other commands use, its download, and the certified export of the case.

    python -m bench.documents [--database-url URL] [--uploads 10] [--size-mb 5] [--write]

Runs against a fresh SQLite database in a temporary folder unless a URL is given (a PostgreSQL
URL is migrated as it is: give it an empty database). Documents go to a temporary folder
(`TRAMITE_DOCUMENT_STORAGE` picks the backend, e.g. `postgresql` for large objects). `--write`
replaces the "Documents (issue 17)" section of bench/RESULTS.md; the letters add their own row there.
"""
from __future__ import annotations

import argparse
import io
import os
import platform
import re
import statistics
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from bench.common import PASSWORD, RESULTS, USERNAME, log, ms, pct
from bench.diagram import KEY, ROLE, bench_files

SECTION = "## Documents (issue 17)"


def _pdf(size: int, n: int) -> bytes:
    head = b"%PDF-1.4\n%" + str(n).encode() + b"\n"
    return head + os.urandom(size - len(head) - 6) + b"\n%%EOF"


def run(url: str | None, uploads: int, size_mb: float) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="bench-documents-"))
    os.environ.setdefault("TRAMITE_DOCUMENT_DIR", str(folder / "documents"))
    from api.app import create_app
    from engine.bootstrap import make_engine, prepare
    from engine.commands import accounts
    from engine.config.settings import Settings
    from engine.expediente import documents, storage
    from engine.identity.actor import SYSTEM, Actor

    url = url or f"sqlite:///{folder / 'bench.db'}"
    engine = make_engine(url)
    prepare(engine)

    def seed(ctx):
        accounts.add_role(ctx, ROLE, "Oficinista (banco de pruebas)", "Bench clerk")
        accounts.create_user(ctx, USERNAME, PASSWORD, [ROLE, "process_owner"], full_name="Bench User")
    engine.execute(seed, SYSTEM)
    app = create_app(Settings.from_env(database_url=url, secret_key="bench-secret"), engine=engine, bootstrap=False)
    client = app.test_client()
    token = client.post("/api/v1/auth/token", json={"username": USERNAME, "password": PASSWORD}).get_json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    files = {"files": [(io.BytesIO(c.encode()), n) for n, c in bench_files().items()]}
    assert client.post(f"/api/v1/processes/{KEY}/versions", data=files, headers=auth,
                       content_type="multipart/form-data").status_code == 201
    case = client.post(f"/api/v1/processes/{KEY}/instances", json={"variables": {}}, headers=auth).get_json()
    size = int(size_mb * 1024 * 1024)
    http, direct, download = [], [], []
    for n in range(uploads):
        body = _pdf(size, n)
        began = time.perf_counter()
        r = client.post(f"/api/v1/instances/{case['id']}/documents", headers=auth, content_type="multipart/form-data",
                        data={"file": (io.BytesIO(body), f"plano-{n}.pdf"), "type": "other"})
        http.append(time.perf_counter() - began)
        assert r.status_code == 201, r.get_data(as_text=True)[:500]
        began = time.perf_counter()
        got = client.get(f"/api/v1/documents/{r.get_json()['id']}/content", headers=auth)
        download.append(time.perf_counter() - began)
        assert got.data == body
        clerk = Actor(USERNAME, frozenset({ROLE}))
        other = _pdf(size, 10_000 + n)
        began = time.perf_counter()
        engine.execute(lambda ctx: documents.add_document(ctx, case["id"], other, type="other", filename="x.pdf"), clerk)
        direct.append(time.perf_counter() - began)
    began = time.perf_counter()
    exported = client.get(f"/api/v1/instances/{case['id']}/expediente", headers=auth)
    export_seconds = time.perf_counter() - began
    assert exported.status_code == 200
    engine.db.dispose()
    return {"url": re.sub(r"//[^@/]*@", "//", url).split("?")[0], "backend": storage.backend_name(),
            "uploads": uploads, "size_mb": size_mb, "http": http, "direct": direct, "download": download,
            "export": export_seconds, "export_documents": 2 * uploads, "export_mb": len(exported.data) / 1048576}


def report(result: dict) -> str:
    def row(name, values):
        return f"| {name} | {ms(statistics.median(values))} | {ms(pct(values, 95))} | {len(values)} |"
    mb = result["size_mb"]
    return "\n".join([
        SECTION, "",
        f"- date: {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC; {os.cpu_count()} CPUs; Python {platform.python_version()}",
        f"- command: `python -m bench.documents --uploads {result['uploads']} --size-mb {mb:g}`; database "
        f"`{result['url'].split(':')[0]}`, storage `{result['backend']}` (fsync on every stored file)",
        "- HTTP = Flask's test client, the whole request: multipart parsing, the engine's streamed copy with its "
        "SHA-256, the media check by the bytes, the fsynced store, the folio and the row with its history event",
        "", "| measurement | p50 | p95 | n |", "|---|---|---|---|",
        row(f"upload {mb:g} MB PDF, HTTP `POST /instances/{{id}}/documents`", result["http"]),
        row(f"upload {mb:g} MB, engine `add_document` in a command", result["direct"]),
        row(f"download {mb:g} MB, HTTP `GET /documents/{{id}}/content`", result["download"]),
        f"| certified export, {result['export_documents']} documents ({result['export_mb']:.0f} MB ZIP, index.pdf by "
        f"WeasyPrint) | {ms(result['export'])} | | 1 |",
        "<!-- letters: add the letter generation row here -->", ""])


def write(section: str) -> None:
    text = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else "# Benchmark results\n"
    if SECTION in text:
        start = text.index(SECTION)
        following = text.find("\n## ", start + len(SECTION))
        text = text[:start] + section + (text[following + 1:] if following != -1 else "")
    else:
        text = text.rstrip("\n") + "\n\n" + section
    RESULTS.write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url")
    parser.add_argument("--uploads", type=int, default=10)
    parser.add_argument("--size-mb", type=float, default=5)
    parser.add_argument("--write", action="store_true", help="replace the section in bench/RESULTS.md")
    args = parser.parse_args()
    section = report(run(args.database_url, args.uploads, args.size_mb))
    log(section)
    if args.write:
        write(section)


if __name__ == "__main__":
    main()
