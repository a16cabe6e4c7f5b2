"""Run by test_crash.py in a subprocess: upload a document and die by SIGKILL at the point named.

    python -m tests.api.expediente.crash_upload DATABASE_URL CASE_ID POINT

Points: `mid_blob` (half the bytes written), `after_blob` (bytes stored, no row yet),
`before_commit` (row and history written, transaction not committed)."""
from __future__ import annotations

import os
import signal
import sys

from engine.bootstrap import make_engine
from engine.expediente import documents, storage
from engine.identity.actor import Actor
from engine.kernel.context import CommandContext

CONTENT = b"%PDF-1.4\n" + b"x" * (3 * storage.CHUNK) + b"\n%%EOF\n"


def die():
    os.kill(os.getpid(), signal.SIGKILL)


def main(url: str, case_id: int, point: str) -> None:
    if point == "mid_blob":
        real_chunks = storage._chunks

        def chunks(content):
            for n, chunk in enumerate(real_chunks(content)):
                if n == 2:
                    die()
                yield chunk
        storage._chunks = chunks
    elif point == "after_blob":
        for backend in storage.BACKENDS.values():
            real_put = backend.put
            backend.put = lambda self, conn, spooled, _put=real_put: (_put(self, conn, spooled), die())[0]
    elif point == "before_commit":
        real_finish = CommandContext.finish
        CommandContext.finish = lambda self: (real_finish(self), die())
    else:
        raise SystemExit(f"unknown point {point}")
    engine = make_engine(url)
    engine.execute(lambda ctx: documents.add_document(ctx, case_id, CONTENT, type="id_card", filename="c.pdf"),
                   Actor("clerk", frozenset({"test_clerk"}), None))
    raise SystemExit("the upload finished: the injected kill never happened")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
