"""Deploy a version of a process: validate everything, store it once, identical content is a no-op."""
from __future__ import annotations

import hashlib

from sqlalchemy import select

from engine.identity import accounts
from engine.definitions import repository
from engine.definitions.validation import validate
from engine.errors import BadRequest
from engine.persistence.models import ProcessDefinition


def content_hash(files: dict[str, str]) -> str:
    digest = hashlib.sha256()
    for name, content in sorted(files.items()):
        digest.update(name.encode() + b"\0" + content.encode() + b"\0")
    return digest.hexdigest()


def _as_text(files: dict[str, bytes | str]) -> dict[str, str]:
    out = {}
    for name, content in files.items():
        if isinstance(content, bytes):
            try:
                content = content.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise BadRequest(f"{name} is not UTF-8 text", {name: ["NOT_UTF8"]}) from None
        out[name.rsplit("/", 1)[-1]] = content
    return out


def deploy(ctx, key: str, files: dict[str, bytes | str]) -> tuple[ProcessDefinition, bool]:
    """(version, created): created is False when identical content was deployed before."""
    if not files:
        raise BadRequest("no files uploaded", {"files": ["upload at least one .bpmn file"]})
    texts = _as_text(files)
    digest = content_hash(texts)
    session = ctx.session
    existing = session.scalars(select(ProcessDefinition).where(
        ProcessDefinition.key == key, ProcessDefinition.hash == digest)).first()
    if existing is not None:
        return existing, False

    def deployed_files(child_key):
        child = repository.latest(session, child_key)
        return None if child is None else (child.id, child.files)

    summary = validate(texts, key, roles=accounts.role_ids(session), script_problems=ctx.scripts.problems,
                       deployed_files=deployed_files)
    definition = ProcessDefinition(
        key=key, version=repository.next_version(session, key), name=summary["process"]["name"],
        hash=digest, files=texts, summary=summary, deployed_by=ctx.actor.username, deployed_at=ctx.now)
    session.add(definition)
    session.flush()
    ctx.audit("process_deployed", data={"key": key, "version": definition.version, "hash": digest,
                                        "files": sorted(texts)})
    return definition, True
