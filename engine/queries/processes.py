"""Reading deployed process versions: their metadata and files, the versions side by side, and the
procedures a user may start."""
from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.definitions import form_files, repository, version_diff
from engine.identity.actor import Actor
from engine.kernel import access
from engine.persistence.models import ProcessDefinition, ProcessInstance
from engine.queries import shapes
from engine.queries.cases import list_processes


def version_detail(session: Session, key: str, version: int) -> dict:
    """GET /processes/{key}/versions/{version}: metadata, element list, forms."""
    return shapes.definition(repository.get_version(session, key, version), with_files=True)


def version_bpmn(session: Session, key: str, version: int | None = None) -> str:
    """The XML of the version's main diagram."""
    definition = repository.get_version(session, key, version)
    return definition.files[definition.summary["process"]["file"]]


def version_files(session: Session, key: str, version: int | None = None) -> dict:
    """A version with its files and summary, as the modeler edits it (None: the latest)."""
    definition = repository.get_version(session, key, version)
    return {"key": definition.key, "version": definition.version, "name": definition.name,
            "files": dict(definition.files), "summary": dict(definition.summary)}


def versions_by_key(session: Session) -> dict[str, list[dict]]:
    """{process key: its versions, newest first, with who deployed each and when}."""
    rows = session.execute(select(ProcessDefinition.key, ProcessDefinition.version, ProcessDefinition.name,
                                  ProcessDefinition.deployed_at, ProcessDefinition.deployed_by,
                                  ProcessDefinition.hash).order_by(ProcessDefinition.key,
                                                                   ProcessDefinition.version.desc()))
    out: dict[str, list[dict]] = {}
    for r in rows:
        out.setdefault(r.key, []).append({"version": r.version, "name": r.name, "deployed_at": r.deployed_at,
                                          "deployed_by": r.deployed_by, "hash": r.hash[:12]})
    return out


def catalogue(session: Session) -> dict:
    """The process owner's list: every process with its latest version and running cases, and all
    its versions."""
    return {"processes": list_processes(session), "versions": versions_by_key(session)}


def version_comparison(session: Session, key: str, old: int | None = None, new: int | None = None) -> dict | None:
    """Two versions of `key` and what changed between them (default: the newest and the one before
    it); None when `key` was never deployed."""
    versions = [v["version"] for v in versions_by_key(session).get(key, [])]
    if not versions:
        return None
    new = new or versions[0]
    old = old or max([v for v in versions if v < new] or [new])
    a, b = version_files(session, key, old), version_files(session, key, new)
    return {"versions": versions, "old": a, "new": b,
            "diff": version_diff.compare(a["summary"], a["files"], b["summary"], b["files"])}


def is_deployed(session: Session, key: str) -> bool:
    return repository.latest(session, key) is not None


def has_cases(session: Session, key: str) -> bool:
    """Whether any case of `key` was ever started (the demo seeds its sample cases only once)."""
    return session.scalar(select(ProcessInstance.id).where(ProcessInstance.process_key == key).limit(1)) is not None


def startable(session: Session, versions, actor: Actor) -> list[dict]:
    """The latest version of every procedure `actor` may start, with its starter lane."""
    out = []
    for process in list_processes(session):
        definition = repository.info(versions, session, repository.version_id(session, process["key"]))
        if access.may_start(actor, definition.summary.get("starter_lane")):
            out.append({"key": definition.key, "name": definition.name, "version": definition.version,
                        "lane": definition.summary.get("starter_lane"),
                        "has_form": form_files.start_form(definition.files).schema is not None})
    return out


def start_form(session: Session, versions, actor: Actor, key: str) -> dict:
    """What starting a case of `key` asks for: the latest version, its start form and whether
    `actor` may start one (the start command decides again)."""
    definition = repository.info(versions, session, repository.version_id(session, key))
    form = form_files.start_form(definition.files)
    return {"definition": definition,
            "schema": form.schema or {"type": "object", "properties": {}}, "ui": form.ui or {},
            "allowed": access.may_start(actor, definition.summary.get("starter_lane"))}
