"""Deploy a version of a process: validate everything, store it once, identical content is a no-op."""
from __future__ import annotations

import hashlib
import json

from engine.identity import accounts
from engine.identity.actor import BUILTIN_ROLES
from engine.definitions import form_files, repository
from engine.definitions.validation import validate
from engine.errors import BadRequest
from engine.kernel import access
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


def deploy(ctx, key: str, files: dict[str, bytes | str], *, seed: bool = False) -> tuple[ProcessDefinition, bool]:
    """(version, created): created is False when the content is that of the latest version.

    Content identical to an older version is a revert (API.md): a new version, so new cases run it.
    `seed`: the procedures folder deployed at start-up, where any version it already holds is
    unchanged — or every restart would undo what an owner deployed since from the modeler."""
    access.require_process_owner(ctx.actor)
    if not files:
        raise BadRequest("no files uploaded", {"files": ["upload at least one .bpmn file"]})
    texts = _as_text(files)
    digest = content_hash(texts)
    session = ctx.session
    current = repository.latest(session, key)
    if current is not None and current.hash == digest:
        return current, False
    if seed:
        known = repository.with_hash(session, key, digest)
        if known is not None:
            return known, False

    def deployed_files(child_key):
        child = repository.latest(session, child_key)
        return None if child is None else (child.id, child.files)

    summary = validate(texts, key, roles=accounts.role_ids(session), builtin_roles=BUILTIN_ROLES,
                       script_problems=ctx.scripts.problems, deployed_files=deployed_files)
    definition = ProcessDefinition(
        key=key, version=repository.next_version(session, key), name=summary["process"]["name"],
        hash=digest, files=texts, summary=summary, deployed_by=ctx.actor.username, deployed_at=ctx.now)
    session.add(definition)
    session.flush()
    ctx.audit("process_deployed", data={"key": key, "version": definition.version, "hash": digest,
                                        "files": sorted(texts)})
    return definition, True


def _answer(definition: ProcessDefinition, created: bool) -> tuple[dict, bool]:
    return {"key": definition.key, "version": definition.version, "hash": definition.hash}, created


def deploy_uploads(ctx, key: str, uploads: list[tuple[str, bytes]]) -> tuple[dict, bool]:
    """POST /processes/{key}/versions: the uploaded (file name, content) pairs as a new version;
    `({"key", "version", "hash"}, created)`."""
    access.require_process_owner(ctx.actor)
    if not uploads:
        raise BadRequest("no files uploaded", {"files": ["upload one or more files under the field 'files'"]})
    files = {}
    for name, content in uploads:
        name = (name or "").rsplit("/", 1)[-1]
        if not name:
            raise BadRequest("a file has no name", {"files": ["every file needs a file name"]})
        files[name] = content
    return _answer(*deploy(ctx, key, files))


def _edited_forms(edited: dict | None) -> dict[str, str]:
    out = {}
    for name, content in (edited or {}).items():
        if not isinstance(name, str) or "/" in name or not form_files.is_form_file(name):
            raise BadRequest(f"{name}: not a form file", {str(name): ["UNSUPPORTED_FILE"]})
        out[name] = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
    return out


def deploy_edit(ctx, key: str, base_version: int | None, xml, forms: dict | None) -> tuple[dict, bool]:
    """The modeler's deploy: the base version (None: the latest) with its main diagram replaced by
    `xml` and its forms by `forms` ({file: text}; an empty text removes the file); the rest is kept."""
    access.require_process_owner(ctx.actor)
    base = repository.get_version(ctx.session, key, base_version)
    files = dict(base.files)
    if not isinstance(xml, str) or not xml.strip():
        raise BadRequest("the diagram is empty", {key: ["EMPTY_DIAGRAM"]})
    files[base.summary["process"]["file"]] = xml
    for name, content in _edited_forms(forms).items():
        if content.strip():
            files[name] = content
        else:
            files.pop(name, None)
    return _answer(*deploy(ctx, key, files))
